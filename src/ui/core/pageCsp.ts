// The one Content-Security-Policy builder for every webview page (the chat, the Usage dashboard, the media and video
// previews). Pure and browser-safe, so the policies are unit-tested and the browser tests serve pages under them.
// Everything not named here is refused: nothing else loads, connects, frames, posts or rebases.
import { htmlPage } from '../../util/html';

/** What a webview page may load. */
export interface PageCspSources {
  /** The page's nonce: its scripts and (with `styles: 'nonce'`) its one style element carry it. */
  nonce: string;
  /** The webview's resource root (`webview.cspSource`). */
  cspSource: string;
  /** The page's own scripts (by nonce); false: the page runs no script at all (and the policy names none). */
  scripts: boolean;
  /** Stylesheets from the resource root ('root'), or only the page's own style element, by nonce ('nonce'). */
  styles: 'root' | 'nonce';
  /** Fonts from the resource root (the codicons). */
  fonts?: boolean;
  /** Sources of images, and of audio and video; none when empty. */
  images?: readonly string[];
  media?: readonly string[];
  /**
   * URLs of worker scripts under the resource root. A page cannot start a worker from its resource root (another
   * origin than its own), so it fetches the script (connect-src names only these files, see workerSources) and starts
   * the worker from a `blob:` URL (worker-src blob:). None: both stay 'none'.
   */
  workers?: readonly string[];
}

/** A URL a page may be told about and fetch (no separators or quotes that could end or widen a CSP source). */
function isPlainSourceUrl(url: string): boolean {
  return /^https?:\/\/[^\s;,'"]+$/.test(url);
}

/**
 * The connect-src sources that allow fetching exactly these worker scripts: each resource-root source with the
 * script's path. Not the URLs themselves: a resource host such as `vscode-remote+….vscode-resource.vscode-cdn.net`
 * is no valid CSP host (`+`), which is why `webview.cspSource` is a wildcard origin; the path keeps it to the file.
 */
export function workerSources(cspSource: string, workers: readonly string[]): string[] {
  const roots = cspSource.split(/\s+/).filter((source) => /^https?:\/\/[^/\s;,'"]+$/.test(source));
  const paths = workers.filter(isPlainSourceUrl).map((url) => new URL(url).pathname);
  return paths.flatMap((path) => roots.map((root) => root + path));
}

export function pageCsp({ nonce, cspSource, scripts, styles, fonts = false, images = [], media = [], workers = [] }: PageCspSources): string {
  const workerScripts = workerSources(cspSource, workers);
  return [
    "default-src 'none'",
    // A page without scripts names no script-src: default-src 'none' refuses every script.
    ...(scripts ? [`script-src 'nonce-${nonce}'`] : []),
    `style-src ${styles === 'root' ? cspSource : `'nonce-${nonce}'`}`,
    ...(fonts ? [`font-src ${cspSource}`] : []),
    `img-src ${images.length > 0 ? images.join(' ') : "'none'"}`,
    ...(media.length > 0 ? [`media-src ${media.join(' ')}`] : []),
    `connect-src ${workerScripts.length > 0 ? workerScripts.join(' ') : "'none'"}`,
    "frame-src 'none'",
    `worker-src ${workerScripts.length > 0 ? 'blob:' : "'none'"}`,
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** What a feature puts in its page. */
export interface PageContent {
  title: string;
  /** Already-escaped markup. */
  body: string;
  /** CSS for the page's one nonce'd style element (with `styles: 'nonce'`). */
  style?: string;
  /** `data-*` attributes of the body element. */
  data?: Readonly<Record<string, string>>;
  /** CSP sources of the page's images, and of its audio and video. */
  images?: readonly string[];
  media?: readonly string[];
}

/** How the page is served: its nonce and resource root, what its CSP allows, and its bundle's URLs. */
export interface PageServing extends Pick<PageCspSources, 'nonce' | 'cspSource' | 'styles' | 'fonts'> {
  scripts?: readonly string[];
  stylesheets?: readonly string[];
  /** Worker scripts by name: the page finds each URL in its body's `data-worker-<name>`, and the CSP allows it. */
  workers?: Readonly<Record<string, string>>;
}

/** The whole page (its CSP first), as the webview host (ui/vscode/webviewHost.ts) serves it. */
export function pageHtml(content: PageContent, serving: PageServing): string {
  const { nonce, cspSource, styles, fonts, scripts = [], stylesheets = [], workers = {} } = serving;
  const workerUrls = Object.values(workers);
  const csp = pageCsp({ nonce, cspSource, scripts: scripts.length > 0, styles, fonts, images: content.images, media: content.media, workers: workerUrls });
  const workerData = Object.fromEntries(Object.entries(workers).filter(([, url]) => isPlainSourceUrl(url)).map(([name, url]) => [`worker-${name}`, url]));
  const data = { ...content.data, ...workerData };
  return htmlPage({ title: content.title, csp, nonce, style: content.style, stylesheets, scripts, data, body: content.body });
}
