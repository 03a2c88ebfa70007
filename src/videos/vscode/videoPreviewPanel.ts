// UI adapter: plays a result in a webview, hosted by the webview host (VIDEO_PAGE). No scripts; the
// Content-Security-Policy lets media come from one origin: the one the link to play is on (the preview command
// resolves redirects first and passes the final link). That link goes into the page byte for byte (HTML-escaped,
// which the parser undoes).
import * as vscode from 'vscode';
import { escapeHtml } from '../../util/html';
import { HostedPage, type PageContent, type PageDescriptor } from '../../ui/vscode/webviewHost';
import type { VideoJobRecord } from '../core/jobRecord';
import { shortPrompt } from '../core/jobPresentation';
import { checkResultUrl, urlExpiry } from '../core/resultLinks';

/**
 * The page for one result; `url` must already have passed checkResultUrl (or be the webview's URI of a kept file,
 * with `mediaSource` its cspSource). `note` is shown under the video.
 */
function previewPage(url: string, title: string, expiresAt?: number, note?: string, mediaSource = new URL(url).origin): PageContent {
  const expiry = expiresAt === undefined ? '' : `<p class="note">The link ${expiresAt <= Date.now() ? 'expired' : 'is valid until'} ${escapeHtml(new Date(expiresAt).toLocaleString())}.</p>`;
  const style = `
  body { margin: 0; padding: 12px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); }
  video { display: block; max-width: 100%; max-height: calc(100vh - 90px); margin: 0 auto; background: #000; }
  h1 { font-size: 1em; font-weight: normal; margin: 0 0 8px; overflow-wrap: anywhere; }
  .note { opacity: 0.75; font-size: 0.9em; }
`;
  const body = `<h1>${escapeHtml(title)}</h1>
<video controls preload="metadata" src="${escapeHtml(url)}">
  <p>This video cannot play here. Use Open Result or Download to Workspace instead.</p>
</video>
${expiry}${note ? `\n<p class="note">${escapeHtml(note)}</p>` : ''}`;
  return { title, style, body, media: [mediaSource] };
}

/** The preview page: its own style element, its video; no script, no command link. */
const VIDEO_PAGE: PageDescriptor = { viewType: 'modelGateway.videoPreview', csp: { styles: 'nonce' } };

export class VideoPreviewPanels implements vscode.Disposable {
  private readonly panels = new Map<string, HostedPage>();

  /**
   * Shows result `index` of the job in a panel of its own (reused when it is already open), playing `playUrl`:
   * the result link, or where it finally leads. Returns undefined for a refused link.
   */
  show(record: VideoJobRecord, index: number, playUrl: string, note?: string): vscode.WebviewPanel | undefined {
    if (!checkResultUrl(playUrl).ok) return undefined;
    const page = this.pageFor(record, index, []);
    const expiresAt = urlExpiry(playUrl) ?? urlExpiry(record.resultUrls[index]);
    page.render(previewPage(playUrl, shortPrompt(record.prompt, 200), expiresAt, note));
    return page.panel;
  }

  /** Plays the kept copy of a result (`file`, inside `folder`, the only folder the page may load from). */
  showFile(record: VideoJobRecord, index: number, file: string, folder: string): vscode.WebviewPanel {
    const page = this.pageFor(record, index, [vscode.Uri.file(folder)]);
    page.render(previewPage(page.fileSrc(file), shortPrompt(record.prompt, 200), undefined, 'Playing the copy kept on this machine.', page.cspSource));
    return page.panel;
  }

  private pageFor(record: VideoJobRecord, index: number, roots: vscode.Uri[]): HostedPage {
    const id = `${record.key}#${index}`;
    let page = this.panels.get(id);
    if (page) {
      page.setRoots(roots);
      page.panel.reveal();
    } else {
      const opened = HostedPage.open(VIDEO_PAGE, undefined, { title: `Video: ${shortPrompt(record.prompt, 40)}`, roots });
      this.panels.set(id, opened);
      opened.panel.onDidDispose(() => this.panels.get(id) === opened && this.panels.delete(id));
      page = opened;
    }
    return page;
  }

  closeJob(key: string): void {
    for (const [id, page] of [...this.panels]) if (id.startsWith(`${key}#`)) page.panel.dispose();
  }

  dispose(): void {
    for (const page of [...this.panels.values()]) page.panel.dispose();
    this.panels.clear();
  }
}
