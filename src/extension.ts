// The composition root: builds the services, registers commands, views and providers. Nothing else does.
// activate() makes no network calls; the first request loads undici.
import * as vscode from 'vscode';
import { ApiKeyStore } from './auth/apiKeyStore';
import { GatewayConnection } from './gateway/connection';
import { readSettings, SECTION } from './settings/settings';
import { realClock } from './util/clock';
import { registerCommands } from './ui/commands';
import { vscodeProxySetting, vscodeSettingsSource } from './ui/vscodeSettings';
import { createGatewayClient } from './gateway/clientFactory';
import { KeyCommands } from './auth/keyCommands';
import { applySeededKey } from './auth/seedKey';
import { ConnectionStatusBar } from './ui/statusBar';
import type { ConnectionState } from './gateway/connection';

/** What activate() returns: used by the extension-host tests, and stable enough for other extensions. */
export interface ModelGatewayApi {
  readonly connection: GatewayConnection;
  readonly testing: Record<string, unknown>;
}

/** Work to finish before the extension host goes away, so a reply that just ended is saved as ended. */
const flushOnDeactivate: Array<() => Promise<void>> = [];

export function activate(context: vscode.ExtensionContext): ModelGatewayApi {
  const log = vscode.window.createOutputChannel('Model Gateway', { log: true });
  context.subscriptions.push(log);
  const testing: Record<string, unknown> = { logUri: context.logUri, globalState: context.globalState, workspaceState: context.workspaceState };

  let settings = readSettings(vscodeSettingsSource);
  const keys = new ApiKeyStore(context.secrets, context.globalState);
  const connection = new GatewayConnection(settings.gateway, keys, createGatewayClient(log), realClock, vscodeProxySetting());
  context.subscriptions.push(keys, connection, context.secrets.onDidChange((e) => void keys.notifyExternalChange(e.key)));

  const settingsChanged = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    settingsChanged,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION) && !e.affectsConfiguration('http.proxy')) return;
      settings = readSettings(vscodeSettingsSource);
      connection.updateSettings(settings.gateway, vscodeProxySetting());
      settingsChanged.fire();
    }),
  );

  // <auth>
  const keyCommands = new KeyCommands(keys, connection);
  const statusBar = new ConnectionStatusBar(connection);
  context.subscriptions.push(statusBar);
  registerCommands(context, { ...keyCommands.handlers(), 'modelGateway.showStatusMenu': () => statusBar.showMenu() });
  const updateContextKeys = (state: ConnectionState) => {
    void vscode.commands.executeCommand('setContext', 'modelGateway.hasBaseUrl', state.kind !== 'no-url');
    void vscode.commands.executeCommand('setContext', 'modelGateway.hasApiKey', state.kind !== 'no-url' && state.kind !== 'no-key');
  };
  context.subscriptions.push(new vscode.Disposable(connection.onDidChangeState(updateContextKeys).dispose));
  updateContextKeys(connection.state);
  void connection.refreshKeyState().then(updateContextKeys);
  void applySeededKey(keys).then(() => warnAboutLostKeys(keys));
  testing.statusBar = statusBar;
  // </auth>

  // <models>
  {
    // Required here so the wiring stays inside this section; esbuild bundles them like imports.
    const { ModelCatalog } = require('./models/modelCatalog') as typeof import('./models/modelCatalog');
    const { ModelCommands } = require('./models/modelCommands') as typeof import('./models/modelCommands');
    const { GatewayChatModelProvider, LM_VENDOR } = require('./models/lmProvider') as typeof import('./models/lmProvider');
    const models = new ModelCatalog(connection, realClock);
    const lmProvider = new GatewayChatModelProvider(models, connection, log);
    const modelCommands = new ModelCommands({ catalog: models, connection, log, clock: realClock, proxySetting: vscodeProxySetting });
    context.subscriptions.push(models, lmProvider, vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, lmProvider));
    registerCommands(context, modelCommands.handlers());
    testing.models = models;
    testing.modelCommands = modelCommands;
  }
  // </models>

  // <chat>
  {
    const { ChatPanelManager } = require('./chat/chatPanelManager') as typeof import('./chat/chatPanelManager');
    const { CHAT_VIEW_TYPE } = require('./webview/protocol') as typeof import('./webview/protocol');
    const createChatManager = (storageFolder: string) =>
      new ChatPanelManager({ extensionUri: context.extensionUri, storageFolder, connection, chatDefaults: () => settings.chat, log, clock: realClock });
    const chat = createChatManager(vscode.Uri.joinPath(context.globalStorageUri, 'chat').fsPath);
    context.subscriptions.push(chat, vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, chat));
    // The handlers return nothing: a command's result may be sent across processes, and panels do not serialize.
    registerCommands(context, {
      'modelGateway.newChat': async (options?: unknown) => {
        const model = typeof options === 'object' && options !== null && typeof (options as { model?: unknown }).model === 'string' ? (options as { model: string }).model : undefined;
        await chat.newChat({ model });
      },
      'modelGateway.askAboutSelection': async () => void (await chat.askAboutSelection()),
      'modelGateway.exportChat': async (target?: unknown) => void (await chat.exportChat(target)),
    });
    testing.chat = { manager: chat, createManager: createChatManager };
    flushOnDeactivate.push(() => chat.flush());
  }
  // </chat>

  // <videos>
  {
    // Required here so the wiring stays inside this section; esbuild bundles them like imports.
    const { JobStore } = require('./videos/jobStore') as typeof import('./videos/jobStore');
    const { VideoFeature, lazyApiFor } = require('./videos/videoJobsView') as typeof import('./videos/videoJobsView');
    type VideoTestOptions = import('./videos/videoJobsView').VideoTestOptions;
    const createVideoStore = (video: typeof settings.video, options: VideoTestOptions = {}) =>
      new JobStore({
        clock: realClock,
        apiFor: lazyApiFor(connection),
        storage: options.storage ?? context.globalState,
        storageKey: options.storageKey,
        scheduler: { minIntervalMs: video.pollMinMs, maxIntervalMs: video.pollMaxMs },
        onPersistError: (error) => log.warn(`Could not save the video jobs: ${error}`),
      });
    const videoDeps = {
      connection,
      settings: () => settings.video,
      onDidChangeSettings: settingsChanged.event,
      onDidChangeKey: keys.onDidChange,
      keyFor: (origin: string) => keys.get(origin),
      createStore: (video: typeof settings.video) => createVideoStore(video),
    };
    const videos = new VideoFeature(videoDeps, { treeViewId: 'modelGateway.videoJobs', primary: true });
    context.subscriptions.push(videos);
    registerCommands(context, videos.commands.handlers());
    testing.videos = {
      feature: videos,
      /** A separate store, view model and commands (no tree view, no registered commands) over the given storage. */
      createForTest: (options: VideoTestOptions = {}) =>
        new VideoFeature({ ...videoDeps, createStore: (video) => createVideoStore(video, options) }, { primary: false, ui: options.ui }),
    };
  }
  // </videos>

  registerCommands(context, {
    'modelGateway.openLogs': () => log.show(),
  });

  return { connection, testing };
}

/**
 * Keys saved earlier but gone now mean VS Code found no keyring and kept secrets in memory only. Say so once
 * per loss, plainly, and forget those origins so the warning does not repeat.
 */
async function warnAboutLostKeys(keys: ApiKeyStore): Promise<void> {
  const lost = await keys.lostOrigins();
  if (lost.length === 0) return;
  await keys.forget(lost);
  const learnMore = 'Learn More';
  const choice = await vscode.window.showWarningMessage(
    `The API key for ${lost.join(', ')} did not survive the restart: VS Code could not reach a system keyring, so it kept secrets in memory only. Set the key again, and install or unlock a keyring (for example gnome-keyring) to keep it.`,
    'Set API Key',
    learnMore,
  );
  if (choice === 'Set API Key') await vscode.commands.executeCommand('modelGateway.setApiKey');
  if (choice === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues'));
}

export async function deactivate(): Promise<void> {
  await Promise.allSettled(flushOnDeactivate.splice(0).map((flush) => flush()));
}
