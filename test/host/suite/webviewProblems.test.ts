// The host stage's webview detector (scripts/webviewProblems.mjs, driven by scripts/vscode-host.mjs): a webview
// that throws and breaks its CSP is reported, so the test during which it happens fails. Here a webview of the
// test's own does both on purpose, and the test claims what was reported.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { until } from '../helpers';
import { takeWebviewProblems, webviewsWatched, type WebviewProblem } from '../webviewProblems';

describe('webview problems fail the running test', function () {
  this.timeout(60_000);

  it('reports an uncaught exception and a CSP violation in a webview', async function () {
    if (!webviewsWatched) this.skip(); // @vscode/test-electron has no driver watching
    takeWebviewProblems();
    const panel = vscode.window.createWebviewPanel('modelGatewayTest.problems', 'Deliberate problems', vscode.ViewColumn.One, { enableScripts: true });
    try {
      const nonce = 'deliberate0nonce';
      panel.webview.html = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'"></head><body>
<script nonce="${nonce}">
const image = document.createElement('img');
image.src = 'https://loop.invalid/blocked.png';
document.body.append(image);
setTimeout(() => { throw new Error('deliberate failure in a webview'); });
</script></body></html>`;
      const seen: WebviewProblem[] = [];
      await until(() => {
        seen.push(...takeWebviewProblems());
        return seen.some((p) => p.kind === 'uncaught exception') && seen.some((p) => p.kind === 'CSP violation');
      }, 'the driver to report both problems', 45_000, 100);
      assert.match(seen.find((p) => p.kind === 'uncaught exception')!.text, /deliberate failure in a webview/);
      assert.match(seen.find((p) => p.kind === 'CSP violation')!.text, /img-src.*loop\.invalid/);
    } finally {
      panel.dispose();
    }
  });
});
