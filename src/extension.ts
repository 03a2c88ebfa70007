// The composition root: builds the shared services and activates each feature's definition (its commands, views
// and what it needs from the services are declared in its folder's feature.ts). Nothing else.
// activate() makes no network calls; the first request loads undici.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { authFeature, createKeyStore } from './auth/vscode/feature';
import { chatFeature } from './chat/vscode/feature';
import { CHAT_VIEW_TYPE } from './chatProtocol/viewType';
import { diagnosticsFeature } from './diagnostics/vscode/feature';
import { createGatewayClient } from './gateway/clientFactory';
import type { GatewayConnection } from './gateway/connection';
import { GatewayConnections } from './gateway/connections';
import { Pacing } from './gateway/pacing';
import { lmToolsFeature } from './lmTools/vscode/feature';
import { mediaFeature } from './media/vscode/feature';
import { modelsFeature } from './models/vscode/feature';
import { readSettings, SECTION, type Settings } from './settings/settings';
import { settingsForProfile } from './settings/profile';
import { registerCommands, type CommandHandlers } from './ui/vscode/commands';
import { ExtensionContextKeys } from './ui/vscode/contextKeys';
import type { FeatureDefinition, SharedServices } from './ui/vscode/featureDefinition';
import type { UserInterface } from './ui/vscode/userInterface';
import { vscodeProxySetting, vscodeSettingsSource } from './ui/vscode/vscodeSettings';
import { realClock } from './util/clock';
import { lazy } from './util/lazy';
import { usageFeature } from './usage/vscode/feature';
import { videosFeature } from './videos/vscode/feature';
import type { VideoApi } from './videos/core/api';

/**
 * What activate() returns in the test build, for the extension-host tests. The packaged extension exports
 * nothing: another extension could otherwise send requests with the user's key or reach the stores.
 */
export interface ModelGatewayApi {
  /** The active profile's connection (what the tests written before profiles read). */
  readonly connection: GatewayConnection;
  /** Every profile's connection. */
  readonly connections: GatewayConnections;
  readonly testing: Record<string, unknown>;
}

/** Every feature, in the order they activate (the models feature builds the catalog the later ones share). */
export const FEATURES: ReadonlyArray<FeatureDefinition<never, unknown>> = [authFeature, diagnosticsFeature, modelsFeature, usageFeature, videosFeature, mediaFeature, chatFeature, lmToolsFeature];

/** Work to finish before the extension host goes away, so a reply that just ended is saved as ended. */
const flushOnDeactivate: Array<() => Promise<void>> = [];

export function activate(context: vscode.ExtensionContext): ModelGatewayApi | undefined {
  const started = performance.now();
  // The CPU time activate() runs (the startup bench): on a busy machine its wall time also holds other processes' turns.
  const cpuStarted = TEST_BUILD ? process.cpuUsage() : undefined;
  const log = vscode.window.createOutputChannel('Model Gateway', { log: true });
  context.subscriptions.push(log);
  // The tests' hooks; the packaged extension builds none (the minifier drops every `if (TEST_BUILD)` block).
  const testing: Record<string, unknown> | undefined = TEST_BUILD ? { logUri: context.logUri, globalState: context.globalState, workspaceState: context.workspaceState } : undefined;

  // The one seam to the user, loaded on its first use (activation shows nothing); the host tests may stand in for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vscodeUi = lazy(() => (require('./ui/vscode/userInterface') as typeof import('./ui/vscode/userInterface')).vscodeUserInterface);
  let standIn: UserInterface | undefined;
  const ui = (): UserInterface => standIn ?? vscodeUi();

  let settings = readSettings(vscodeSettingsSource());
  const keys = createKeyStore(context);
  // One pacing state per gateway origin and key, shared with the other windows through a small file (read on the first request).
  const pacer = new Pacing(realClock, vscode.Uri.joinPath(context.globalStorageUri, 'pacing.json').fsPath);
  // Profiles are read right after activation (auth feature); until then Default, which the settings describe, is all there is.
  const connection = new GatewayConnections(settings.gateway, keys, createGatewayClient(log), realClock, vscodeProxySetting(), pacer);
  context.subscriptions.push(keys, pacer, connection, context.secrets.onDidChange((e) => void keys.notifyExternalChange(e.key)));
  // A request a command waits on that the rate limit holds over a minute: the user may send it anyway.
  // The notice loads with the first long wait, not at activation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const longWaitNotice = lazy(() => require('./ui/vscode/longWaitNotice') as typeof import('./ui/vscode/longWaitNotice'));
  context.subscriptions.push(connection.onLongPaceWait((wait) => void longWaitNotice().showLongWait(wait)));

  const settingsChanged = new vscode.EventEmitter<void>();
  const reportSettingsProblems = settingsProblemReporter(log, ui);
  reportSettingsProblems(settings);
  context.subscriptions.push(
    settingsChanged,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION) && !e.affectsConfiguration('http.proxy') && !e.affectsConfiguration('http.proxyStrictSSL')) return;
      settings = readSettings(vscodeSettingsSource());
      reportSettingsProblems(settings);
      connection.updateSettings(settings.gateway, vscodeProxySetting());
      settingsChanged.fire();
    }),
  );

  const services = {
    context,
    log,
    keys,
    connection,
    clock: realClock,
    // What a feature reads as its defaults (gateway, models) is the active profile's over the user settings, or the
    // profile's it acts for (a chat's, by id; a script's, by id or name). An unknown one reads as the active one.
    settings: (profile?: string) => settingsForProfile(settings, connection.profile(profile) ?? connection.active),
    onDidChangeSettings: settingsChanged.event,
    ui,
    register: (handlers: CommandHandlers) =>
      registerCommands(context, handlers, { log, ready: () => connection.ready, failures: () => ({ advise: (advice) => ui().advise(advice), log: (message) => log.error(message) }) }),
    testing,
  } satisfies SharedServices;
  // Each feature's share of activate() (the startup bench reports them).
  const phases: Record<string, number> = { services: performance.now() - started };
  const timed = <T>(name: string, run: () => T): T => {
    const at = performance.now();
    const result = run();
    phases[name] = performance.now() - at;
    return result;
  };
  // The jobs (and the video dialect) are asked about only after activation (the profile list is read then), when the
  // videos feature is there.
  timed('auth', () => authFeature.activate({ ...services, jobs: () => videos }));
  timed('diagnostics', () => diagnosticsFeature.activate({ ...services, videos: (): VideoApi => videos }));
  const models = timed('models', () => modelsFeature.activate({ ...services, videos: (): VideoApi => videos }));
  const usage = timed('usage', () => usageFeature.activate({ ...services, models }));
  const videos = timed('videos', () => videosFeature.activate({ ...services, models }));
  const media = timed('media', () => mediaFeature.activate({ ...services, models }));
  const chat = timed('chat', () => chatFeature.activate({ ...services, models, usage, media, videos }));
  flushOnDeactivate.push(chat.flush);
  timed('lmTools', () => lmToolsFeature.activate({ ...services, models, media, videos, usage }));

  const contextKeys = new ExtensionContextKeys({ connection, hasKey: (slot) => keys.has(slot), onDidChangeKey: keys.onDidChange, chatViewType: CHAT_VIEW_TYPE });
  context.subscriptions.push(contextKeys);

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  if (TEST_BUILD && testing) {
    testing.contextKeys = contextKeys;
    /** Stands `recorder` in for the user seam (what a failed command says, what a feature built later asks); returns the undo. */
    testing.useUi = (recorder: UserInterface) => {
      standIn = recorder;
      return () => (standIn = undefined);
    };
    testing.activationMs = activationMs;
    const cpu = process.cpuUsage(cpuStarted);
    testing.activationCpuMs = (cpu.user + cpu.system) / 1000;
    testing.activationPhases = phases;
    testing.features = FEATURES.map(({ name, commands, views }) => ({ name, commands: Object.values(commands), views }));
    // Which of the extension's files activation loaded (the rest load on first use): the startup bench and a host test.
    testing.loadedAtActivation = Object.keys(require.cache).filter((file) => path.dirname(file) === __dirname).map((file) => path.basename(file));
    return {
      get connection() {
        return connection.connectionFor()!;
      },
      connections: connection,
      testing,
    };
  }
  return undefined;
}

export async function deactivate(): Promise<void> {
  await Promise.allSettled(flushOnDeactivate.splice(0).map((flush) => flush()));
}

/** Says plainly which settings were ignored and why, once per distinct set of problems. */
function settingsProblemReporter(log: vscode.LogOutputChannel, ui: () => UserInterface): (settings: Settings) => void {
  let last = '';
  return ({ problems }) => {
    const key = problems.join('\n');
    if (key === last) return;
    last = key;
    for (const problem of problems) log.warn(`Settings: ${problem}`);
    if (problems.length === 0) return;
    const open = 'Open Settings';
    void ui().notify('warning', `Model Gateway: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more; see the log)` : ''}`, open).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
    });
  };
}
