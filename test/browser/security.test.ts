import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, seededRandom, servePage, type ServedPage } from './harness';
import { PAYLOADS } from './hostilePayloads';

const ALLOWED_TAGS = ['A', 'BLOCKQUOTE', 'BR', 'BUTTON', 'CODE', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'LI', 'OL', 'P', 'PRE', 'S', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL'];

interface StreamJob {
  payloads: string[];
  chunkings: Array<{ seed: number; max: number }>;
  allowedTags: string[];
}

/** In the page: streams every payload whole and in random pieces (a frame after each piece), then clicks everything. */
function streamPayloads(job: StreamJob): { problems: string[]; blocks: number } {
  type MD = typeof import('./markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const problems: string[] = [];
  let blocks = 0;
  const random = (window as unknown as { seededRandom: (seed: number) => () => number }).seededRandom;
  const hosts: HTMLElement[] = [];
  for (const payload of job.payloads) {
    for (const chunking of [{ seed: 0, max: payload.length }, ...job.chunkings]) {
      const host = document.body.appendChild(document.createElement('div'));
      hosts.push(host);
      const streaming = new md.StreamingMarkdown(host);
      const next = random(chunking.seed);
      for (let i = 0; i < payload.length; ) {
        const size = 1 + Math.floor(next() * chunking.max);
        streaming.append(payload.slice(i, i + size));
        streaming.flush();
        i += size;
      }
      streaming.end();
      for (const element of Array.from(host.querySelectorAll('*'))) {
        if (!job.allowedTags.includes(element.tagName)) problems.push(`<${element.tagName}> from ${JSON.stringify(payload)}`);
        for (const attribute of Array.from(element.attributes)) {
          if (attribute.name.startsWith('on') || attribute.name === 'style' || attribute.name === 'src') problems.push(`${attribute.name} from ${JSON.stringify(payload)}`);
          if ((attribute.name === 'href' || attribute.name === 'data-href') && !/^https?:\/\//.test(attribute.value)) problems.push(`${attribute.name}=${attribute.value}`);
        }
      }
      blocks += host.childElementCount;
    }
  }
  for (const host of hosts) for (const clickable of Array.from(host.querySelectorAll<HTMLElement>('a, button, span'))) clickable.click();
  return { problems, blocks };
}

describe('StreamingMarkdown security in Chromium (hostile model output)', function () {
  this.timeout(40_000);
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  async function openPage(csp: string | undefined): Promise<{ page: Page; served: ServedPage; requests: string[]; violations: () => Promise<string[]> }> {
    const served = await servePage({ csp });
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = violations;
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    await page.goto(served.url);
    return { page, served, requests, violations: () => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations) };
  }

  async function runPayloads(page: Page, served: ServedPage): Promise<void> {
    const loop = served.url.replace(/\/$/, '') + '/hit';
    const random = seededRandom(42);
    const chunkings = Array.from({ length: 4 }, (_, i) => ({ seed: Math.floor(random() * 1e9), max: [1, 3, 8, 20][i] }));
    const result = await page.evaluate(streamPayloads, {
      payloads: PAYLOADS.map((payload) => payload.replaceAll('LOOP', loop)),
      chunkings,
      allowedTags: ALLOWED_TAGS,
    });
    assert.deepEqual(result.problems, []);
    assert.ok(result.blocks >= PAYLOADS.length * 5, 'every payload rendered something');
    await page.waitForTimeout(300); // let anything that was scheduled (loads, timers, focus) happen
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
    assert.equal(pwned, undefined, 'no payload script ran');
    assert.deepEqual(served.strayRequests, [], 'no request reached the loopback server');
  }

  it('nothing executes, loads or navigates under the webview CSP, and nothing violates it', async () => {
    const csp = "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src data:; font-src 'none'; connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";
    const { page, served, requests, violations } = await openPage(csp);
    try {
      await runPayloads(page, served);
      assert.deepEqual(await violations(), [], 'the rendered DOM triggers no CSP violation');
      assert.deepEqual(requests.filter((url) => !/\/(md\.js)?$/.test(url) && !url.endsWith('/favicon.ico')), []);
      assert.equal(new URL(page.url()).pathname, '/');
    } finally {
      await page.close();
      await served.close();
    }
  });

  it('nothing executes, loads or navigates without any CSP either', async () => {
    const { page, served, requests } = await openPage(undefined);
    try {
      // Positive control: the same page does fetch and run things injected raw, so the detectors below can fail.
      await page.evaluate((loop) => {
        const probe = document.body.appendChild(document.createElement('div'));
        probe.innerHTML = `<img src="${loop}/control" onerror="window.__control = 1">`;
      }, served.url + 'hit');
      await page.waitForFunction(() => (window as unknown as { __control?: number }).__control === 1);
      assert.deepEqual(served.strayRequests, ['GET /hit/control']);
      served.strayRequests.length = 0;
      requests.length = 0;

      await runPayloads(page, served);
      assert.deepEqual(requests.filter((url) => !url.endsWith('/favicon.ico')), []);
      assert.equal(new URL(page.url()).pathname, '/');
    } finally {
      await page.close();
      await served.close();
    }
  });
});
