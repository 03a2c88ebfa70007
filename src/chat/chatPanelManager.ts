// UI adapter: owns the open chat panels. Creates them (New Chat, Ask About Selection), restores them after a
// reload (as the WebviewPanelSerializer), keeps the model list they share, exports sessions, and carries out
// the editor actions the webview asks for.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { GatewayConnection } from '../gateway/connection';
import type { ModelCatalog } from '../models/modelCatalog';
import { adviceFor } from '../gateway/errorAdvice';
import type { ChatDefaults } from '../settings/settings';
import type { Clock } from '../util/clock';
import { CHAT_VIEW_TYPE, type ModelsState } from '../webview/protocol';
import { ChatController } from './chatController';
import { pickDefaultModel } from './chatModels';
import { ChatPanel } from './chatPanel';
import { NodeFileSystem } from './fileSystem';
import { selectionPrompt, sessionMarkdown } from './markdownText';
import { defaultSettings, NEW_CHAT_TITLE, type ChatSession, type ChatSettings } from './model';
import { ChatSessionStore } from './sessionStore';
import { isId, isRecord } from './validate';
import { ChatWebviewBridge, type ChatWorkbench } from './webviewBridge';

export interface ChatPanelManagerOptions {
  extensionUri: vscode.Uri;
  /** Local folder for the session files (under the extension's globalStorageUri). */
  storageFolder: string;
  connection: Pick<GatewayConnection, 'access' | 'api' | 'origin' | 'onDidChangeClient'>;
  /** The shared, cached model list (the same one List Models and VS Code's chat use). */
  models: Pick<ModelCatalog, 'load'>;
  chatDefaults: () => ChatDefaults;
  log: vscode.LogOutputChannel;
  clock: Clock;
}

/** Common fence names to VS Code language ids, for "Open in New File". */
const LANGUAGE_ALIASES: Record<string, string> = {
  ts: 'typescript', js: 'javascript', py: 'python', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', shell: 'shellscript',
  yml: 'yaml', md: 'markdown', rs: 'rust', rb: 'ruby', kt: 'kotlin', 'c++': 'cpp', cs: 'csharp', 'c#': 'csharp', golang: 'go', jsonc: 'jsonc', tsx: 'typescriptreact', jsx: 'javascriptreact',
};

export function settingsFromDefaults(defaults: ChatDefaults): ChatSettings {
  const settings = defaultSettings();
  settings.model = defaults.model ?? '';
  settings.systemPrompt = defaults.systemPrompt;
  if (defaults.temperature !== undefined) settings.sampling = { mode: 'temperature', value: defaults.temperature };
  else if (defaults.topP !== undefined) settings.sampling = { mode: 'top_p', value: defaults.topP };
  settings.maxTokens = defaults.maxTokens ?? null;
  return settings;
}

export class ChatPanelManager implements vscode.WebviewPanelSerializer, vscode.Disposable {
  readonly store: ChatSessionStore;
  private readonly panels = new Set<ChatPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private lastActive: ChatPanel | undefined;
  private lastEditor: vscode.TextEditor | undefined;
  private models: ModelsState = { models: [], loading: false };
  private modelsLoad: Promise<ModelsState> | undefined;
  private modelsLoaded = false;
  private modelsGeneration = 0;
  private disposed = false;
  /** Opens an http(s) URL outside VS Code; replaceable so tests do not launch a browser. */
  openExternal: (url: string) => Promise<void> = async (url) => {
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
  };

  constructor(private readonly options: ChatPanelManagerOptions) {
    this.store = new ChatSessionStore(new NodeFileSystem(options.storageFolder), (error, what) => options.log.error(`Chat: ${what} failed: ${String(error)}`));
    this.lastEditor = vscode.window.activeTextEditor;
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor) this.lastEditor = editor;
      }),
      options.connection.onDidChangeClient(() => {
        this.modelsLoaded = false;
        this.modelsGeneration++;
        if (this.panels.size > 0) void this.refreshModels();
      }),
    );
  }

  get openPanels(): readonly ChatPanel[] {
    return [...this.panels];
  }

  /** The focused chat panel, else the one used last. */
  get activePanel(): ChatPanel | undefined {
    return [...this.panels].find((p) => p.panel.active) ?? this.lastActive;
  }

  /** Opens a new chat; `model` (from List Models' "start a chat") overrides the default model. */
  async newChat(options: { model?: string } = {}): Promise<ChatPanel> {
    const now = this.options.clock.now();
    const defaults = this.options.chatDefaults();
    const model = options.model?.trim() || defaults.model;
    const session: ChatSession = { id: randomUUID(), title: NEW_CHAT_TITLE, createdAt: now, updatedAt: now, settings: settingsFromDefaults({ ...defaults, model }), turns: [] };
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, session.title, { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, { retainContextWhenHidden: false });
    return this.attach(panel, session);
  }

  /** Opens a saved session, or focuses its panel when it is already open. */
  async openSession(id: string): Promise<ChatPanel | undefined> {
    const open = [...this.panels].find((p) => p.sessionId === id);
    if (open) {
      open.reveal();
      return open;
    }
    const session = await this.store.load(id);
    if (!session) return undefined;
    const panel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, session.title, vscode.ViewColumn.Active, { retainContextWhenHidden: false });
    return this.attach(panel, session);
  }

  /** WebviewPanelSerializer: brings back a panel that was open before the reload, with its session. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = isRecord(state) && isId(state.sessionId) ? state.sessionId : undefined;
    const open = id ? [...this.panels].find((p) => p.sessionId === id) : undefined;
    if (open) {
      panel.dispose();
      open.reveal();
      return;
    }
    const saved = id ? await this.store.load(id) : undefined;
    const now = this.options.clock.now();
    const session = saved ?? { id: id ?? randomUUID(), title: NEW_CHAT_TITLE, createdAt: now, updatedAt: now, settings: settingsFromDefaults(this.options.chatDefaults()), turns: [] };
    this.attach(panel, session);
  }

  async askAboutSelection(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor ?? this.lastEditor): Promise<ChatPanel | undefined> {
    const selections = editor?.selections.filter((s) => !s.isEmpty) ?? [];
    if (!editor || selections.length === 0) {
      void vscode.window.showInformationMessage('Select some code in an editor first, then ask about it.');
      return undefined;
    }
    const document = editor.document;
    const fileName = document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri, false);
    const text = selections
      .map((s) => selectionPrompt({ text: document.getText(s), languageId: document.languageId, fileName, startLine: s.start.line + 1, endLine: s.end.character === 0 && s.end.line > s.start.line ? s.end.line : s.end.line + 1 }))
      .join('');
    const target = this.activePanel ?? (await this.newChat());
    target.reveal();
    target.bridge.postDraft(text);
    return target;
  }

  /** Exports the active chat to Markdown, to `target` or where the user picks. */
  async exportChat(target?: unknown): Promise<vscode.Uri | undefined> {
    const panel = this.activePanel;
    if (!panel) {
      void vscode.window.showInformationMessage('Open a chat to export it.');
      return undefined;
    }
    return this.exportSession(panel.controller.session, target instanceof vscode.Uri ? target : undefined);
  }

  async exportSession(session: Readonly<ChatSession>, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const uri = target ?? (await vscode.window.showSaveDialog({ defaultUri: this.defaultExportUri(session.title), filters: { Markdown: ['md'] }, saveLabel: 'Export Chat' }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(sessionMarkdown(session as ChatSession, new Date(this.options.clock.now())), 'utf8'));
    if (!target) {
      void vscode.window.showInformationMessage(`Chat exported to ${vscode.workspace.asRelativePath(uri)}.`, 'Open').then((choice) => {
        if (choice === 'Open') void vscode.window.showTextDocument(uri);
      });
    }
    return uri;
  }

  /** Reloads the chat model list from the gateway and sends it to every open chat. */
  refreshModels(options: { force?: boolean } = {}): Promise<ModelsState> {
    if (this.modelsLoad) return this.modelsLoad;
    const generation = this.modelsGeneration;
    this.models = { ...this.models, loading: true };
    this.broadcastModels();
    this.modelsLoad = this.loadModels(options.force ?? false).then((state) => {
      this.modelsLoad = undefined;
      // The gateway or key changed while loading: this list belongs to the old one.
      if (generation !== this.modelsGeneration) return this.refreshModels();
      this.modelsLoaded = true;
      this.models = state;
      this.broadcastModels();
      void this.adoptDefaultModel();
      return state;
    });
    return this.modelsLoad;
  }

  /** Waits until every open chat has written what it holds. */
  async flush(): Promise<void> {
    await this.store.flush();
  }

  private async loadModels(force: boolean): Promise<ModelsState> {
    try {
      const snapshot = await this.options.models.load({ force });
      if (!snapshot) return { models: [], loading: false, error: 'Set the gateway URL and API key to list the models.' };
      return { models: snapshot.models.filter((m) => m.kind === 'chat').map((m) => m.id), loading: false };
    } catch (error) {
      return { models: [], loading: false, error: adviceFor(error, { origin: this.options.connection.origin }).message };
    }
  }

  private broadcastModels(): void {
    for (const panel of this.panels) panel.bridge.postModels(this.models);
  }

  /** Chats without a model take the default once the list is known. */
  private async adoptDefaultModel(): Promise<void> {
    const model = pickDefaultModel(this.options.chatDefaults().model, this.models.models);
    if (!model) return;
    for (const panel of this.panels) {
      const settings = panel.controller.session.settings;
      if (settings.model === '' && !panel.controller.busy) await panel.controller.updateSettings({ ...settings, model });
    }
  }

  private async defaultModel(): Promise<string | undefined> {
    const configured = this.options.chatDefaults().model;
    if (configured) return configured;
    const state = this.modelsLoaded ? this.models : await this.refreshModels();
    return pickDefaultModel(configured, state.models);
  }

  private attach(webviewPanel: vscode.WebviewPanel, session: ChatSession): ChatPanel {
    const { clock, log, extensionUri } = this.options;
    const controller = new ChatController(session, {
      store: this.store,
      clock,
      gateway: () => this.options.connection.access(),
      defaultModel: () => this.defaultModel(),
      newId: () => randomUUID(),
    });
    const bridge = new ChatWebviewBridge(controller, this.workbench(), (message) => void webviewPanel.webview.postMessage(message), () => this.models, clock, log);
    const panel = new ChatPanel(webviewPanel, controller, bridge, extensionUri, log);
    this.panels.add(panel);
    this.lastActive = panel;
    panel.panel.onDidChangeViewState(() => {
      if (panel.panel.active) this.lastActive = panel;
    });
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      if (this.lastActive === panel) this.lastActive = [...this.panels].at(-1);
    });
    bridge.onDidReceive((message) => {
      if (message.type === 'ready' && !this.modelsLoaded && !this.modelsLoad) void this.refreshModels();
    });
    return panel;
  }

  private workbench(): ChatWorkbench {
    return {
      copyText: async (text) => vscode.env.clipboard.writeText(text),
      insertAtCursor: (code) => this.insertAtCursor(code),
      openInNewFile: async (code, language) => {
        const document = await vscode.workspace.openTextDocument({ content: code, language: await languageIdFor(language) });
        await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Beside });
      },
      openExternal: (url) => this.openExternal(url),
      runCommand: async (command, args) => {
        await vscode.commands.executeCommand(command, ...args);
      },
      exportSession: async (session) => {
        await this.exportSession(session);
      },
      newChat: async () => {
        await this.newChat();
      },
      refreshModels: async () => {
        this.modelsLoaded = false;
        await this.refreshModels({ force: true });
      },
    };
  }

  /** The editor to insert into: the active one, else the one used last (a focused chat panel is not an editor). */
  private targetEditor(): vscode.TextEditor | undefined {
    const candidates = [vscode.window.activeTextEditor, this.lastEditor];
    return candidates.find((e) => e !== undefined && vscode.window.visibleTextEditors.includes(e)) ?? vscode.window.visibleTextEditors[0];
  }

  private async insertAtCursor(code: string): Promise<void> {
    const editor = this.targetEditor();
    if (!editor) {
      void vscode.window.showWarningMessage('Open a file to insert the code into.');
      return;
    }
    const applied = await editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, code);
    });
    if (!applied) void vscode.window.showWarningMessage('The code could not be inserted (is the editor read-only?).');
  }

  private defaultExportUri(title: string): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!folder) return undefined;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'chat';
    return vscode.Uri.joinPath(folder, `${slug}.md`);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    for (const panel of [...this.panels]) panel.disposeForShutdown();
    this.panels.clear();
  }
}

async function languageIdFor(fence: string): Promise<string> {
  const name = fence.trim().toLowerCase();
  if (name === '') return 'plaintext';
  const known = await vscode.languages.getLanguages();
  if (known.includes(name)) return name;
  const alias = LANGUAGE_ALIASES[name];
  return alias && known.includes(alias) ? alias : 'plaintext';
}
