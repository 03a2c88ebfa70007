// The composition root: builds the services, registers commands, views and providers. Nothing else does.
// activate() makes no network calls; the first request loads undici.
import * as vscode from 'vscode';
import { ApiKeyStore } from './auth/apiKeyStore';
import { applySeededKey } from './auth/seedKey';
import * as path from 'node:path';
import { ChatHistoryView } from './chat/chatHistoryView';
import type { ChatPanelManagerOptions } from './chat/chatPanelManager';
import { createChatStore } from './chat/chatStoreProvider';
import { TestConnectionCommand } from './diagnostics/testConnectionCommand';
import { createGatewayClient } from './gateway/clientFactory';
import { GatewayConnection } from './gateway/connection';
import { GatewayChatModelProvider, LM_VENDOR } from './models/lmProvider';
import { DEFAULT_TTL_MS, ModelCatalog } from './models/modelCatalog';
import { RememberedModels } from './models/rememberedModels';
import { readSettings, SECTION, type Settings } from './settings/settings';
import { lazyHandlers, registerCommands, type CommandHandlers } from './ui/commands';
import { lazy } from './util/lazy';
import { ExtensionContextKeys } from './ui/contextKeys';
import { ConnectionStatusBar } from './ui/statusBar';
import { vscodeProxySetting, vscodeSettingsSource } from './ui/vscodeSettings';
import { realClock } from './util/clock';
import { JsonFile } from './util/jsonFile';
import { MediaHistory } from './media/mediaHistory';
import { MediaFeature } from './media/mediaView';
import { DurationHistory } from './videos/durationHistory';
import { JobStore } from './videos/jobStore';
import { lazyApiFor, VideoFeature, type VideoTestOptions } from './videos/videoJobsView';
import { WindowPresence } from './videos/windowPresence';
import { CHAT_VIEW_TYPE } from './chatProtocol/viewType';
import type { ChatMediaPorts } from './chat/hub/ports';

/**
 * What activate() returns in the test build, for the extension-host tests. The packaged extension exports
 * nothing: another extension could otherwise send requests with the user's key or reach the stores.
 */
export interface ModelGatewayApi {
  readonly connection: GatewayConnection;
  readonly testing: Record<string, unknown>;
}

/** Set by the build: true for the tests' build, false for the packaged extension (the hooks are compiled out). */
declare const TEST_BUILD: boolean;

/** The services every feature is built from. */
interface Services {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  keys: ApiKeyStore;
  connection: GatewayConnection;
  settings(): Settings;
  onDidChangeSettings: vscode.Event<void>;
  /** Registers commands (each run is logged at debug level). */
  register(handlers: CommandHandlers): void;
  testing: Record<string, unknown>;
}

/** Work to finish before the extension host goes away, so a reply that just ended is saved as ended. */
const flushOnDeactivate: Array<() => Promise<void>> = [];

export function activate(context: vscode.ExtensionContext): ModelGatewayApi | undefined {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Model Gateway', { log: true });
  context.subscriptions.push(log);
  const testing: Record<string, unknown> = { logUri: context.logUri, globalState: context.globalState, workspaceState: context.workspaceState };

  let settings = readSettings(vscodeSettingsSource());
  const keys = new ApiKeyStore(context.secrets, context.globalState);
  const connection = new GatewayConnection(settings.gateway, keys, createGatewayClient(log), realClock, vscodeProxySetting());
  context.subscriptions.push(keys, connection, context.secrets.onDidChange((e) => void keys.notifyExternalChange(e.key)));

  const settingsChanged = new vscode.EventEmitter<void>();
  const reportSettingsProblems = settingsProblemReporter(log);
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

  const register = (handlers: CommandHandlers) => registerCommands(context, handlers, log);
  const services: Services = { context, log, keys, connection, settings: () => settings, onDidChangeSettings: settingsChanged.event, register, testing };
  wireKeysAndStatus(services);
  const models = wireModels(services);
  const videos = wireVideos(services, models);
  const media = wireMedia(services, models);
  wireChat(services, models, () => chatMediaPorts(services, videos, media));
  register({ 'modelGateway.openLogs': () => log.show() });
  const contextKeys = new ExtensionContextKeys({
    connection,
    hasKey: (origin) => keys.has(origin),
    onDidChangeKey: keys.onDidChange,
    chatViewType: CHAT_VIEW_TYPE,
  });
  context.subscriptions.push(contextKeys);
  testing.contextKeys = contextKeys;

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  testing.activationMs = activationMs;
  // Which of the extension's files activation loaded (the rest load on first use): the startup bench and a host test.
  if (TEST_BUILD) testing.loadedAtActivation = Object.keys(require.cache).filter((file) => path.dirname(file) === __dirname).map((file) => path.basename(file));
  return TEST_BUILD ? { connection, testing } : undefined;
}

export async function deactivate(): Promise<void> {
  await Promise.allSettled(flushOnDeactivate.splice(0).map((flush) => flush()));
}

function wireKeysAndStatus({ context, log, keys, connection, register, testing }: Services): void {
  const keyCommands = lazy(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { KeyCommands } = require('./auth/keyCommands') as typeof import('./auth/keyCommands');
    return new KeyCommands(keys, connection);
  });
  const testConnection = new TestConnectionCommand({ connection, log, clock: realClock, proxySetting: () => vscodeProxySetting().url });
  const statusBar = new ConnectionStatusBar(connection);
  context.subscriptions.push(statusBar, testConnection);
  register({ ...lazyHandlers(['modelGateway.setApiKey', 'modelGateway.rotateApiKey', 'modelGateway.clearApiKey', 'modelGateway.setBaseUrl'], () => keyCommands().handlers()), ...testConnection.handlers(), 'modelGateway.showStatusMenu': () => statusBar.showMenu() });
  void connection.refreshKeyState();
  void applySeededKey(keys).then(() => warnAboutLostKeys(keys));
  testing.statusBar = statusBar;
}

function wireModels({ context, log, keys, connection, settings, register, testing }: Services): ModelCatalog {
  const models = new ModelCatalog(connection, realClock, DEFAULT_TTL_MS, new RememberedModels(context.globalState));
  const lmProvider = new GatewayChatModelProvider(models, connection, log);
  const modelCommands = lazy(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ModelCommands } = require('./models/modelCommands') as typeof import('./models/modelCommands');
    return new ModelCommands({ catalog: models, connection });
  });
  context.subscriptions.push(models, lmProvider, vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, lmProvider));
  lmProvider.announceRemembered();
  register(lazyHandlers(['modelGateway.listModels', 'modelGateway.refreshModels'], () => modelCommands().handlers()));
  testing.models = models;
  Object.defineProperty(testing, 'modelCommands', { get: modelCommands, enumerable: true });
  /** What the next session builds: its own connection, catalog and provider over the same storage (not registered). */
  testing.createModelsForTest = () => {
    const next = new GatewayConnection(settings().gateway, keys, createGatewayClient(log), realClock, vscodeProxySetting());
    const catalog = new ModelCatalog(next, realClock, DEFAULT_TTL_MS, new RememberedModels(context.globalState));
    const provider = new GatewayChatModelProvider(catalog, next, log);
    return { connection: next, catalog, provider, dispose: () => [provider, catalog, next].forEach((d) => d.dispose()) };
  };
  return models;
}

/** The media and video features as the chat's /image, /speak and /video ports. */
function chatMediaPorts({ connection, settings }: Services, videos: VideoFeature, media: MediaFeature): ChatMediaPorts {
  const view = videos.view;
  return {
    media: media.chatPort(),
    videos: videos.chatPort({
      store: () => view.store,
      origin: () => connection.origin,
      access: () => connection.access(),
      settings: () => settings().video,
      reveal: async (key) => {
        await vscode.commands.executeCommand('modelGateway.videoJobs.focus');
        await view.reveal(key);
      },
      onDidChange: (listener) => view.onDidChangeJobs(listener),
    }),
  };
}

/** The commands chatCommands.ts implements (registered before it loads). */
const CHAT_COMMAND_IDS = [
  'modelGateway.newChat',
  'modelGateway.askAboutSelection',
  'modelGateway.exportChat',
  'modelGateway.compareModels',
  'modelGateway.chats.open',
  'modelGateway.chats.rename',
  'modelGateway.chats.delete',
  'modelGateway.chats.export',
  'modelGateway.chats.branch',
  'modelGateway.chats.generateTitle',
  'modelGateway.chats.filter',
  'modelGateway.chats.clearFilter',
];

/**
 * The Chats view and the session store are built at activation; the panels, their manager and the commands load
 * on first use: the first chat command, or a chat panel VS Code restores after a reload.
 */
function wireChat({ context, log, connection, settings, register, testing }: Services, models: ModelCatalog, media: () => ChatMediaPorts): void {
  const managerOptions = (storageFolder: string): ChatPanelManagerOptions => ({
    extensionUri: context.extensionUri,
    storageFolder,
    connection,
    models,
    chatDefaults: () => settings().chat,
    contextSettings: () => settings().chatContext,
    log,
    clock: realClock,
    media: media(),
  });
  const chatFolder = vscode.Uri.joinPath(context.globalStorageUri, 'chat').fsPath;
  const store = createChatStore(chatFolder, realClock, log);
  const history = new ChatHistoryView({ store, folder: chatFolder, clock: realClock });
  const chat = lazy(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createChatFeature } = require('./chat/chatCommands') as typeof import('./chat/chatCommands');
    return createChatFeature({ manager: { ...managerOptions(chatFolder), store }, history, gateway: () => connection.access(), clock: realClock });
  });
  context.subscriptions.push(
    history,
    { dispose: () => chat.peek()?.dispose() },
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => chat().manager.deserializeWebviewPanel(panel, state) }),
  );
  register(lazyHandlers(CHAT_COMMAND_IDS, () => chat().handlers()));
  testing.chat = {
    get manager() {
      return chat().manager;
    },
    get historyCommands() {
      return chat().historyCommands;
    },
    createManager: (storageFolder: string) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { ChatPanelManager } = require('./chat/chatCommands') as typeof import('./chat/chatCommands');
      return new ChatPanelManager(managerOptions(storageFolder));
    },
    history,
  };
  flushOnDeactivate.push(() => (chat.peek()?.manager ?? store).flush());
}

function wireVideos({ context, log, keys, connection, settings, onDidChangeSettings, register, testing }: Services, models: ModelCatalog): VideoFeature {
  const folder = (name: string) => vscode.Uri.joinPath(context.globalStorageUri, name).fsPath;
  // A round trip to the window: it hangs while a browser tab that was closed leaves this extension host running.
  const presence = new WindowPresence({ clock: realClock, ping: () => vscode.commands.executeCommand('setContext', 'modelGateway.windowAttached', true) });
  context.subscriptions.push(presence, new vscode.Disposable(presence.onDidChange((attached) => log.info(attached ? 'The window answers again: video jobs may be polled here.' : 'The window does not answer (closed, or busy): other windows poll the video jobs meanwhile.')).dispose));
  // How long earlier jobs took, kept beside the jobs: one history per job folder, shared by every window.
  const histories = new Map<string, DurationHistory>();
  const historyFor = (jobFolder: string) => {
    let history = histories.get(jobFolder);
    if (!history) {
      history = new DurationHistory({ store: new JsonFile(path.join(jobFolder, 'durations.json')), onError: (error) => log.warn(`Video job durations: ${String(error)}`) });
      histories.set(jobFolder, history);
      void history.load();
    }
    return history;
  };
  const createStore = (video: Settings['video'], options: VideoTestOptions = {}) => {
    const jobFolder = options.folder ?? folder(options.storageKey ? `videos-test-${options.storageKey.replace(/[^\w-]/g, '_')}` : 'videos');
    return new JobStore({
      clock: realClock,
      apiFor: lazyApiFor(connection),
      folder: jobFolder,
      legacy: { storage: options.storage ?? context.globalState, key: options.storageKey },
      scheduler: { minIntervalMs: video.pollMinMs, maxIntervalMs: video.pollMaxMs, history: historyFor(jobFolder) },
      presence,
      onPersistError: (error) => log.warn(`Could not save the video jobs: ${error}`),
    });
  };
  const deps = {
    connection,
    models,
    settings: () => settings().video,
    onDidChangeSettings,
    onDidChangeKey: keys.onDidChange,
    keyFor: (origin: string) => keys.get(origin),
    createStore: (video: Settings['video']) => createStore(video),
  };
  const videos = new VideoFeature(deps, { treeViewId: 'modelGateway.videoJobs', primary: true });
  context.subscriptions.push(videos);
  register(videos.handlers());
  testing.videos = {
    feature: videos,
    /** A separate store, view model and commands (no tree view, no registered commands) over the given storage. */
    createForTest: (options: VideoTestOptions = {}) => new VideoFeature({ ...deps, createStore: (video) => createStore(video, options) }, { primary: false, ui: options.ui }),
  };
  return videos;
}

function wireMedia({ context, log, connection, settings, register, testing }: Services, models: ModelCatalog): MediaFeature {
  const history = new MediaHistory({
    folder: vscode.Uri.joinPath(context.globalStorageUri, 'media').fsPath,
    clock: realClock,
    limit: () => settings().media.historyLimit,
    onError: (error, what) => log.warn(`Media history: ${what} failed: ${String(error)}`),
  });
  const media = new MediaFeature({ history, connection, models, settings: () => settings().media, log }, { viewId: 'modelGateway.media' });
  context.subscriptions.push(media);
  register(media.handlers());
  testing.media = media;
  return media;
}

/** Says plainly which settings were ignored and why, once per distinct set of problems. */
function settingsProblemReporter(log: vscode.LogOutputChannel): (settings: Settings) => void {
  let last = '';
  return ({ problems }) => {
    const key = problems.join('\n');
    if (key === last) return;
    last = key;
    for (const problem of problems) log.warn(`Settings: ${problem}`);
    if (problems.length === 0) return;
    const open = 'Open Settings';
    void vscode.window.showWarningMessage(`Model Gateway: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more; see the log)` : ''}`, open).then((choice) => {
      if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', SECTION);
    });
  };
}

/**
 * Keys saved earlier but gone now mean VS Code found no keyring and kept secrets in memory only. Say so once
 * per loss, plainly, and forget those origins so the warning does not repeat.
 */
async function warnAboutLostKeys(keys: ApiKeyStore): Promise<void> {
  const lost = await keys.lostOrigins();
  if (lost.length === 0) return;
  await keys.forget(lost);
  const setKey = 'Set API Key';
  const learnMore = 'Learn More';
  const choice = await vscode.window.showWarningMessage(
    `The API key for ${lost.join(', ')} did not survive the restart: VS Code could not reach a system keyring, so it kept secrets in memory only. Set the key again, and install or unlock a keyring (for example gnome-keyring) to keep it.`,
    setKey,
    learnMore,
  );
  if (choice === setKey) await vscode.commands.executeCommand('modelGateway.setApiKey');
  if (choice === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues'));
}
