// Every webview page's Content-Security-Policy, read for what it means (test/util/cspPolicy.ts): no script but the
// page's own nonce'd ones, nothing loaded, connected, framed, posted or rebased beyond what the page needs.
import * as assert from 'node:assert/strict';
import { chatCsp } from '../../../src/chat/core/hub/csp';
import { MEDIA_PAGE_CSP } from '../../../src/media/core/mediaHtml';
import { pageCsp, workerSources } from '../../../src/ui/core/pageCsp';
import { cspProblems, effective, parseCsp } from '../../util/cspPolicy';

const cspSource = 'https://*.vscode-cdn.net';
const nonce = 'q1w2e3r4t5y6u7i8o9p0AA==';
const HOSTILE_ORIGINS = ['https://cdn.example.com', 'http://127.0.0.1:8123', 'https://*', 'https://x.com; script-src *', "'unsafe-inline'", 'javascript:', 'data:', 'http://u:p@h.com', '*'];

const WORKER = 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/markdownWorker.js';
// What connect-src names for it: the resource root with the script's path (a `+` host is no valid CSP source).
const WORKER_SOURCES = workerSources(cspSource, [WORKER]);

const PAGES: Array<{ page: string; csp: string; scripts: boolean; workerScripts?: string[] }> = [
  { page: 'chat', csp: chatCsp({ nonce, cspSource, mediaOrigins: HOSTILE_ORIGINS }), scripts: true },
  { page: 'chat with its markdown worker', csp: chatCsp({ nonce, cspSource, mediaOrigins: [], workers: [WORKER] }), scripts: true, workerScripts: WORKER_SOURCES },
  { page: 'chat without media', csp: chatCsp({ nonce, cspSource, mediaOrigins: [] }), scripts: true },
  // The other pages as the webview host serves them (their descriptors' options, ui/vscode/webviewHost.ts).
  { page: 'usage dashboard', csp: pageCsp({ nonce, cspSource, scripts: true, styles: 'root' }), scripts: true },
  { page: 'image gallery', csp: pageCsp({ nonce, cspSource, scripts: false, ...MEDIA_PAGE_CSP, images: [cspSource] }), scripts: false },
  { page: 'speech page', csp: pageCsp({ nonce, cspSource, scripts: false, ...MEDIA_PAGE_CSP, media: [cspSource] }), scripts: false },
  { page: 'video preview', csp: pageCsp({ nonce, cspSource, scripts: false, styles: 'nonce', media: ['https://cdn.example.com'] }), scripts: false },
  { page: 'video preview (kept copy)', csp: pageCsp({ nonce, cspSource, scripts: false, styles: 'nonce', media: [cspSource] }), scripts: false },
];

describe('webview CSPs, by meaning', () => {
  for (const { page, csp, scripts, workerScripts } of PAGES) {
    it(`${page}: ${scripts ? 'runs only its nonce\'d scripts' : 'runs no script'}, and loads nothing else it does not need`, () => {
      assert.deepEqual(cspProblems(csp, { cspSource, scripts, workerScripts }), []);
    });
  }

  it('the chat lets media come from the gateway\'s exact origins and nothing a hostile origin adds', () => {
    const { policy } = parseCsp(PAGES[0].csp);
    assert.deepEqual(effective(policy, 'media-src'), [cspSource, 'data:', 'blob:', 'https://cdn.example.com', 'http://127.0.0.1:8123']);
    assert.deepEqual(effective(policy, 'script-src-elem'), [`'nonce-${nonce}'`]);
  });

  it('catches each way a policy could be loosened (the check itself)', () => {
    const chat = PAGES[0].csp;
    const loosened: Array<[string, string, RegExp]> = [
      ['nonce replaced by unsafe-inline', chat.replace(`'nonce-${nonce}'`, "'unsafe-inline'"), /script-src allows 'unsafe-inline'/],
      ['unsafe-eval beside the nonce', chat.replace(`'nonce-${nonce}'`, `'nonce-${nonce}' 'unsafe-eval'`), /'unsafe-eval'/],
      ['a wildcard script source', chat.replace(`'nonce-${nonce}'`, `'nonce-${nonce}' *`), /script-src allows \*/],
      ['data: scripts', chat.replace(`'nonce-${nonce}'`, `'nonce-${nonce}' data:`), /script-src allows data:/],
      ['the resource root as a script source', chat.replace(`'nonce-${nonce}'`, `'nonce-${nonce}' ${cspSource}`), /script-src allows https/],
      ['no script-src (falls back to a loose default)', chat.replace(/script-src [^;]+; /, '').replace("default-src 'none'", 'default-src *'), /default-src is not 'none'/],
      ['inline handlers through script-src-attr', `${chat}; script-src-attr 'unsafe-inline'`, /script-src-attr allows 'unsafe-inline'/],
      ['a second, looser script-src', `${chat}; script-src *`, /script-src is given twice/],
      ['no nonce at all', chat.replace(`'nonce-${nonce}'`, "'none'"), /requires no nonce/],
      ['connect-src to anywhere', chat.replace("connect-src 'none'", 'connect-src *'), /connect-src is not 'none'/],
      ['no base-uri', chat.replace("; base-uri 'none'", ''), /base-uri is not 'none'/],
      ['inline styles', chat.replace(`style-src ${cspSource}`, `style-src ${cspSource} 'unsafe-inline'`), /style-src allows 'unsafe-inline'/],
      ['images from any https host', chat.replace(`img-src ${cspSource}`, `img-src https: ${cspSource}`), /img-src allows https:/],
    ];
    for (const [what, policy, problem] of loosened) {
      assert.match(cspProblems(policy, { cspSource, scripts: true }).join('\n'), problem, what);
    }
    const withWorker = PAGES[1].csp;
    const workerLoosened: Array<[string, string, RegExp]> = [
      ['workers from anywhere', withWorker.replace('worker-src blob:', 'worker-src blob: *'), /worker-src is not exactly blob:/],
      ['fetching beyond the worker script', withWorker.replace(`connect-src ${WORKER_SOURCES[0]}`, `connect-src ${WORKER_SOURCES[0]} ${cspSource}`), /connect-src is not exactly the worker scripts/],
      ['a worker-src the page does not need', chat.replace("worker-src 'none'", 'worker-src blob:'), /worker-src is not 'none'/],
    ];
    for (const [what, policy, problem] of workerLoosened) {
      assert.match(cspProblems(policy, { cspSource, scripts: true, workerScripts: policy === workerLoosened[2][1] ? undefined : WORKER_SOURCES }).join('\n'), problem, what);
    }
    assert.deepEqual(WORKER_SOURCES, ['https://*.vscode-cdn.net/ext/dist/webview/markdownWorker.js']);
    assert.match(cspProblems(PAGES[4].csp.replace("default-src 'none'", `default-src 'none'; script-src 'nonce-${nonce}'`), { cspSource, scripts: false }).join('\n'), /a script on a page that has none/);
  });
});
