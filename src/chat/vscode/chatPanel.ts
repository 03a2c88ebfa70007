// UI adapter: one chat session in a WebviewPanel. Builds the locked-down page (CSP with a script nonce, only the
// built assets as local resources, no command links), passes the webview's messages to the bridge and posts the
// bridge's messages back.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { HostMessage } from '../../chatProtocol/messages';
import type { ChatController } from '../core/chatController';
import type { ChatWebviewBridge } from '../core/webviewBridge';
import { htmlPage } from '../../util/html';
import { chatCsp, mediaOriginsOf } from '../core/hub/csp';

/** What the chat's media turns add to the page: the kept files' folder, and the gateway's result origins. */
export interface PanelMedia {
  roots: vscode.Uri[];
  /** Origins the page plays from beyond the turns' own links: where redirected result links finally lead. */
  origins(): string[];
  /** Fires with the media turns whose source changed (a check of their link finished). */
  onDidChangeSources(listener: (turnIds: string[]) => void): { dispose(): void };
}

/** The folders the webview may load from: the built chat bundle and the codicon font, nothing else. */
export function chatResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'dist', 'codicons')];
}

export function chatWebviewOptions(extensionUri: vscode.Uri, mediaRoots: vscode.Uri[] = []): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: [...chatResourceRoots(extensionUri), ...mediaRoots] };
}

export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, sessionId: string, mediaOrigins: readonly string[] = []): string {
  const nonce = randomBytes(18).toString('base64');
  const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
  return htmlPage({
    title: 'Model Gateway Chat',
    csp: chatCsp({ nonce, cspSource: webview.cspSource, mediaOrigins }),
    nonce,
    stylesheets: [asset('codicons', 'codicon.css'), asset('webview', 'chat.css')],
    scripts: [asset('webview', 'chat.js')],
    data: { 'session-id': sessionId },
    body: '<div id="app"></div>',
  });
}

export class ChatPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private closedByUser = true;
  private disposed = false;
  /** The webview has said `ready` at least once; before that there is nothing to bring up to date. */
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposedEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly controller: ChatController,
    readonly bridge: ChatWebviewBridge,
    extensionUri: vscode.Uri,
    log: vscode.LogOutputChannel,
    media?: PanelMedia,
  ) {
    panel.webview.options = chatWebviewOptions(extensionUri, media?.roots);
    panel.title = controller.session.title;
    const originsNow = () => [...new Set([...mediaOriginsOf(controller.session.turns), ...(media?.origins() ?? [])])].sort();
    let origins = originsNow();
    panel.webview.html = chatHtml(panel.webview, extensionUri, controller.session.id, origins);
    // A result from an origin the page does not allow yet: the page is built again with it (and says `ready` again,
    // so it is sent every turn anew). True when it was rebuilt.
    const allowNewOrigins = (): boolean => {
      const next = originsNow();
      if (next.every((o) => origins.includes(o))) return false;
      origins = next;
      panel.webview.html = chatHtml(panel.webview, extensionUri, controller.session.id, origins);
      return true;
    };
    bridge.pageRebuiltForMedia = allowNewOrigins;
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) bridge.markNotLive();
        else if (bridge.hasLoaded) bridge.revive();
      }),
      controller.onEvent((event) => {
        if (event.type === 'title') panel.title = event.title;
        if (event.type === 'reloaded') allowNewOrigins();
      }),
      // The page is allowed the new origin before it is given a source there: a refused load would show as failed.
      ...(media ? [media.onDidChangeSources((turnIds) => allowNewOrigins() || bridge.resendMediaTurns(turnIds))] : []),
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
