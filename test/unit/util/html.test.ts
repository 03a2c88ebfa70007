import * as assert from 'node:assert/strict';
import { htmlPage } from '../../../src/util/html';

describe('htmlPage', () => {
  it('puts the CSP first in the head, escapes every attribute, and gives styles and scripts the nonce', () => {
    const html = htmlPage({
      title: 'A <b>title</b>',
      csp: "default-src 'none'; script-src 'nonce-n\"1'",
      nonce: 'n"1',
      stylesheets: ['https://file+.vscode-resource/x.css?a=1&b="2"'],
      style: 'body { color: red; }',
      scripts: ['https://file+.vscode-resource/chat.js'],
      data: { 'session-id': '"><script>alert(1)</script>' },
      body: '<div id="app"></div>',
    });
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    assert.match(head, /^<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-n&quot;1&#39;">/);
    assert.ok(head.includes('<title>A &lt;b&gt;title&lt;/b&gt;</title>'));
    assert.ok(head.includes('<link rel="stylesheet" href="https://file+.vscode-resource/x.css?a=1&amp;b=&quot;2&quot;">'));
    assert.ok(head.includes('<style nonce="n&quot;1">body { color: red; }</style>'));
    assert.ok(html.includes('<body data-session-id="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">'));
    assert.ok(html.includes('<div id="app"></div>\n<script nonce="n&quot;1" src="https://file+.vscode-resource/chat.js"></script>\n</body>'));
    assert.equal(html.match(/<script/g)?.length, 1, 'no script but the one asked for');
  });

  it('makes a script-free page with no style element when none is given', () => {
    const html = htmlPage({ title: 't', csp: "default-src 'none'", nonce: 'n', body: '<p>x</p>' });
    assert.ok(!html.includes('<script'));
    assert.ok(!html.includes('<style'));
    assert.ok(html.includes('<body>\n<p>x</p>\n</body>'));
  });
});
