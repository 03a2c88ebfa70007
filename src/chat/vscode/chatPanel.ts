// UI adapter: one chat session in a WebviewPanel, hosted as the chat page (CHAT_PAGE: CSP with a script nonce, only
// the built assets and the kept media as local resources, no command links). Passes the webview's messages to the
// bridge, which checks them and everything it posts against the chat's protocol.
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE, type HostMessage, type MediaAudioMessage } from '../../chatProtocol/messages';
import type { ChatContext } from '../core/chatContext';
import type { ChatController } from '../core/chatController';
import type { ChatWebviewBridge } from '../core/webviewBridge';
import { CHAT_PAGE_CSP, chatMediaSources, mediaOriginsOf } from '../core/hub/csp';
import { HostedPage, type PageDescriptor } from '../../ui/vscode/webviewHost';

/** What the chat's media turns add to the page: the kept files' folder, and the gateway's result origins. */
export interface PanelMedia {
  roots: vscode.Uri[];
  /** Origins the page plays from beyond the turns' own links: where redirected result links finally lead. */
  origins(): string[];
  /** Fires with the media turns whose source changed (a check of their link finished). */
  onDidChangeSources(listener: (turnIds: string[]) => void): { dispose(): void };
  /** Fires with each piece of a /speak turn's audio as it arrives, and its end. */
  onDidHearAudio(listener: (message: MediaAudioMessage) => void): { dispose(): void };
}

/** The chat page: the built chat bundle and the codicon font, nothing else of the extension's. */
export const CHAT_PAGE: PageDescriptor = {
  viewType: CHAT_VIEW_TYPE,
  // The markdown worker parses and highlights streaming replies off the page's main thread: the page's own script,
  // started again as a worker (src/webview/chat/main.ts).
  bundle: { scripts: ['webview/chat.js'], styles: ['codicons/codicon.css', 'webview/chat.css'], workers: { markdown: 'webview/chat.js' } },
  distRoots: ['webview', 'codicons'],
  csp: CHAT_PAGE_CSP,
};

function renderChat(page: HostedPage, sessionId: string, mediaOrigins: readonly string[]): void {
  const media = chatMediaSources(page.cspSource, mediaOrigins);
  page.render({ title: 'Model Gateway Chat', data: { 'session-id': sessionId }, body: '<div id="app"></div>', images: media, media });
}

export class ChatPanel implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private closedByUser = true;
  private disposed = false;
  /** The webview has said `ready` at least once; before that there is nothing to bring up to date. */
  private readonly disposedEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposedEmitter.event;

  readonly panel: vscode.WebviewPanel;
  /** What goes with the chat's next message (Add to Model Gateway Chat adds to it); set by the manager that wires the panel. */
  context: ChatContext | undefined;

  constructor(
    page: HostedPage,
    readonly controller: ChatController,
    readonly bridge: ChatWebviewBridge,
    log: vscode.LogOutputChannel,
    media?: PanelMedia,
  ) {
    const panel = (this.panel = page.panel);
    if (media) page.setRoots(media.roots);
    panel.title = controller.session.title;
    const originsNow = () => [...new Set([...mediaOriginsOf(controller.session.turns), ...(media?.origins() ?? [])])].sort();
    let origins = originsNow();
    renderChat(page, controller.session.id, origins);
    // A result from an origin the page does not allow yet: the page is built again with it (and says `ready` again,
    // so it is sent every turn anew). True when it was rebuilt.
    const allowNewOrigins = (): boolean => {
      const next = originsNow();
      if (next.every((o) => origins.includes(o))) return false;
      origins = next;
      renderChat(page, controller.session.id, origins);
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
      ...(media ? [media.onDidChangeSources((turnIds) => allowNewOrigins() || bridge.resendMediaTurns(turnIds)), media.onDidHearAudio((message) => bridge.postAudio(message))] : []),
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
