// The hostile-reply corpus (test/browser/hostilePayloads.ts) streamed through the real chat panel in the workbench,
// as one reply (the simulator echoes it): nothing in it runs, loads, navigates or trips the panel's CSP. Its links
// point at the gateway itself, the one origin the panel may load media from. Then a check that the webview
// detector behind every e2e step (harness/webviewProblems.ts) does see an exception and a violation.
import * as assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { PAYLOADS } from '../browser/hostilePayloads';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';
import { takeWebviewProblems, type WebviewProblem } from './harness/webviewProblems';

/** Elements a reply's Markdown must never produce, whatever the model sends. */
const FORBIDDEN = /^(SCRIPT|IFRAME|FRAME|OBJECT|EMBED|FORM|INPUT|STYLE|LINK|META|BASE|SVG|MATH|IMG|IMAGE|VIDEO|AUDIO|SOURCE|DETAILS)$/;

describe('e2e 3b: hostile replies in the real chat panel', function () {
  this.timeout(5 * WAIT_MS);
  const e = useE2E('hostile', ['chat']);

  it('streams the hostile corpus as one reply: nothing runs, loads, navigates or breaks the CSP', async () => {
    await e.chat.showTab();
    const loop = `${e.s.sim.origin}/hit`;
    const corpus = PAYLOADS.map((payload) => payload.replaceAll('LOOP', loop)).join('\n\n');
    const requests: string[] = [];
    const onRequest = (request: Request) => {
      if (request.url().includes('/hit') || request.url().includes('evil')) requests.push(request.url());
    };
    e.wb.page.context().on('request', onRequest);
    try {
      const logBefore = e.s.sim.log.length;
      const before = await (await e.chat.assistantTurns()).count();
      const composer = await e.chat.composer();
      await composer.fill(`[echo] ${corpus}`);
      await composer.press('Enter');
      const reply = await e.chat.waitForReplyCount(before + 1);
      await e.chat.waitForFinished(reply, 3 * WAIT_MS);
      const frame = await e.chat.frame();
      const frameUrl = frame.url();
      const rendered = await reply.evaluate((turn, forbidden) => {
        const problems: string[] = [];
        const pattern = new RegExp(forbidden);
        for (const element of Array.from(turn.querySelectorAll('.content *'))) {
          if (pattern.test(element.tagName.toUpperCase())) problems.push(`<${element.tagName}>`);
          for (const attribute of Array.from(element.attributes)) {
            if (attribute.name.startsWith('on')) problems.push(`${attribute.name} on <${element.tagName}>`);
            if ((attribute.name === 'href' || attribute.name === 'data-href' || attribute.name === 'src') && !/^https?:\/\//.test(attribute.value)) problems.push(`${attribute.name}=${attribute.value}`);
          }
        }
        return { problems, text: (turn.querySelector('.content') as HTMLElement | null)?.textContent ?? '' };
      }, FORBIDDEN.source);
      assert.deepEqual(rendered.problems, [], 'the reply has no active element or attribute');
      assert.ok(rendered.text.includes('window.__pwned'), 'the payloads are shown as text');
      // Anything the payloads scheduled (a load, a timer, a focus) has had its chance once the panel drew a frame.
      await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 300))));
      assert.equal(await frame.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'no payload ran in the panel');
      assert.equal(await e.wb.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined, 'no payload ran in the workbench');
      assert.equal(frame.url(), frameUrl, 'the panel did not navigate');
      assert.deepEqual(requests, [], 'no request left for a payload URL');
      assert.deepEqual(e.s.sim.log.slice(logBefore).filter((entry) => entry.path.startsWith('/hit')).map((entry) => entry.path), [], 'the gateway saw no payload request');
      assert.deepEqual(takeWebviewProblems(), [], 'no exception and no CSP violation in the webview');
    } finally {
      e.wb.page.context().off('request', onRequest);
    }
  });

  it('the webview detector sees an exception and a CSP violation in the chat panel', async () => {
    const frame = await e.chat.frame();
    await frame.evaluate(() => {
      setTimeout(() => {
        throw new Error('deliberate failure in the chat panel');
      });
      const script = document.createElement('script');
      script.src = 'https://loop.invalid/blocked.js';
      document.head.append(script);
    });
    const seen: WebviewProblem[] = [];
    await until(() => {
      seen.push(...takeWebviewProblems());
      return seen.some((p) => p.kind === 'uncaught exception') && seen.some((p) => p.kind === 'CSP violation');
    }, 'the detector to report both', WAIT_MS);
    assert.match(seen.find((p) => p.kind === 'uncaught exception')!.text, /deliberate failure in the chat panel/);
    assert.match(seen.find((p) => p.kind === 'CSP violation')!.text, /script-src.*loop\.invalid/);
  });
});
