// UI adapter: the one way the extension shows a webview page (the chat, the Usage dashboard, the media and video
// previews). Each page is described once (PageDescriptor): its view type, the folders it may load from, what its CSP
// allows, its bundle and the commands its links may run. The host builds the locked-down panel and page from that,
// and `connect` checks the page's messages both ways against the page's protocol (webviewProtocol.ts; the chat's
// bridge holds the same kind of port itself, so its checks run in unit tests too). It loads nothing of a page's own: a feature's panels load on first use, and a panel VS Code
// restores after a reload loads its provider then (`registerPageSerializer`, in its own small file so that
// activation, which registers the serializers, loads none of this).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { ProtocolPort, type Shapes } from '../../chatProtocol/webviewProtocol';
import { pageHtml, type PageContent, type PageCspSources } from '../core/pageCsp';

export type { PageContent };

export { registerPageSerializer } from './pageSerializer';

export interface PageDescriptor {
  viewType: string;
  /** The built scripts and stylesheets the page loads, as paths under the extension's dist/ folder. */
  bundle?: { scripts: readonly string[]; styles: readonly string[]; workers?: Readonly<Record<string, string>> };
  /** Folders under dist/ the page may load from (its bundle's). */
  distRoots?: readonly string[];
  /** What the CSP allows besides the page's sources (given when it is rendered). */
  csp: Pick<PageCspSources, 'styles' | 'fonts'>;
  /** The commands the page's `command:` links may run (none: no command links). */
  commandLinks?: readonly string[];
}

export interface OpenOptions {
  title: string;
  column?: vscode.ViewColumn;
  preserveFocus?: boolean;
  /** Folders outside the extension the page may load from (kept media files). */
  roots?: readonly vscode.Uri[];
}

/** One page in a webview panel, built from its descriptor. */
export class HostedPage {
  private roots: readonly vscode.Uri[];

  /** Opens a new panel for the page. */
  static open(descriptor: PageDescriptor, extensionUri: vscode.Uri | undefined, options: OpenOptions): HostedPage {
    const column = options.column ?? vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(descriptor.viewType, options.title, { viewColumn: column, preserveFocus: options.preserveFocus === true }, { retainContextWhenHidden: false });
    return new HostedPage(panel, descriptor, extensionUri, options.roots);
  }

  /** Takes over a panel VS Code made (one it restores after a reload). */
  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly descriptor: PageDescriptor,
    private readonly extensionUri: vscode.Uri | undefined,
    roots: readonly vscode.Uri[] = [],
  ) {
    this.roots = roots;
    this.applyOptions();
  }

  get webview(): vscode.Webview {
    return this.panel.webview;
  }

  /** The webview's resource root, as a CSP source. */
  get cspSource(): string {
    return this.panel.webview.cspSource;
  }

  /** The folders outside the extension the page may load from, from now on. */
  setRoots(roots: readonly vscode.Uri[]): void {
    this.roots = roots;
    this.applyOptions();
  }

  /** A local file as the page loads it. */
  fileSrc(file: string): string {
    return this.panel.webview.asWebviewUri(vscode.Uri.file(file)).toString();
  }

  /** Builds the page anew (a fresh nonce each time): its CSP first, then its styles, the body and its bundle. */
  render(content: PageContent): void {
    const { descriptor } = this;
    const nonce = randomBytes(18).toString('base64');
    const asset = (path: string) => (this.extensionUri ? this.panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', ...path.split('/'))).toString() : path);
    const bundle = descriptor.bundle;
    const workers = Object.fromEntries(Object.entries(bundle?.workers ?? {}).map(([name, path]) => [name, asset(path)]));
    this.panel.webview.html = pageHtml(content, { nonce, cspSource: this.cspSource, ...descriptor.csp, scripts: bundle?.scripts.map(asset), stylesheets: bundle?.styles.map(asset), workers });
  }

  /**
   * Connects the page's messages through its protocol: `handle` gets only messages the protocol allows (others are
   * logged and dropped), and what is posted is trimmed to what the page accepts.
   */
  connect<FromPage extends { type: string }, ToPage extends { type: string }>(
    name: string,
    shapes: { page: Shapes<FromPage>; host: Shapes<ToPage> },
    handle: (message: FromPage) => unknown,
    log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>,
  ): { port: ProtocolPort<FromPage, ToPage>; subscription: vscode.Disposable } {
    const port = new ProtocolPort<FromPage, ToPage>(name, shapes, (message) => void this.panel.webview.postMessage(message), log);
    const subscription = this.panel.webview.onDidReceiveMessage((raw: unknown) => {
      const message = port.receive(raw);
      if (message) void handle(message);
    });
    return { port, subscription };
  }

  private applyOptions(): void {
    const { descriptor, extensionUri } = this;
    const dist = extensionUri ? (descriptor.distRoots ?? []).map((folder) => vscode.Uri.joinPath(extensionUri, 'dist', folder)) : [];
    this.panel.webview.options = {
      enableScripts: (descriptor.bundle?.scripts.length ?? 0) > 0,
      enableForms: false,
      enableCommandUris: descriptor.commandLinks && descriptor.commandLinks.length > 0 ? [...descriptor.commandLinks] : false,
      localResourceRoots: [...dist, ...this.roots],
    };
  }
}
