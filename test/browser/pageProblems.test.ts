// The browser stage's own detector (test/browser/harness.ts): an uncaught exception or a CSP violation in a page
// is seen, so the test during which it happens fails. Here they are caused on purpose and claimed.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchChromium, servePage, takePageProblems, type PageProblem } from './harness';

describe('browser harness: page problems fail the test', function () {
  this.timeout(20_000);
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  it('sees an uncaught exception and a CSP violation in a page', async () => {
    const served = await servePage({ csp: "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'" });
    const page = await browser.newPage();
    try {
      await page.goto(served.url);
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('deliberate failure in the page');
        });
        const script = document.createElement('script');
        script.src = 'https://loop.invalid/blocked.js';
        document.head.append(script);
      });
      const seen: PageProblem[] = [];
      for (let i = 0; i < 100 && seen.length < 2; i++) {
        seen.push(...takePageProblems());
        if (seen.length < 2) await page.waitForTimeout(50);
      }
      assert.deepEqual(seen.map((p) => p.kind).sort(), ['CSP violation', 'uncaught exception'], JSON.stringify(seen));
      assert.match(seen.find((p) => p.kind === 'uncaught exception')!.text, /deliberate failure in the page/);
      assert.match(seen.find((p) => p.kind === 'CSP violation')!.text, /script-src.*loop\.invalid/);
    } finally {
      await page.close();
      await served.close();
    }
  });
});
