// UI adapter: one webview panel per history entry (hosted by the webview host): the image gallery, or the speech
// player. No scripts; the pages load only the kept files (the history's files folder is the only local resource root) and may run only the
// Save / Copy / Open commands, through their links (see mediaHtml.ts). Speech still arriving has a player of its
// own, which runs the player bundle (speechStream.ts); once the entry is kept, that panel is the entry's.
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { MediaEntry } from '../core/mediaEntry';
import type { MediaHistory } from '../core/mediaHistory';
import { MEDIA_PAGE_COMMANDS } from './commands';
import { galleryPage, MEDIA_PAGE_CSP, playerPage, streamingPlayerPage } from '../core/mediaHtml';
import { SpeechStream } from './speechStream';
import { HostedPage, type PageDescriptor } from '../../ui/vscode/webviewHost';
import { shortText } from '../core/mediaEntry';

export const GALLERY_VIEW_TYPE = 'modelGateway.imageGallery';
export const PLAYER_VIEW_TYPE = 'modelGateway.speechPlayer';

/** The gallery and the player: no scripts; each action is a link to one of the page's few commands. */
const pageOf = (viewType: string): PageDescriptor => ({ viewType, csp: MEDIA_PAGE_CSP, commandLinks: Object.values(MEDIA_PAGE_COMMANDS) });

/** The player of speech still arriving: the player bundle, by nonce, from the built webview folder. */
const STREAMING_PLAYER: PageDescriptor = { ...pageOf(PLAYER_VIEW_TYPE), bundle: { scripts: ['webview/player.js'], styles: [] }, distRoots: ['webview'] };

export interface MediaPanelsOptions {
  /** Where the player bundle is (dist/webview); without it no player streams. */
  extensionUri?: vscode.Uri;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>;
}

export class MediaPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly subscription: vscode.Disposable;

  /** The last stream made (host tests read what it sent). */
  lastStream: SpeechStream | undefined;

  constructor(
    private readonly history: MediaHistory,
    private readonly options: MediaPanelsOptions = { log: console },
  ) {
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

  /** Speech still arriving: its player opens beside at the first bytes, for a type that may stream. */
  stream(prompt: string, maxBytes: number): SpeechStream {
    const stream = new SpeechStream({
      maxBytes,
      log: this.options.log,
      open: (contentType) => {
        const page = HostedPage.open(STREAMING_PLAYER, this.options.extensionUri, { title: `Speech: ${shortText(prompt, 30)}`, column: vscode.ViewColumn.Beside, preserveFocus: true, roots: [vscode.Uri.file(this.history.filesFolder)] });
        page.render(streamingPlayerPage(prompt, contentType, { cspSource: page.cspSource, commands: MEDIA_PAGE_COMMANDS }));
        return page;
      },
    });
    this.lastStream = stream;
    return stream;
  }

  /** The entry is kept: the stream's player moves to its file and becomes the entry's panel (show reveals it). */
  adopt(entry: MediaEntry, stream: SpeechStream): void {
    stream.complete(entry.id, (page) => page.fileSrc(this.history.filePath(entry.files[0])));
    const panel = stream.panel;
    if (!panel || this.panels.has(entry.id)) return;
    this.panels.set(entry.id, panel);
    panel.onDidDispose(() => this.panels.get(entry.id) === panel && this.panels.delete(entry.id));
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
