// UI adapter: plays a result in a webview. No scripts; the Content-Security-Policy lets media come from one origin:
// the one the link to play is on (the preview command resolves redirects first and passes the final link). That
// link goes into the page byte for byte (HTML-escaped, which the parser undoes).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { escapeHtml, htmlPage } from '../../util/html';
import type { VideoJobRecord } from '../core/jobRecord';
import { shortPrompt } from '../core/jobPresentation';
import { checkResultUrl, previewCsp, urlExpiry } from '../core/resultLinks';

/**
 * The page for one result; `url` must already have passed checkResultUrl (or be the webview's URI of a kept file,
 * with `mediaSource` its cspSource). `note` is shown under the video.
 */
function previewHtml(url: string, title: string, nonce: string, expiresAt?: number, note?: string, mediaSource = new URL(url).origin): string {
  const csp = previewCsp(nonce, mediaSource);
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
  return htmlPage({ title, csp, nonce, style, body });
}

export class VideoPreviewPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  /**
   * Shows result `index` of the job in a panel of its own (reused when it is already open), playing `playUrl`:
   * the result link, or where it finally leads. Returns undefined for a refused link.
   */
  show(record: VideoJobRecord, index: number, playUrl: string, note?: string): vscode.WebviewPanel | undefined {
    if (!checkResultUrl(playUrl).ok) return undefined;
    const panel = this.panelFor(record, index, []);
    const expiresAt = urlExpiry(playUrl) ?? urlExpiry(record.resultUrls[index]);
    panel.webview.html = previewHtml(playUrl, shortPrompt(record.prompt, 200), randomBytes(16).toString('base64'), expiresAt, note);
    return panel;
  }

  /** Plays the kept copy of a result (`file`, inside `folder`, the only folder the page may load from). */
  showFile(record: VideoJobRecord, index: number, file: string, folder: string): vscode.WebviewPanel {
    const panel = this.panelFor(record, index, [vscode.Uri.file(folder)]);
    const src = panel.webview.asWebviewUri(vscode.Uri.file(file)).toString();
    panel.webview.html = previewHtml(src, shortPrompt(record.prompt, 200), randomBytes(16).toString('base64'), undefined, 'Playing the copy kept on this machine.', panel.webview.cspSource);
    return panel;
  }

  private panelFor(record: VideoJobRecord, index: number, roots: vscode.Uri[]): vscode.WebviewPanel {
    const id = `${record.key}#${index}`;
    const title = `Video: ${shortPrompt(record.prompt, 40)}`;
    const options = { enableScripts: false, enableForms: false, localResourceRoots: roots };
    let panel = this.panels.get(id);
    if (panel) {
      panel.webview.options = options;
      panel.reveal();
    } else {
      panel = vscode.window.createWebviewPanel('modelGateway.videoPreview', title, vscode.ViewColumn.Active, { ...options, retainContextWhenHidden: false });
      this.panels.set(id, panel);
      const opened = panel;
      opened.onDidDispose(() => this.panels.get(id) === opened && this.panels.delete(id));
    }
    return panel;
  }

  closeJob(key: string): void {
    for (const [id, panel] of [...this.panels]) if (id.startsWith(`${key}#`)) panel.dispose();
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
