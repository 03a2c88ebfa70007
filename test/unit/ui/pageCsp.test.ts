// The one CSP builder (src/ui/core/pageCsp.ts) and what it allows each webview page: only the page's own nonce'd
// scripts (or none), its styles, and the media sources it names; every other directive refuses everything.
import * as assert from 'node:assert/strict';
import { pageCsp, pageHtml } from '../../../src/ui/core/pageCsp';
import { chatCsp } from '../../../src/chat/core/hub/csp';

const ROOT = 'https://file+.vscode-resource.vscode-cdn.net';

function directives(csp: string): Record<string, string> {
  return Object.fromEntries(csp.split('; ').map((d) => [d.slice(0, d.indexOf(' ')), d.slice(d.indexOf(' ') + 1)]));
}

const REFUSED = ['default-src', 'connect-src', 'frame-src', 'worker-src', 'form-action', 'base-uri'];

describe('pageCsp', () => {
  it('a page with a bundle runs only its nonce’d scripts and loads styles from its resource root; everything else is refused', () => {
    const d = directives(pageCsp({ nonce: 'n1', cspSource: ROOT, scripts: true, styles: 'root' }));
    assert.equal(d['script-src'], "'nonce-n1'");
    assert.equal(d['style-src'], ROOT);
    assert.equal(d['img-src'], "'none'");
    assert.equal(d['font-src'], undefined, 'falls back to default-src');
    assert.equal(d['media-src'], undefined);
    for (const name of REFUSED) assert.equal(d[name], "'none'", name);
  });

  it('a page without scripts refuses every script and allows only its own style element', () => {
    const d = directives(pageCsp({ nonce: 'n2', cspSource: ROOT, scripts: false, styles: 'nonce', media: ['https://cdn.example'] }));
    assert.equal(d['script-src'], undefined, 'falls back to default-src');
    assert.equal(d['style-src'], "'nonce-n2'");
    assert.equal(d['media-src'], 'https://cdn.example');
    for (const name of REFUSED) assert.equal(d[name], "'none'", name);
  });

  it('the chat page adds the codicon font and its media sources, and drops an origin that would widen them', () => {
    const d = directives(chatCsp({ nonce: 'n3', cspSource: ROOT, mediaOrigins: ['http://127.0.0.1:8080', 'https://*.example'] }));
    assert.equal(d['font-src'], ROOT);
    assert.equal(d['img-src'], `${ROOT} data: blob: http://127.0.0.1:8080`);
    assert.equal(d['media-src'], d['img-src']);
  });

  it('a page with a worker script may fetch exactly that script and start workers only from blob:', () => {
    const script = `${ROOT}/ext/dist/webview/markdownWorker.js`;
    const d = directives(chatCsp({ nonce: 'n5', cspSource: ROOT, mediaOrigins: [], workers: [script] }));
    assert.equal(d['connect-src'], script);
    assert.equal(d['worker-src'], 'blob:');
    for (const name of ['default-src', 'frame-src', 'form-action', 'base-uri']) assert.equal(d[name], "'none'", name);
    // A URL that would end the source list or add another source is left out, and the worker with it.
    for (const hostile of [`${ROOT}/a.js; script-src *`, `${ROOT}/a.js *`, `${ROOT}/a.js,x`, "'unsafe-eval'", 'blob:']) {
      const refused = directives(pageCsp({ nonce: 'n6', cspSource: ROOT, scripts: true, styles: 'root', workers: [hostile] }));
      assert.equal(refused['connect-src'], "'none'", hostile);
      assert.equal(refused['worker-src'], "'none'", hostile);
      assert.equal(refused['script-src'], "'nonce-n6'", hostile);
    }
  });

  it('pageHtml names each worker script in the body and allows it in the policy', () => {
    const script = `${ROOT}/ext/dist/webview/markdownWorker.js`;
    const html = pageHtml({ title: 't', body: '', data: { 'session-id': 's' } }, { nonce: 'n7', cspSource: ROOT, styles: 'root', scripts: [`${ROOT}/chat.js`], workers: { markdown: script, bad: `${ROOT}/x.js; script-src *` } });
    assert.ok(html.includes(`<body data-session-id="s" data-worker-markdown="${script}">`));
    assert.match(html, /connect-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/dist\/webview\/markdownWorker\.js; frame-src &#39;none&#39;; worker-src blob:/);
    assert.ok(!html.includes('x.js'));
  });

  it('pageHtml serves the content under the policy, with the bundle’s scripts carrying the nonce', () => {
    const html = pageHtml({ title: 't', body: '<main></main>', images: [ROOT] }, { nonce: 'n4', cspSource: ROOT, styles: 'root', scripts: [`${ROOT}/usage.js`], stylesheets: [`${ROOT}/usage.css`] });
    assert.match(html, /content="default-src &#39;none&#39;; script-src &#39;nonce-n4&#39;; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net; img-src https/);
    assert.ok(html.includes(`<script nonce="n4" src="${ROOT}/usage.js"></script>`));
    assert.ok(html.includes(`<link rel="stylesheet" href="${ROOT}/usage.css">`));
  });
});
