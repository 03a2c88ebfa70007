// UI adapter: one webview panel per history entry (hosted by the webview host): the image gallery, or the speech
// player. No scripts; the pages load only the kept files (the history's files folder is the only local resource root) and may run only the
// Save / Copy / Open commands, through their links (see mediaHtml.ts).
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { MediaEntry } from '../core/mediaEntry';
import type { MediaHistory } from '../core/mediaHistory';
import { MEDIA_PAGE_COMMANDS } from './commands';
import { galleryPage, MEDIA_PAGE_CSP, playerPage } from '../core/mediaHtml';
import { HostedPage, type PageDescriptor } from '../../ui/vscode/webviewHost';
import { shortText } from '../core/mediaEntry';

export const GALLERY_VIEW_TYPE = 'modelGateway.imageGallery';
export const PLAYER_VIEW_TYPE = 'modelGateway.speechPlayer';

/** The gallery and the player: no scripts; each action is a link to one of the page's few commands. */
const pageOf = (viewType: string): PageDescriptor => ({ viewType, csp: MEDIA_PAGE_CSP, commandLinks: Object.values(MEDIA_PAGE_COMMANDS) });

export class MediaPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly history: MediaHistory) {
    // An entry removed here or in another window closes its panel.
    this.subscription = new vscode.Disposable(history.onDidChange(() => this.closeRemoved()).dispose);
  }

  /** Shows the entry's gallery or player (the open one is revealed). */
  show(entry: MediaEntry, options: { beside?: boolean } = {}): vscode.WebviewPanel {
    const existing = this.panels.get(entry.id);
    if (existing) {
      existing.reveal(undefined, options.beside);
      return existing;
    }
    const title = `${entry.kind === 'image' ? 'Images' : 'Speech'}: ${shortText(entry.prompt, 30)}`;
    const column = options.beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const page = HostedPage.open(pageOf(entry.kind === 'image' ? GALLERY_VIEW_TYPE : PLAYER_VIEW_TYPE), undefined, { title, column, preserveFocus: options.beside === true, roots: [vscode.Uri.file(this.history.filesFolder)] });
    const panel = page.panel;
    this.panels.set(entry.id, panel);
    panel.onDidDispose(() => this.panels.get(entry.id) === panel && this.panels.delete(entry.id));
    page.render(this.content(page, entry));
    return panel;
  }

  /** The open panel of an entry (for tests). */
  panelFor(id: string): vscode.WebviewPanel | undefined {
    return this.panels.get(id);
  }

  private content(page: HostedPage, entry: MediaEntry) {
    const files = entry.files.map((file) => {
      const path = this.history.filePath(file);
      return existsSync(path) ? page.fileSrc(path) : undefined;
    });
    const sources = { cspSource: page.cspSource, files, commands: MEDIA_PAGE_COMMANDS };
    return entry.kind === 'image' ? galleryPage(entry, sources) : playerPage(entry, sources);
  }

  private closeRemoved(): void {
    for (const [id, panel] of [...this.panels]) if (!this.history.get(id)) panel.dispose();
  }

  dispose(): void {
    this.subscription.dispose();
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
