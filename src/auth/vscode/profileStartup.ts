// UI adapter: reads the profile list right after activation (its own file, so activation loads none of it) and
// hands it to the connections; then picks this window's profile: the workspace's binding, else the user's last
// choice. The first start after the update writes the list with Default (today's URL, headers and key) and asks
// nothing. A list that cannot be read is set aside, and the user is told where it went. Header values found in the
// list or the settings are moved to SecretStorage (headerSecrets.ts), and a header with no value is named, once.
import * as vscode from 'vscode';
import { DEFAULT_PROFILE_ID } from '../../settings/profile';
import { readSettings } from '../../settings/settings';
import { vscodeSettingsSource } from '../../ui/vscode/vscodeSettings';
import { moveProfileHeaders, moveSettingHeaders, type HeaderSetting } from '../core/headerSecrets';
import { UnfilledHeaderNotice } from '../core/headerNotice';
import type { GatewayConnections } from '../../gateway/connections';
import type { Clock } from '../../util/clock';
import { NodeFileSystem } from '../../util/storeFileSystem';
import type { Logger } from '../../util/logger';
import type { UserInterface } from '../../ui/vscode/userInterface';
import type { ApiKeyStore } from '../core/apiKeyStore';
import { lazy } from '../../util/lazy';
import { initialProfile } from '../core/profileChoice';
import { finishRetired, removalVia } from '../core/profileRetire';
import { ProfileStore } from '../core/profileStore';

/** The video jobs, as the removal of a retired profile waits for them (the videos feature fills these). */
export interface PendingJobs {
  /** A profile's video jobs still running, by its id. */
  runningJobs(profileId: string): number;
  onDidChangeJobs(listener: () => void): { dispose(): void };
  /** Settles once the saved jobs are read: before that, none looks pending and a key could go too early. */
  jobsReady(): Promise<void>;
}

export async function startProfiles(context: vscode.ExtensionContext, clock: Clock, connection: GatewayConnections, log: Logger, keys: ApiKeyStore, jobs: PendingJobs, ui: () => UserInterface): Promise<ProfileStore> {
  const store = new ProfileStore(new NodeFileSystem(context.globalStorageUri.fsPath), clock);
  context.subscriptions.push(
    store,
    store.onDidChange((list) => connection.setProfiles(list)),
    store.onDidSetAside((path) => {
      log.warn(`The profile list could not be read; it was kept as ${path} and a new list was started.`);
      void ui().notify('warning', `Model Gateway: the profile list could not be read. It was kept as ${path}, and a new list with the Default profile was started; nothing was deleted.`);
    }),
  );
  try {
    connection.setProfiles(await store.load());
  } catch (error) {
    // An unreadable folder (permissions, a lock held too long): Default still works, and the key commands with it.
    log.warn(`Could not read the profile list: ${error instanceof Error ? error.message : String(error)}`);
    void ui().notify('warning', `Model Gateway: the profile list could not be read (${error instanceof Error ? error.message : String(error)}); only the Default profile is available until it can.`);
  }
  const choice = initialProfile(context.workspaceState, context.globalState);
  if (choice.bound) connection.setWorkspaceBinding(choice.id);
  connection.switchTo(choice.id);
  watchRetired(context, store, connection, keys, jobs, log);
  // Not awaited: requests read both places meanwhile, and a keyring that is slow to answer must not hold them.
  void moveHeaderValues(context, store, keys, log);
  tellUnfilledHeaders(context, store, connection, keys, jobs, ui);
  return store;
}

/** The Default profile's headers: the user-level setting (a workspace's value is never read, so never moved). */
// The profile commands, loaded only when a notice's "Edit Profile…" is chosen.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const keyCommands = lazy(() => require('./keyCommands') as typeof import('./keyCommands'));

const userHeaderSetting: HeaderSetting = {
  read: () => vscode.workspace.getConfiguration('modelGateway').inspect('requestHeaders')?.globalValue,
  write: (value) => vscode.workspace.getConfiguration('modelGateway').update('requestHeaders', value, vscode.ConfigurationTarget.Global),
};

/**
 * Moves header values out of the profile list and the setting into SecretStorage: now (before the first request
 * reads them) and whenever the list or the setting changes (another window, an older version, the user's edit).
 */
async function moveHeaderValues(context: vscode.ExtensionContext, store: ProfileStore, keys: ApiKeyStore, log: Logger): Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () =>
    (running = running
      .then(async () => {
        await moveProfileHeaders(store, keys);
        const moved = await moveSettingHeaders(userHeaderSetting, readSettings(vscodeSettingsSource()).gateway.origin, keys);
        if (moved.length > 0) log.info(`Moved the value of ${moved.join(', ')} from modelGateway.requestHeaders to secret storage, beside the key; the setting keeps the names.`);
      })
      .catch((error: unknown) => log.warn(`Could not move header values to secret storage (they stay where they are): ${error instanceof Error ? error.message : String(error)}`)));
  context.subscriptions.push(
    store.onDidChange(() => void run()),
    vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration('modelGateway.requestHeaders') || e.affectsConfiguration('modelGateway.baseUrl')) && void run()),
  );
  await run();
}

/** Names, once, a profile's headers that are not sent because they have no value, with where to fill them in. */
function tellUnfilledHeaders(context: vscode.ExtensionContext, store: ProfileStore, connection: GatewayConnections, keys: ApiKeyStore, jobs: PendingJobs, ui: () => UserInterface): void {
  const notice = new UnfilledHeaderNotice({
    notify: (kind, message, ...actions) => ui().notify(kind, message, ...actions),
    nameOf: (id) => connection.profile(id)?.name,
    fillIn: (id) => {
      if (id === DEFAULT_PROFILE_ID) return vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.requestHeaders');
      return keyCommands().profileCommands(context, { profiles: store, connection, keys, runningJobs: (profile) => jobs.runningJobs(profile), ui: ui() }).edit(id);
    },
  });
  context.subscriptions.push(connection.onUnfilledHeaders((news) => notice.tell(news)));
}

/** Removes each retired profile, with its key, once its last job has finished: now, and whenever jobs or the list change. */
function watchRetired(context: vscode.ExtensionContext, store: ProfileStore, connection: GatewayConnections, keys: ApiKeyStore, jobs: PendingJobs, log: Logger): void {
  const removal = removalVia(connection, { store, keys, runningJobs: (id) => jobs.runningJobs(id) });
  // One sweep at a time; the job store fires on every poll, and most sweeps find nothing retired.
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    if (!store.all.some((p) => p.retired)) return;
    running = running.then(async () => {
      await jobs.jobsReady();
      for (const name of await finishRetired(removal)) log.info(`The profile "${name}" was deleted, with its key, now that its last video job has finished.`);
    }).catch((error: unknown) => log.warn(`Could not finish deleting a profile: ${error instanceof Error ? error.message : String(error)}`));
  };
  context.subscriptions.push(store.onDidChange(sweep), jobs.onDidChangeJobs(sweep));
  sweep();
}
