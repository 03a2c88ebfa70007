// Shared by the browser tests and the render bench: bundles the markdown module for a page, launches Debian's
// Chromium, serves pages on loopback and loads the markdown corpus.
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { seededRandom } from '../util/seededRandom';

export { seededRandom };

export const REPO_ROOT = resolve(__dirname, '../../..');
export const CHROMIUM_PATH = '/usr/bin/chromium';

let bundle: Promise<string> | undefined;

/** The markdown module as an IIFE that defines `window.MD`. */
export function markdownBundle(): Promise<string> {
  bundle ??= esbuild
    .build({
      entryPoints: [join(REPO_ROOT, 'src', 'webview', 'markdown', 'index.ts')],
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

export function markdownCss(): string {
  return readFileSync(join(REPO_ROOT, 'src', 'webview', 'markdown', 'markdown.css'), 'utf8');
}

/** The chat panel's own styles (the page has the markdown styles already): its layout, the transcript's scrolling. */
export function chatCss(): string {
  return readFileSync(join(REPO_ROOT, 'src', 'webview', 'chat', 'chat.css'), 'utf8');
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
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
  const script = options.script ? await options.script() : `${await markdownBundle()}\nwindow.seededRandom = ${seededRandom.toString()};\n`;
  const nonce = 'n' + Math.random().toString(36).slice(2);
  const css = markdownCss() + (options.styles ?? '');
  const html =
    `<!doctype html><html><head><meta charset="utf-8"><style nonce="${nonce}">${css}</style></head>` +
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
    } else if (path === '/md.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
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
