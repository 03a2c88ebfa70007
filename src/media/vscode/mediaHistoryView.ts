// UI adapter: the Media view beside Video Jobs: one item per generated entry (newest first), one child per image of
// an entry with several. Clicking an item opens its gallery or player; menus pick actions by the tokens in each
// item's contextValue. Keeps the `modelGateway.media.empty` context key, and re-reads the history when the window
// gets focus (another window may have added to it).
import * as vscode from 'vscode';
import { formatBytes } from '../../util/bytes';
import { escapeMarkdown } from '../../util/html';
import { entrySummary, shortText, type MediaEntry } from '../core/mediaEntry';
import { showAdvice } from '../../ui/vscode/notify';
import type { MediaHistory } from '../core/mediaHistory';
import { MEDIA_COMMANDS } from './commands';
import { formatAge } from '../../util/age';

/** A tree element, and the argument every media command takes: an entry, and a file of it (default the first). */
export interface MediaNode {
  readonly entry: string;
  readonly index?: number;
}

export class MediaHistoryView implements vscode.TreeDataProvider<MediaNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MediaNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly treeView: vscode.TreeView<MediaNode> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private empty: boolean | undefined;

  private readonly history: MediaHistory;

  /** The view shows the media service's history; it neither builds nor disposes it. */
  constructor(service: { readonly history: MediaHistory }, viewId: string | undefined) {
    const history = (this.history = service.history);
    this.treeView = viewId ? vscode.window.createTreeView(viewId, { treeDataProvider: this, showCollapseAll: false }) : undefined;
    this.subscriptions.push(
      new vscode.Disposable(history.onDidChange(() => this.update()).dispose),
      // Said once per batch, by the window that moved the files: where they are, and a way to look at them.
      new vscode.Disposable(
        history.onDidSetAside(({ files, folder }) => {
          const message = `Damaged Media history files (${files.length}) were moved, not deleted, to ${folder}.`;
          void showAdvice({ kind: 'other', message, actions: [{ title: 'Reveal Folder', command: 'revealFileInOS', args: [vscode.Uri.file(folder)] }] }, 'warning');
        }).dispose,
      ),
      vscode.window.onDidChangeWindowState((state) => state.focused && void history.reload()),
    );
    void history.ready.then(() => this.update());
  }

  selection(): readonly MediaNode[] {
    return this.treeView?.selection ?? [];
  }

  getChildren(node?: MediaNode): MediaNode[] {
    if (!node) return this.history.entries().map((entry) => ({ entry: entry.id }));
    const entry = this.history.get(node.entry);
    if (!entry || node.index !== undefined || entry.files.length < 2) return [];
    return entry.files.map((_, index) => ({ entry: entry.id, index }));
  }

  getParent(node: MediaNode): MediaNode | undefined {
    return node.index === undefined ? undefined : { entry: node.entry };
  }

  getTreeItem(node: MediaNode): vscode.TreeItem {
    const entry = this.history.get(node.entry);
    if (!entry) return new vscode.TreeItem('(removed)');
    return node.index === undefined ? this.entryItem(entry) : this.fileItem(entry, node.index);
  }

  /** Shows and selects an entry's item. */
  async reveal(id: string): Promise<void> {
    if (this.treeView && this.history.get(id)) await this.treeView.reveal({ entry: id }, { select: true, focus: false }).then(undefined, () => undefined);
  }

  private entryItem(entry: MediaEntry): vscode.TreeItem {
    const several = entry.files.length > 1;
    const item = new vscode.TreeItem(shortText(entry.prompt, 50), several ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = entry.id;
    item.description = `${entrySummary(entry)} · ${formatAge(Date.now() - entry.createdAt)}`;
    item.iconPath = new vscode.ThemeIcon(entry.kind === 'image' ? 'file-media' : 'unmute');
    const tooltip = new vscode.MarkdownString(`**${entry.kind === 'image' ? 'Image' : 'Speech'}** · ${escapeMarkdown(entrySummary(entry))}\n\n${escapeMarkdown(shortText(entry.prompt, 1000))}\n\n${escapeMarkdown(`${entry.origin} · ${new Date(entry.createdAt).toLocaleString()} · ${formatBytes(entry.files.reduce((n, f) => n + f.bytes, 0))}`)}`);
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    item.contextValue = ['mediaEntry', entry.kind, several ? '' : 'single'].filter(Boolean).join(' ');
    item.command = { command: MEDIA_COMMANDS.show, title: 'Show', arguments: [{ entry: entry.id }] };
    return item;
  }

  private fileItem(entry: MediaEntry, index: number): vscode.TreeItem {
    const file = entry.files[index];
    const item = new vscode.TreeItem(`Image ${index + 1}`, vscode.TreeItemCollapsibleState.None);
    item.id = `${entry.id}#${index}`;
    item.description = file ? `${file.contentType.slice('image/'.length).toUpperCase()} · ${formatBytes(file.bytes)}` : '';
    item.iconPath = new vscode.ThemeIcon('file-media');
    item.contextValue = `mediaFile ${entry.kind}`;
    item.command = { command: MEDIA_COMMANDS.open, title: 'Open', arguments: [{ entry: entry.id, index }] };
    return item;
  }

  private update(): void {
    this.changed.fire(undefined);
    const empty = this.history.entries().length === 0;
    if (empty === this.empty || !this.treeView) return;
    this.empty = empty;
    void vscode.commands.executeCommand('setContext', 'modelGateway.media.empty', empty);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.treeView?.dispose();
    this.changed.dispose();
  }
}
