// UI adapter: one chat session in a WebviewPanel. Builds the locked-down page (CSP with a script nonce, only the
// built assets as local resources, no command links), passes the webview's messages to the bridge and posts the
// bridge's messages back.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostMessage } from '../chatProtocol/messages';
import type { ChatController } from './chatController';
import type { ChatWebviewBridge } from './webviewBridge';

/** The folders the webview may load from: the built chat bundle and the codicon font, nothing else. */
export function chatResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'dist', 'codicons')];
}

export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: chatResourceRoots(extensionUri) };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, sessionId: string): string {
  const nonce = randomBytes(18).toString('base64');
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  const source = webview.cspSource;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
    "connect-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(asset('codicons', 'codicon.css'))}">
<link rel="stylesheet" href="${escapeAttribute(asset('webview', 'chat.css'))}">
<title>Model Gateway Chat</title>
</head>
<body data-session-id="${escapeAttribute(sessionId)}">
<div id="app"></div>
<script nonce="${nonce}" src="${escapeAttribute(asset('webview', 'chat.js'))}"></script>
</body>
</html>`;
}

export class ChatPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private closedByUser = true;
  private disposed = false;
  /** The webview has said `ready` at least once; before that there is nothing to bring up to date. */
  private hasLoaded = false;
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposedEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly controller: ChatController,
    readonly bridge: ChatWebviewBridge,
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
  ) {
    panel.webview.options = chatWebviewOptions(extensionUri);
    panel.title = controller.session.title;
    panel.webview.html = chatHtml(panel.webview, extensionUri, controller.session.id);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) bridge.markNotLive();
        else if (this.hasLoaded) bridge.revive();
      }),
      bridge.onDidReceive((message) => {
        if (message.type === 'ready') this.hasLoaded = true;
      }),
      controller.onEvent((event) => {
        if (event.type === 'title') panel.title = event.title;
      }),
      panel.onDidDispose(() => void this.onPanelClosed().catch((error: unknown) => log.error(`Chat: closing failed: ${String(error)}`))),
    );
  }

  get sessionId(): string {
    return this.controller.session.id;
  }

  /** Everything the host posts to the webview. */
  get onDidPost(): vscode.Event<HostMessage> {
    return this.bridge.onDidPost as unknown as vscode.Event<HostMessage>;
  }

  /** The single entry point for messages from the webview (host tests feed it directly). */
  handleMessage(raw: unknown): Promise<void> {
    return this.bridge.handle(raw);
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn, false);
  }

  /** Closes the panel as a window reload would: a running reply is left for the next load to restore. */
  disposeForShutdown(): void {
    this.closedByUser = false;
    this.controller.dispose();
    if (!this.disposed) this.panel.dispose();
  }

  dispose(): void {
    if (!this.disposed) this.panel.dispose();
  }

  private async onPanelClosed(): Promise<void> {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.bridge.dispose();
    if (this.closedByUser) await this.controller.close({ stop: true });
    this.disposedEmitter.fire();
    this.disposedEmitter.dispose();
  }
}
