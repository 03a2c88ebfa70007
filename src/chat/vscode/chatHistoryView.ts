// UI adapter: the Chats view. Lists every saved session (every window's) grouped by when it was last used, with
// an optional filter over titles and message text. Refreshes when this window's store changes the index and when
// another window writes the chat folder (watched), coalescing bursts of changes into one refresh.
import * as vscode from 'vscode';
import type { Clock, TimerHandle } from '../../util/clock';
import { Rerun } from '../../util/rerun';
import { watchFolder } from '../../util/storeFileSystem';
import { groupSessions, sessionDescription, type HistoryGroup } from '../core/historyModel';
import { SessionSearchIndex } from '../core/historySearch';
import type { ChatSessionStore, SessionSummary } from '../core/sessionStore';
import { CHAT_COMMANDS } from './commands';

export const CHATS_VIEW_ID = 'modelGateway.chats';
const FILTERED_CONTEXT_KEY = 'modelGateway.chats.filtered';
/** Changes within this time of each other make one refresh. */
const REFRESH_DELAY_MS = 150;

export class ChatGroupNode extends vscode.TreeItem {
  readonly kind = 'group';

  constructor(readonly group: HistoryGroup) {
    super(group.name, vscode.TreeItemCollapsibleState.Expanded);
    this.id = `group:${group.name}`;
    this.contextValue = 'group';
  }
}

export class ChatSessionNode extends vscode.TreeItem {
  readonly kind = 'session';

  constructor(readonly summary: SessionSummary) {
    super(summary.title, vscode.TreeItemCollapsibleState.None);
    this.id = `chat:${summary.id}`;
    this.description = sessionDescription(summary);
    this.tooltip = `${summary.title}\n${sessionDescription(summary)}\nLast used ${new Date(summary.updatedAt).toLocaleString()}`;
    this.iconPath = new vscode.ThemeIcon('comment-discussion');
    // Capability tokens matched by package.json's view/item/context menus.
    const tokens = ['session', 'open', 'renamable', 'deletable', 'exportable'];
    if (summary.turns > 0) tokens.push('branchable', 'titleable');
    this.contextValue = tokens.join(' ');
    this.command = { command: CHAT_COMMANDS.openSaved, title: 'Open Chat', arguments: [summary.id] };
  }
}

export type ChatHistoryNode = ChatGroupNode | ChatSessionNode;

export interface ChatHistoryViewDeps {
  store: Pick<ChatSessionStore, 'list' | 'peek' | 'onDidChange'>;
  /** The chat folder, watched for other windows' writes. */
  folder: string;
  clock: Clock;
}

export class ChatHistoryView implements vscode.TreeDataProvider<ChatHistoryNode>, vscode.Disposable {
  readonly search: SessionSearchIndex;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private readonly treeView: vscode.TreeView<ChatHistoryNode> | undefined;
  private groups: HistoryGroup[] = [];
  private filterText = '';
  private timer: TimerHandle | undefined;
  private readonly refresher = new Rerun(() => this.load());
  private loaded = false;

  constructor(
    private readonly deps: ChatHistoryViewDeps,
    treeViewId: string | undefined = CHATS_VIEW_ID,
  ) {
    this.search = new SessionSearchIndex((id) => deps.store.peek(id));
    const storeChanged = deps.store.onDidChange(() => this.scheduleRefresh());
    const watcher = watchFolder(deps.folder, (name) => {
      if (name === '' || name === 'index.json') this.scheduleRefresh();
    });
    this.subscriptions.push(new vscode.Disposable(() => storeChanged.dispose()), new vscode.Disposable(() => watcher.dispose()));
    if (treeViewId) {
      this.treeView = vscode.window.createTreeView(treeViewId, { treeDataProvider: this, showCollapseAll: false });
      this.subscriptions.push(
        this.treeView,
        // The groups follow the calendar: coming back after midnight shows Yesterday where Today was.
        this.treeView.onDidChangeVisibility((e) => {
          if (e.visible) this.scheduleRefresh();
        }),
      );
    }
  }

  get filter(): string {
    return this.filterText;
  }

  /** The sessions shown, in order. */
  get shown(): SessionSummary[] {
    return this.groups.flatMap((g) => g.sessions);
  }

  get shownGroups(): readonly HistoryGroup[] {
    return this.groups;
  }

  async setFilter(text: string): Promise<void> {
    this.filterText = text.trim();
    void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT_KEY, this.filterText !== '');
    await this.refresh();
  }

  /** Reads the list again (once more if asked while reading) and shows it. */
  refresh(): Promise<void> {
    return this.refresher.run();
  }

  getTreeItem(node: ChatHistoryNode): vscode.TreeItem {
    return node;
  }

  async getChildren(node?: ChatHistoryNode): Promise<ChatHistoryNode[]> {
    if (!this.loaded) await this.refresh();
    if (!node) return this.groups.map((g) => new ChatGroupNode(g));
    return node.kind === 'group' ? node.group.sessions.map((s) => new ChatSessionNode(s)) : [];
  }

  private scheduleRefresh(): void {
    if (this.timer) return;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, REFRESH_DELAY_MS);
  }

  private async load(): Promise<void> {
    const all = await this.deps.store.list();
    const matching = await this.search.filter(all, this.filterText);
    this.groups = groupSessions(matching, this.deps.clock.now());
    this.loaded = true;
    this.showState(all.length, matching.length);
    this.changed.fire();
  }

  private showState(total: number, matching: number): void {
    if (!this.treeView) return;
    const filter = this.filterText;
    this.treeView.description = filter === '' ? undefined : `Filter: ${filter}`;
    if (filter !== '' && matching === 0) this.treeView.message = `No chats match “${filter}”. Clear the filter to see all ${total}.`;
    else if (filter === '' && total === 0) this.treeView.message = 'No saved chats yet. Start one with New Chat.';
    else this.treeView.message = undefined;
  }

  dispose(): void {
    if (this.timer) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
    for (const s of this.subscriptions) s.dispose();
  }
}
