// UI adapter: owns the open chat panels. Creates them (New Chat, Ask About Selection), restores them after a
// reload (as the WebviewPanelSerializer), wires each one (controller, context, compare, media hub, webview bridge)
// and keeps each profile's model list (a chat lists its own profile's models). Export lives in chatExport.ts, the
// editor actions in chatEditors.ts.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import { adviceFor } from '../../ui/core/errorAdvice';
import type { ChatContextSettings, ChatDefaults, ReasoningSettings } from '../../settings/settings';
import { ChatContext, type ContextWindow } from '../core/chatContext';
import type { AudioAttachment } from '../../chatProtocol/attachments';
import { ChatCompare } from '../core/chatCompare';
import { WorkspaceContextProvider } from './context/workspaceContextProvider';
import { DEFAULT_MAX_INPUT_TOKENS } from '../../models/core/api';
import type { UsageApi } from '../../usage/core/api';
import type { Clock } from '../../util/clock';
import type { ModelsState } from '../../chatProtocol/messages';
import { NEW_CHAT_TITLE, type ChatSession, type ChatSettings, type MediaTurn } from '../../chatProtocol/session';
import { isId, isRecord } from '../../chatProtocol/validate';
import { ChatController } from '../core/chatController';
import { ChatModelList, ChatModelLists, type ModelCatalogView } from '../core/chatModelList';
import { pickDefaultModel, settingsFromDefaults } from '../core/chatModels';
import { CHAT_PAGE, ChatPanel } from './chatPanel';
import { HostedPage } from '../../ui/vscode/webviewHost';
import type { ChatSessionStore } from '../core/sessionStore';
import { createChatStore } from './sessionStoreReporter';
import { ChatWebviewBridge, type ChatWorkbench } from '../core/webviewBridge';
import { checkLinkThrough } from '../core/hub/linkChecks';
import { ChatMediaHub } from '../core/hub/mediaHub';
import type { AttachedImages, ChatMediaPorts } from '../core/hub/mediaHub';
import { wireMediaTurn } from '../core/hub/wireMedia';
import { branchFromSummary } from './summaryBranchCommand';
import { ChatEditors } from './chatEditors';
import { ChatExporter } from './chatExport';
import { applyCodeBlock, defaultApplyDeps, type ApplyDeps } from './applyCode';
import { PanelInstructions } from './instructionFiles';
import { changeChatProfile } from './chatProfile';
import { chatProfileId, chatProfileName, type ProfileModels } from '../core/chatProfile';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { isDefaultProfile } from '../../settings/profile';

export interface ChatPanelManagerOptions {
  extensionUri: vscode.Uri;
  /** Local folder for the session files (under the extension's globalStorageUri). */
  storageFolder: string;
  connection: Pick<GatewayConnections, 'access' | 'active' | 'origin' | 'onDidChangeClient' | 'resultFetchOptions' | 'ready' | 'profile' | 'profiles' | 'onDidChangeProfiles' | 'connectionFor'>;
  /** The cached model lists, one per profile (`for`; the same ones List Models and VS Code's chat use). */
  models: ModelCatalogView & { for(profile: string): ModelCatalogView };
  /** A new chat's settings: the active profile's defaults, or a profile's (its default chat model). */
  chatDefaults: (profile?: string) => ChatDefaults;
  /** The context window used when the model list gives none, and the attachment size limit. */
  contextSettings?: () => ChatContextSettings;
  /** How a chat's reasoning effort is sent, and the levels offered when the model list names none. */
  reasoning?: () => ReasoningSettings;
  log: vscode.LogOutputChannel;
  clock: Clock;
  /** Images, speech and video jobs for /image, /speak and /video (the media and video features, as ports). */
  media?: ChatMediaPorts;
  /** The session store over `storageFolder`, when it was built before the manager (the Chats view loads first). */
  store?: ChatSessionStore;
  /** The user seam: every message, question, picker and editor the chat shows. */
  ui: UserInterface;
  /** The usage feature: what each reply cost, as its ledger records it. */
  usage?: Pick<UsageApi, 'costOf'>;
}

export class ChatPanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  readonly store: ChatSessionStore;
  private readonly panels = new Set<ChatPanel>();
  /** Sessions being loaded into a new panel, by session id. */
  private readonly opening = new Map<string, Promise<ChatPanel | undefined>>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private lastActive: ChatPanel | undefined;
  private readonly editors: ChatEditors;
  /** Export Chat, and the chat's own export button. */
  readonly exporter: ChatExporter;
  /** Each profile's chat model list; a chat shows its own profile's. */
  private readonly models: ChatModelLists;
  private disposed = false;
  /** How Apply finds the editor and asks the user; replaceable so tests can answer. */
  applyDeps: ApplyDeps;
  /** Opens an http(s) URL outside VS Code; replaceable so tests do not launch a browser. */
  openExternal: (url: string) => Promise<void> = async (url) => {
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
  };

  constructor(private readonly options: ChatPanelManagerOptions) {
    this.editors = new ChatEditors(options.ui);
    this.applyDeps = defaultApplyDeps(() => this.editors.targetEditor(), options.ui);
    this.contextSources = new WorkspaceContextProvider({
      // The editor used last, even when the chat now covers it: the chat has focus when its button is pressed.
      editor: () => this.editors.contextEditor(),
      maxBytes: () => this.contextSettings().maxAttachmentBytes,
      newId: () => randomUUID(),
      ui: options.ui,
    });
    this.store = options.store ?? createChatStore(options.storageFolder, options.clock, options.log, () => options.ui);
    this.models = new ChatModelLists((profile) => new ChatModelList(options.models.for(profile), (error) => adviceFor(error, { origin: this.options.connection.connectionFor(profile)?.origin }).message, () => options.reasoning?.().levels, () => options.clock.now()));
    this.exporter = new ChatExporter({ clock: options.clock, media: options.media, ui: options.ui });
    this.subscriptions.push(
      this.models,
      this.editors,
      this.models.onDidChange(({ profile, state }) => {
        for (const panel of this.panelsOf(profile)) panel.bridge.postModels(state);
        if (!state.loading) void this.adoptDefaultModel(profile);
      }),
      // A profile renamed, added or deleted (here or in another window): every chat's header follows.
      this.options.connection.onDidChangeProfiles(() => this.openPanels.forEach((panel) => this.showProfile(panel))),
      // A profile's gateway or key changed: its open chats list the new gateway's models.
      this.models.onDidDrop((profile) => {
        if (this.panelsOf(profile).length > 0) void this.refreshModels({}, profile);
      }),
    );
  }

  /** Where the session files are. */
  get storageFolder(): string {
    return this.options.storageFolder;
  }

  get openPanels(): readonly ChatPanel[] {
    return [...this.panels];
  }

  /** The focused chat panel, else the one used last. */
  get activePanel(): ChatPanel | undefined {
    return [...this.panels].find((p) => p.panel.active) ?? this.lastActive;
  }

  /** Opens a new chat; `model` (from List Models' "start a chat") overrides the default model, `settings` (a branch) all of them. */
  async newChat(options: { model?: string; settings?: ChatSettings } = {}): Promise<ChatPanel> {
    // At startup, the window's profile (and so its default model) is known only once the list is read.
    await this.options.connection.ready;
    const now = this.options.clock.now();
    // A branch keeps its chat's profile (in its settings).
    const settings = options.settings ?? this.newChatSettings(options.model);
    const session: ChatSession = { id: randomUUID(), title: NEW_CHAT_TITLE, createdAt: now, updatedAt: now, settings, turns: [] };
    return this.attach(HostedPage.open(CHAT_PAGE, this.options.extensionUri, { title: session.title }), session);
  }

  /** A new chat's settings (`model` over the default): it runs under this window's profile from now on. */
  private newChatSettings(model?: string): ChatSettings {
    const defaults = this.options.chatDefaults();
    const active = this.options.connection.active;
    return { ...settingsFromDefaults({ ...defaults, model: model?.trim() || defaults.model }), ...(!isDefaultProfile(active) && { profile: active.id }) };
  }

  /**
   * Opens a saved session, or focuses its panel when it is already open. A second open while the first is still
   * loading the session (a double-click in the Chats view) gets the same panel: one chat is one panel.
   */
  openSession(id: string): Promise<ChatPanel | undefined> {
    const open = [...this.panels].find((p) => p.sessionId === id);
    if (open) {
      open.reveal();
      return Promise.resolve(open);
    }
    const pending = this.opening.get(id);
    if (pending) return pending;
    const opened = this.loadIntoPanel(id).finally(() => this.opening.delete(id));
    this.opening.set(id, opened);
    return opened;
  }

  private async loadIntoPanel(id: string): Promise<ChatPanel | undefined> {
    const session = await this.store.load(id);
    if (!session || this.disposed) return undefined;
    return this.attach(HostedPage.open(CHAT_PAGE, this.options.extensionUri, { title: session.title }), session);
  }

  /** The chat of this window's panel that shows the session, if any (the Chats view renames through it). */
  openChat(id: string): ChatController | undefined {
    return [...this.panels].find((p) => p.sessionId === id)?.controller;
  }

  /** Closes the session's panel, as the user would, and waits until what it held is saved. */
  async closeSession(id: string): Promise<void> {
    const open = [...this.panels].find((p) => p.sessionId === id);
    if (!open) return;
    const closed = new Promise<void>((resolve) => open.onDidDispose(() => resolve()));
    open.dispose();
    await closed;
    await this.store.flush();
  }

  /** WebviewPanelSerializer: brings back a panel that was open before the reload, with its session. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = isRecord(state) && isId(state.sessionId) ? state.sessionId : undefined;
    const open = id ? [...this.panels].find((p) => p.sessionId === id) ?? (await this.opening.get(id)) : undefined;
    if (open) {
      panel.dispose();
      open.reveal();
      return;
    }
    const restore = async () => {
      const saved = id ? await this.store.load(id) : undefined;
      // A chat never saved (opened, nothing sent) comes back as a new chat would open: under this window's profile,
      // which is known once the list is read - not under Default, whose key it would then send with.
      if (!saved) await this.options.connection.ready;
      const now = this.options.clock.now();
      const session = saved ?? { id: id ?? randomUUID(), title: NEW_CHAT_TITLE, createdAt: now, updatedAt: now, settings: this.newChatSettings(), turns: [] };
      return this.attach(new HostedPage(panel, CHAT_PAGE, this.options.extensionUri), session);
    };
    if (!id) return void (await restore());
    const restored = restore().finally(() => this.opening.delete(id));
    this.opening.set(id, restored);
    await restored;
  }

  /** The chat used last (a new one when none is open), for Add to Model Gateway Chat. */
  async targetContext(): Promise<{ context: ChatContext; reveal(): void }> {
    const panel = this.activePanel ?? (await this.newChat());
    return { context: panel.context!, reveal: () => panel.reveal() };
  }

  async askAboutSelection(editor: vscode.TextEditor | undefined = this.editors.selectionEditor): Promise<ChatPanel | undefined> {
    const text = this.editors.selectionDraft(editor);
    if (text === undefined) {
      void this.options.ui.notify('info', 'Select some code in an editor first, then ask about it.');
      return undefined;
    }
    const target = this.activePanel ?? (await this.newChat());
    target.reveal();
    target.bridge.postDraft(text);
    return target;
  }

  /**
   * Loads a profile's chat model list (the catalog's cached one unless `force`; by default the profile of the chat
   * used last, else the window's); every open chat of that profile follows.
   */
  refreshModels(options: { force?: boolean } = {}, profile = this.profileOf(this.activePanel)): Promise<ModelsState> {
    return this.models.for(profile).refresh(options);
  }

  /** The profile a chat runs under (the window's for none). */
  private profileOf(panel: ChatPanel | undefined): string {
    return panel ? chatProfileId(panel.controller.session.settings) : this.options.connection.active.id;
  }

  private panelsOf(profile: string): ChatPanel[] {
    return [...this.panels].filter((panel) => this.profileOf(panel) === profile);
  }

  /** Waits until every open chat has written what it holds. */
  async flush(): Promise<void> {
    await this.store.flush();
  }

  /** A profile's chats without a model take its default once its list is known. */
  private async adoptDefaultModel(profile: string): Promise<void> {
    const model = pickDefaultModel(this.options.chatDefaults(profile).model, this.models.for(profile).state.models);
    if (!model) return;
    for (const panel of this.panelsOf(profile)) {
      const settings = panel.controller.session.settings;
      if (settings.model === '' && !panel.controller.busy) await panel.controller.updateSettings({ ...settings, model });
    }
  }

  /** The model a chat of the profile without one uses: the profile's default, else the first chat model it lists. */
  async defaultModel(profile: string = this.options.connection.active.id): Promise<string | undefined> {
    const configured = this.options.chatDefaults(profile).model;
    if (configured) return configured;
    return pickDefaultModel(configured, await this.models.for(profile).models());
  }

  /** What the usage ledger knows a finished call of a chat cost (undefined without the usage feature). */
  private costOf(callId: string): Promise<number | undefined> {
    return this.options.usage?.costOf(callId) ?? Promise.resolve(undefined);
  }

  private attach(page: HostedPage, session: ChatSession): ChatPanel {
    const { clock, log } = this.options;
    const webviewPanel = page.panel;
    const chatProfile = (): string => chatProfileId(controller.session.settings);
    const controller: ChatController = new ChatController(session, {
      store: this.store,
      clock,
      // The chat's own profile (its key and gateway), whichever profile the window uses now.
      gateway: () => this.options.connection.access(chatProfile()),
      defaultModel: () => this.defaultModel(chatProfile()),
      newId: () => randomUUID(),
      instructions: (history): Promise<string | undefined> => instructions.systemContent(history),
      effortFormat: () => this.options.reasoning?.().format ?? 'reasoning_effort',
      costOf: (callId) => this.costOf(callId),
    });
    const ports = this.options.media;
    const transcripts = { takeAudio: () => context.takeAudio(), addTranscript: (name: string, text: string) => context.addTranscript(name, text), restoreAudio: (audio: AudioAttachment) => context.restoreAudio(audio), warn: (message: string) => this.contextSources.warn(message) };
    const hub = ports ? new ChatMediaHub({ controller, ports, clock, newId: () => randomUUID(), log, checkLink: checkLinkThrough(this.options.connection), transcripts }) : undefined;
    const bridgeHub = hub && ports && {
      handleSend: (text: string, tray?: AttachedImages) => hub.handleSend(text, tray),
      readAloud: (turnId: string) => hub.readAloud(turnId),
      action: (turnId: string, action: Parameters<ChatMediaHub['action']>[1]) => hub.action(turnId, action),
      wire: (turn: MediaTurn) => wireMediaTurn(turn, { keptFile: (e, f) => ports.media.keptFile(e, f), videoJob: (key) => ports.videos.job(key), webviewSrc: (file) => page.fileSrc(file), link: (url) => hub.link(url) }),
    };
    const context = new ChatContext(controller, {
      sources: this.contextSources,
      windowFor: (model) => this.contextWindow(model, chatProfile()),
      seesImages: (model) => this.models.for(chatProfile()).seesImages(model),
      tokenScale: (model) => this.options.models.tokens?.().scale(model) ?? 1,
      newId: () => randomUUID(),
      summarize: (pending) => branchFromSummary(controller.session, pending, this.summaryDeps),
    });
    const compare = new ChatCompare(controller, context, {
      gateway: () => this.options.connection.access(chatProfile()),
      costOf: (callId) => this.costOf(callId),
      clock,
      newId: () => randomUUID(),
      warn: (message) => void this.options.ui.notify('warning', message),
      pickModels: (current) => this.pickCompareModels(current, chatProfile()),
    });
    const instructions: PanelInstructions = new PanelInstructions({ post: (state) => bridge.postInstructions(state), pending: () => context.tray.attachments, turns: () => controller.session.turns, editor: () => this.editors.targetEditor(), ui: this.options.ui });
    const bridge = new ChatWebviewBridge(controller, this.workbench(chatProfile), (message) => void webviewPanel.webview.postMessage(message), () => this.models.for(chatProfile()).state, clock, log, { context, compare, hub: bridgeHub, instructions });
    context.tray.onDidChange(() => void instructions.refresh());
    const panel = new ChatPanel(page, controller, bridge, log, hub && ports && { roots: [ports.media.filesFolder, ...(ports.videos.keptFolder ? [ports.videos.keptFolder] : [])].map((folder) => vscode.Uri.file(folder)), origins: () => hub.playableOrigins(), onDidChangeSources: hub.onDidChangeSources, onDidHearAudio: hub.onDidHearAudio });
    panel.context = context;
    if (hub) panel.onDidDispose(() => hub.dispose());
    this.panels.add(panel);
    this.lastActive = panel;
    panel.panel.onDidChangeViewState(() => {
      if (panel.panel.active) this.lastActive = panel;
    });
    panel.onDidDispose(() => {
      instructions.dispose();
      compare.dispose();
      context.dispose();
      this.panels.delete(panel);
      if (this.lastActive === panel) this.lastActive = [...this.panels].at(-1);
    });
    bridge.onDidLoad(() => {
      this.showProfile(panel);
      void instructions.refresh();
      // The page's first message (init) carries its profile's list.
      this.showModels(panel, false);
    });
    return panel;
  }

  /** Where every chat of this manager takes context from (tests answer its questions). */
  readonly contextSources: WorkspaceContextProvider;

  /** Branch with a Summary: how the summary is asked for and where the new chat opens. */
  private readonly summaryDeps = {
    gateway: (profile: string) => this.options.connection.access(profile),
    defaultModel: (profile: string) => this.defaultModel(profile),
    windowFor: (model: string, profile: string) => this.contextWindow(model, profile).tokens,
    openChat: async (settings: ChatSettings, draft: string) => {
      const panel = await this.newChat({ settings });
      panel.bridge.postDraft(draft);
    },
  };

  private async pickCompareModels(current: string, profile: string): Promise<string[] | undefined> {
    const models = await this.models.for(profile).models();
    const items = models.map((id) => ({ label: id, id, picked: id === current }));
    return this.options.ui.pickMany(items, { title: 'Compare Models', placeHolder: 'Pick 2 or 3 chat models to ask the same question', matchOnDescription: false });
  }

  private contextSettings(): ChatContextSettings {
    return this.options.contextSettings?.() ?? { contextWindow: DEFAULT_MAX_INPUT_TOKENS, maxAttachmentBytes: 256 * 1024 };
  }

  private contextWindow(model: string, profile: string): ContextWindow {
    const fromModel = this.models.for(profile).contextWindow(model);
    return fromModel ? { tokens: fromModel, source: 'model' } : { tokens: this.contextSettings().contextWindow, source: 'setting' };
  }

  private workbench(profile: () => string): ChatWorkbench {
    return {
      copyText: async (text) => vscode.env.clipboard.writeText(text),
      insertAtCursor: (code) => this.editors.insertAtCursor(code),
      openInNewFile: (code, language) => this.editors.openInNewFile(code, language),
      openExternal: (url) => this.openExternal(url),
      applyCode: (request) => applyCodeBlock(request, this.applyDeps),
      runCommand: async (command, args) => {
        await vscode.commands.executeCommand(command, ...args);
      },
      exportSession: async (session) => {
        await this.exporter.exportSession(session);
      },
      newChat: async () => {
        await this.newChat();
      },
      refreshModels: async () => {
        await this.refreshModels({ force: true }, profile());
      },
      changeProfile: async (sessionId) => {
        await this.changeProfile(undefined, sessionId);
      },
    };
  }

  /** Change Chat Profile…: one chat (the session's, else the focused one) to another profile; see chatProfile.ts. */
  changeProfile(idOrName: unknown, sessionId: unknown): Promise<string | undefined> {
    const panelFor = (id: string | undefined) => (id ? this.openPanels.find((p) => p.sessionId === id) : this.activePanel);
    const show = (panel: ChatPanel) => {
      this.showProfile(panel);
      this.showModels(panel);
    };
    return changeChatProfile({ connection: this.options.connection, ui: this.options.ui, panelFor, show, modelsOf: (profile) => this.modelsOf(profile) }, idOrName, sessionId);
  }

  /** A profile's default chat model and the chat models its gateway lists (undefined when they cannot be loaded). */
  private async modelsOf(profile: string): Promise<ProfileModels> {
    const list = this.models.for(profile);
    if (!list.known) await list.refresh();
    return { configured: this.options.chatDefaults(profile).model, listed: list.known ? list.state.models : undefined };
  }

  /** Gives the chat its profile's model list, loading it unless known (another chat or feature may have). */
  private showModels(panel: ChatPanel, post = true): void {
    const profile = this.profileOf(panel);
    const list = this.models.for(profile);
    if (post) panel.bridge.postModels(list.state);
    if (list.known) void this.adoptDefaultModel(profile);
    else if (!list.state.loading) void this.refreshModels({}, profile);
  }

  /** Names the chat's profile in its header. */
  private showProfile(panel: ChatPanel): void {
    panel.bridge.postProfile(chatProfileName(this.options.connection, panel.controller.session.settings));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const panel of [...this.panels]) panel.disposeForShutdown();
    this.panels.clear();
  }
}
