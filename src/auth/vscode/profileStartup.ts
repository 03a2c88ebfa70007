// UI adapter: reads the profile list right after activation (its own file, so activation loads none of it) and
// hands it to the connections; then picks this window's profile: the workspace's binding, else the user's last
// choice. The first start after the update writes the list with Default (today's URL, headers and key) and asks
// nothing. A list that cannot be read is set aside, and the user is told where it went.
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import type { Clock } from '../../util/clock';
import { NodeFileSystem } from '../../util/storeFileSystem';
import type { Logger } from '../../util/logger';
import type { ApiKeyStore } from '../core/apiKeyStore';
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

export async function startProfiles(context: vscode.ExtensionContext, clock: Clock, connection: GatewayConnections, log: Logger, keys: ApiKeyStore, jobs: PendingJobs): Promise<ProfileStore> {
  const store = new ProfileStore(new NodeFileSystem(context.globalStorageUri.fsPath), clock);
  context.subscriptions.push(
    store,
    store.onDidChange((list) => connection.setProfiles(list)),
    store.onDidSetAside((path) => {
      log.warn(`The profile list could not be read; it was kept as ${path} and a new list was started.`);
      void vscode.window.showWarningMessage(`Model Gateway: the profile list could not be read. It was kept as ${path}, and a new list with the Default profile was started; nothing was deleted.`);
    }),
  );
  try {
    connection.setProfiles(await store.load());
  } catch (error) {
    // An unreadable folder (permissions, a lock held too long): Default still works, and the key commands with it.
    log.warn(`Could not read the profile list: ${error instanceof Error ? error.message : String(error)}`);
    void vscode.window.showWarningMessage(`Model Gateway: the profile list could not be read (${error instanceof Error ? error.message : String(error)}); only the Default profile is available until it can.`);
  }
  const choice = initialProfile(context.workspaceState, context.globalState);
  if (choice.bound) connection.setWorkspaceBinding(choice.id);
  connection.switchTo(choice.id);
  watchRetired(context, store, connection, keys, jobs, log);
  return store;
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
