// Shared by the browser tests and the render bench: bundles the markdown module for a page, launches Debian's
// Chromium, serves pages on loopback and loads the markdown corpus.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { seededRandom } from '../util/seededRandom';
import { pageHelpersScript } from './pageHelpers';

export { seededRandom };

export const REPO_ROOT = resolve(__dirname, '../../..');
export const CHROMIUM_PATH = '/usr/bin/chromium';

let bundle: Promise<string> | undefined;

/** The markdown module (with the test entry's reference parts, markdownTestEntry.ts) as an IIFE that defines `window.MD`. */
export function markdownBundle(): Promise<string> {
  bundle ??= esbuild
    .build({
      entryPoints: [join(REPO_ROOT, 'test', 'browser', 'markdownTestEntry.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'MD',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'error',
    })
    .then((result) => result.outputFiles[0].text);
  return bundle;
}

let workerBundle: Promise<string> | undefined;

/**
 * The markdown worker, served at /md-worker.js: the chat's whole script (src/webview/chat/main.ts), as the panel starts
 * it, so the tests also see that only its worker part runs where there is no document.
 */
export function markdownWorkerBundle(): Promise<string> {
  workerBundle ??= esbuild
    .build({
      entryPoints: [join(REPO_ROOT, 'src', 'webview', 'chat', 'main.ts')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      // Its styles come out beside it (not written): only the script is served.
      outdir: join(REPO_ROOT, 'out', 'md-worker'),
      loader: { '.ttf': 'file' },
      define: { TEST_BUILD: 'true' },
      write: false,
      logLevel: 'error',
    })
    .then((result) => result.outputFiles.find((file) => file.path.endsWith('.js'))!.text);
  return workerBundle;
}

export function markdownCss(): string {
  return readFileSync(join(REPO_ROOT, 'src', 'webview', 'markdown', 'markdown.css'), 'utf8');
}

/** The chat panel's own styles (the page has the markdown styles already): its layout, the transcript's scrolling. */
export function chatCss(): string {
  return readFileSync(join(REPO_ROOT, 'src', 'webview', 'chat', 'chat.css'), 'utf8');
}

export interface PageProblem {
  kind: string;
  text: string;
  url: string;
}

interface ProblemWatcher {
  watchWebviewProblems(target: BrowserContext, onProblem: (problem: PageProblem) => void, options: { everyFrame: boolean }): Promise<void>;
  describeProblems(problems: PageProblem[]): string;
}
const watcher = (): ProblemWatcher => require(join(REPO_ROOT, 'scripts', 'webviewProblems.mjs')) as ProblemWatcher;

/** Uncaught exceptions and CSP violations in any page of a browser this harness launched, not yet claimed. */
const pageProblems: PageProblem[] = [];

/** Takes the problems seen so far (a test that causes some on purpose claims them). */
export function takePageProblems(): PageProblem[] {
  return pageProblems.splice(0);
}

/**
 * Chromium, whose every page (from newPage() or a newContext()) reports uncaught exceptions and CSP violations:
 * the test during which one happens fails (see the afterEach hook below).
 */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  });
  const watch = (context: BrowserContext) => watcher().watchWebviewProblems(context, (problem) => pageProblems.push(problem), { everyFrame: true });
  // newPage() makes its page's context with newContext(): one hook covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watch(context);
    return context;
  };
  return browser;
}

// Under mocha (not in the benches): a page problem fails the test during which it was seen.
if (typeof afterEach === 'function') {
  afterEach(function () {
    const problems = takePageProblems();
    if (problems.length === 0 || this.currentTest?.state === 'failed') return;
    (this.test as Mocha.Hook | undefined)?.error(new Error(`a page reported ${problems.length} problem(s) during this test:\n${watcher().describeProblems(problems)}`));
  });
}

export interface CorpusDocument {
  name: string;
  text: string;
}

export function loadCorpus(): CorpusDocument[] {
  const dir = join(REPO_ROOT, 'test', 'fixtures', 'markdown');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
}


export interface ServedPage {
  url: string;
  /** Requests for anything but the page and its script: a hostile payload phoning home. */
  strayRequests: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  /** Sent as the Content-Security-Policy header; `{nonce}` is replaced by the page's nonce. */
  csp?: string;
  body?: string;
  /** The page's script instead of the markdown bundle. */
  script?: () => Promise<string>;
  /** More CSS after the markdown styles. */
  styles?: string;
}

/** Serves one page that loads the markdown bundle (with a nonce) on 127.0.0.1, counting every other request. */
export async function servePage(options: PageOptions = {}): Promise<ServedPage> {
  // Code run through page.evaluate cannot import, so the page carries the same PRNG the Node side uses.
  const script = options.script ? await options.script() : `${await markdownBundle()}\nwindow.seededRandom = ${seededRandom.toString()};\n${pageHelpersScript()}`;
  const nonce = 'n' + Math.random().toString(36).slice(2);
  const css = markdownCss() + (options.styles ?? '');
  // The styles as the page's CSP allows them: inline with the nonce, or (like the chat panel's, from its resource
  // root) a stylesheet from the page's own origin; a style the CSP refuses would be a violation, failing the test.
  const inlineStyles = !options.csp || /style-src[^;]*'nonce-\{nonce\}'/.test(options.csp);
  const styles = inlineStyles ? `<style nonce="${nonce}">${css}</style>` : '<link rel="stylesheet" href="/md.css">';
  const html =
    `<!doctype html><html><head><meta charset="utf-8">${styles}</head>` +
    `<body>${options.body ?? '<div id="out" class="markdown-body"></div>'}` +
    `<script nonce="${nonce}" src="/md.js"></script></body></html>`;
  const strayRequests: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const path = request.url ?? '';
    if (path === '/') {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
      if (options.csp) headers['content-security-policy'] = options.csp.replaceAll('{nonce}', nonce);
      response.writeHead(200, headers).end(html);
    } else if (path === '/favicon.ico') {
      response.writeHead(404).end();
    } else if (path === '/md.css' && !inlineStyles) {
      response.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(css);
    } else if (path === '/md.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    } else if (path === '/md-worker.js') {
      // Fetched by the page (MarkdownWorker.load) and started from a blob: URL, as in the chat panel.
      void markdownWorkerBundle().then((worker) => response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(worker));
    } else {
      strayRequests.push(`${request.method} ${path}`);
      response.writeHead(204).end();
    }
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    strayRequests,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
