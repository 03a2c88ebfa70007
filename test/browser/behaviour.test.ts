import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, loadCorpus, servePage, type ServedPage } from './harness';

// Page-side helpers are installed once (see before()) as window.T so each test's page function stays short.
function installPageHelpers(): void {
  const w = window as unknown as Record<string, unknown>;
  w.T = {
    scheduler(clockStep = 0) {
      let time = 0;
      const state = { requests: 0, cancels: 0, pending: undefined as (() => void) | undefined };
      return {
        state,
        requestFrame(callback: () => void) {
          state.requests++;
          state.pending = callback;
          return () => {
            state.cancels++;
            state.pending = undefined;
          };
        },
        now: () => (time += clockStep),
        runFrame() {
          time += 1000; // frames are far apart unless a test says otherwise (updates are rate-limited)
          const callback = state.pending;
          state.pending = undefined;
          callback?.();
          return callback !== undefined;
        },
      };
    },
    host() {
      return document.body.appendChild(document.createElement('div'));
    },
  };
}

interface Helpers {
  scheduler(clockStep?: number): {
    state: { requests: number; cancels: number; pending: (() => void) | undefined };
    requestFrame(callback: () => void): () => void;
    now(): number;
    runFrame(): boolean;
  };
  host(): HTMLDivElement;
}
type MD = typeof import('../../src/webview/markdown/index');
declare const T: Helpers;
declare const MD: MD;

describe('StreamingMarkdown behaviour in Chromium', function () {
  this.timeout(30_000);
  let browser: Browser;
  let served: ServedPage;
  let page: Page;

  before(async () => {
    [browser, served] = await Promise.all([launchChromium(), servePage()]);
    page = await browser.newPage();
    await page.goto(served.url);
    await page.evaluate(installPageHelpers);
  });

  after(async () => {
    await browser?.close();
    await served?.close();
  });

  it('batches appends into one frame and applies end() synchronously', async () => {
    const result = await page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append('# Title\n\nfirst ');
      md.append('paragraph');
      const beforeFrame = host.innerHTML;
      const requestsBeforeFrame = scheduler.state.requests;
      scheduler.runFrame();
      const afterFrame = host.innerHTML;
      md.append(' and more');
      md.end();
      return { beforeFrame, requestsBeforeFrame, afterFrame, final: host.innerHTML, ...scheduler.state, pending: !!scheduler.state.pending };
    });
    assert.equal(result.beforeFrame, '');
    assert.equal(result.requestsBeforeFrame, 1);
    assert.equal(result.afterFrame, '<h1>Title</h1>\n<p>first paragraph</p>\n');
    assert.equal(result.final, '<h1>Title</h1>\n<p>first paragraph and more</p>\n');
    assert.equal(result.cancels, 1, 'end() cancels the frame it no longer needs');
    assert.equal(result.pending, false);
  });

  it('calls onRendered after each update that changed the DOM, and in end()', async () => {
    const result = await page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const seen: string[] = [];
      const md = new MD.StreamingMarkdown(host, { scheduler, onRendered: () => seen.push(host.innerHTML) });
      md.append('Hello');
      scheduler.runFrame();
      md.append(' world\n\nNext');
      scheduler.runFrame();
      md.end();
      return { seen };
    });
    assert.deepEqual(result.seen, ['<p>Hello</p>\n', '<p>Hello world</p>\n<p>Next</p>\n', '<p>Hello world</p>\n<p>Next</p>\n']);
  });

  it('updates every 30 ms (the frame nearest to it), waiting on a timer instead of requesting frames it would not use', async () => {
    const result = await page.evaluate(() => {
      let time = 0;
      const calls: string[] = [];
      let pending: (() => void) | undefined;
      const scheduler = {
        now: () => time,
        requestFrame(callback: () => void) {
          calls.push(`frame@${time}`);
          pending = callback;
          return () => (pending = undefined);
        },
        requestFrameAfter(delayMs: number, callback: () => void) {
          calls.push(`after ${Math.round(delayMs)}ms@${time}`);
          pending = callback;
          return () => (pending = undefined);
        },
      };
      const run = (at: number) => {
        time = at;
        const callback = pending;
        pending = undefined;
        callback?.();
      };
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler, minUpdateIntervalMs: 30 });
      md.append('one');
      run(16); // first update: immediate
      const afterFirst = host.textContent;
      md.append(' two'); // right after the update: wait 30 ms less half a frame on a timer, then take a frame
      time = 20;
      md.append(' three');
      run(30); // a frame only 14 ms after the update (nearer the update than the end of the interval): wait again
      const tooEarly = host.textContent;
      run(40); // 24 ms after: this frame is nearer the end of the interval than the next one would be
      const afterSecond = host.textContent;
      time = 100; // long after the last update: a frame right away
      md.append(' four');
      return { calls, afterFirst, tooEarly, afterSecond };
    });
    assert.deepEqual(result.calls, ['frame@0', 'after 22ms@16', 'after 8ms@30', 'frame@100']);
    assert.equal(result.afterFirst, 'one\n');
    assert.equal(result.tooEarly, 'one\n');
    assert.equal(result.afterSecond, 'one two three\n');
  });

  it('parses only the open tail: the largest text parsed per frame does not grow with the reply', async () => {
    const result = await page.evaluate(() => {
      const block = (n: number) => {
        const i = String(n).padStart(4, '0');
        return (
        `## Section ${i}\n\nSome prose with a [link](https://example.com/${i}) and \`code\`.\n\n- item one\n- item two\n\n\`\`\`ts\nconst value${i} = ${i};\n\`\`\`\n\n`
        );
      };
      const measure = (sections: number) => {
        const renderer = new MD.MarkdownRenderer();
        let largest = 0;
        let total = 0;
        const parse = renderer.parse.bind(renderer);
        renderer.parse = (text, references, streaming) => {
          largest = Math.max(largest, text.length);
          total += text.length;
          return parse(text, references, streaming);
        };
        const scheduler = T.scheduler();
        const host = T.host();
        const md = new MD.StreamingMarkdown(host, { scheduler, renderer });
        const text = Array.from({ length: sections }, (_, i) => block(i)).join('');
        const firstBlocks: Node[] = [];
        for (let i = 0; i < text.length; i += 5) {
          md.append(text.slice(i, i + 5));
          scheduler.runFrame();
          if (firstBlocks.length === 0 && host.childNodes.length > 4) firstBlocks.push(...Array.from(host.childNodes).slice(0, 2));
        }
        md.end();
        const kept = firstBlocks.every((node) => node.parentNode === host);
        host.remove();
        return { largest, perChar: total / text.length, kept, length: text.length };
      };
      return { small: measure(20), large: measure(200) };
    });
    assert.ok(result.large.length > 9 * result.small.length);
    assert.equal(result.large.largest, result.small.largest, 'the largest parse depends on block size only');
    assert.ok(result.large.perChar <= result.small.perChar * 1.05, `parsed chars per char: ${result.small.perChar} vs ${result.large.perChar}`);
    assert.ok(result.small.kept && result.large.kept, 'committed block nodes stay in place');
  });

  it('spreads a backlog over several frames when the frame budget runs out', async () => {
    const text = loadCorpus().find((doc) => doc.name.startsWith('02'))!.text;
    const result = await page.evaluate((text) => {
      const expectedHost = T.host();
      const oneShot = new MD.StreamingMarkdown(expectedHost, { scheduler: T.scheduler() });
      oneShot.append(text);
      oneShot.end();
      const scheduler = T.scheduler(4); // every clock read advances 4 ms: the 6 ms budget allows one or two blocks
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(text + '\n\nTrailing paragraph');
      const childCounts: number[] = [];
      let frames = 0;
      while (scheduler.runFrame()) {
        frames++;
        childCounts.push(host.childElementCount);
      }
      const tailShown = host.lastElementChild?.textContent;
      md.end();
      const final = host.innerHTML;
      const expectedWithTail = expectedHost.innerHTML + '<p>Trailing paragraph</p>\n';
      return { frames, childCounts, tailShown, same: final === expectedWithTail };
    }, text);
    assert.ok(result.frames > 5, `rendered over ${result.frames} frames`);
    for (let i = 1; i < result.childCounts.length; i++) assert.ok(result.childCounts[i] >= result.childCounts[i - 1]);
    assert.equal(result.tailShown, 'Trailing paragraph', 'the open tail is shown once the backlog is rendered');
    assert.ok(result.same, 'final DOM equals the one-shot DOM');
  });

  it('announces each completed block once, in order, as plain text without the code toolbar', async () => {
    const announced = await page.evaluate(() => {
      const texts: string[] = [];
      const scheduler = T.scheduler();
      const md = new MD.StreamingMarkdown(T.host(), { scheduler, onBlockCompleted: (text) => texts.push(text) });
      const source = '# Hello\n\nA *para*graph.\n\n```js\nlet x = 1;\n```\n\n- one\n- two\n\nLast words';
      for (const ch of source) {
        md.append(ch);
        scheduler.runFrame();
      }
      md.end();
      return texts;
    });
    assert.deepEqual(announced, ['Hello', 'A paragraph.', 'let x = 1;', 'one\ntwo', 'Last words']);
  });

  it('renders fenced code with a toolbar and highlight spans, and reports toolbar actions with the code', async () => {
    const result = await page.evaluate(() => {
      const actions: string[][] = [];
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, {
        scheduler: T.scheduler(),
        onCodeAction: (action, code, lang) => actions.push([action, code, lang]),
      });
      md.append('```ts\nconst a: number = 1; // <b>\n```\n\n```nosuchlang\nplain <i>\n```\n');
      md.end();
      const blocks = Array.from(host.querySelectorAll('.code-block'));
      for (const button of Array.from(host.querySelectorAll<HTMLButtonElement>('button[data-action]'))) button.click();
      return {
        langs: blocks.map((b) => b.getAttribute('data-lang')),
        buttons: Array.from(blocks[0].querySelectorAll('button')).map((b) => [b.getAttribute('data-action'), b.getAttribute('type'), b.getAttribute('aria-label')]),
        tsSpans: blocks[0].querySelectorAll('code span.hljs-keyword').length,
        plainSpans: blocks[1].querySelectorAll('code span').length,
        actions,
      };
    });
    assert.deepEqual(result.langs, ['ts', 'nosuchlang']);
    assert.deepEqual(result.buttons, [
      ['copy', 'button', 'Copy'],
      ['insert', 'button', 'Insert at Cursor'],
      ['new-file', 'button', 'Open in New File'],
    ]);
    assert.ok(result.tsSpans >= 1);
    assert.equal(result.plainSpans, 0);
    assert.deepEqual(result.actions[0], ['copy', 'const a: number = 1; // <b>\n', 'ts']);
    assert.deepEqual(result.actions[5], ['new-file', 'plain <i>\n', 'nosuchlang']);
  });

  it('grows an open code block in place: earlier lines keep their nodes, the partial line is plain text', async () => {
    const result = await page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append('```python\ndef f():\n    return 1\n');
      scheduler.runFrame();
      const code = host.querySelector('code')!;
      const firstSpan = code.querySelector('span');
      md.append('print("unfinished');
      scheduler.runFrame();
      const partial = code.lastChild?.nodeType === Node.TEXT_NODE ? code.lastChild.textContent : null;
      md.append('")\n```\n');
      scheduler.runFrame();
      md.end();
      return {
        sameCode: host.querySelector('code') === code,
        sameSpan: firstSpan !== null && firstSpan.isConnected,
        partial,
        finalStrings: code.querySelectorAll('span.hljs-string').length,
      };
    });
    assert.ok(result.sameCode, 'the <code> element is kept');
    assert.ok(result.sameSpan, 'earlier highlighted lines are kept');
    assert.equal(result.partial, 'print("unfinished');
    assert.ok(result.finalStrings >= 1, 'the completed line is highlighted');
  });

  it('renders http(s) links as <a> with data-href, other targets inert, images as links; clicks never navigate', async () => {
    const url = page.url();
    const result = await page.evaluate(() => {
      const activated: string[] = [];
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler: T.scheduler(), onLinkActivated: (href) => activated.push(href) });
      md.append(
        '[web](https://example.com/a) [rel](./file.ts) [mail](mailto:a@b.c) <https://example.com/auto> ' +
          'https://example.com/bare ![pic](https://example.com/p.png) ![local](data:image/png;base64,AAAA) ' +
          '[![nested](https://example.com/n.png)](https://example.com/outer)',
      );
      md.end();
      const anchors = Array.from(host.querySelectorAll('a'));
      for (const anchor of anchors) anchor.click();
      return {
        anchors: anchors.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('data-href')]),
        inert: Array.from(host.querySelectorAll('span.md-link-inert')).map((s) => [s.textContent, s.getAttribute('title')]),
        images: host.querySelectorAll('img').length,
        activated,
      };
    });
    await page.waitForTimeout(50);
    assert.equal(page.url(), url, 'no navigation');
    assert.deepEqual(result.anchors, [
      ['web', 'https://example.com/a', 'https://example.com/a'],
      ['https://example.com/auto', 'https://example.com/auto', 'https://example.com/auto'],
      ['https://example.com/bare', 'https://example.com/bare', 'https://example.com/bare'],
      ['pic', 'https://example.com/p.png', 'https://example.com/p.png'],
      ['nested', 'https://example.com/outer', 'https://example.com/outer'],
    ]);
    assert.deepEqual(result.inert, [
      ['rel', './file.ts'],
      ['mail', 'mailto:a@b.c'],
      ['local', null],
      ['nested', null],
    ]);
    assert.equal(result.images, 0);
    assert.deepEqual(result.activated, result.anchors.map((a) => a[1]));
    assert.deepEqual(served.strayRequests, []);
  });

  it('never shows half a surrogate pair or a doubled line break from a split \\r\\n', async () => {
    const result = await page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append('Smile \uD83D');
      scheduler.runFrame();
      const midPair = host.textContent;
      md.append('\uDE00 ok\r');
      scheduler.runFrame();
      md.append('\n- a\r');
      md.append('\n- b');
      md.end();
      return { midPair, final: host.innerHTML, text: md.text };
    });
    assert.equal(result.midPair, 'Smile\n');
    assert.equal(result.final, '<p>Smile 😀 ok</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n');
    assert.equal(result.text, 'Smile 😀 ok\r\n- a\r\n- b');
  });

  it('stops scheduling after dispose() and rejects appends after end()', async () => {
    const result = await page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append('hello');
      md.dispose();
      const ran = scheduler.runFrame();
      const other = new MD.StreamingMarkdown(T.host(), { scheduler: T.scheduler() });
      other.end();
      let threw = false;
      try {
        other.append('late');
      } catch {
        threw = true;
      }
      return { ran, html: host.innerHTML, threw };
    });
    assert.equal(result.ran, false);
    assert.equal(result.html, '');
    assert.ok(result.threw);
  });

  it('emits only allow-listed tags, attributes and classes for the whole corpus', async () => {
    const offending = await page.evaluate((texts) => {
      const tags = new Set(['A', 'BLOCKQUOTE', 'BR', 'BUTTON', 'CODE', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'LI', 'OL', 'P', 'PRE', 'S', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL']);
      const attributes = new Set(['href', 'title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-href', 'data-lang', 'data-action']);
      const found: string[] = [];
      for (const text of texts) {
        const host = T.host();
        const md = new MD.StreamingMarkdown(host, { scheduler: T.scheduler() });
        md.append(text);
        md.end();
        for (const element of Array.from(host.querySelectorAll('*'))) {
          if (!tags.has(element.tagName)) found.push(element.tagName);
          for (const attribute of Array.from(element.attributes)) if (!attributes.has(attribute.name)) found.push(`${element.tagName}[${attribute.name}]`);
          const href = element.getAttribute('href');
          if (href !== null && !/^https?:\/\//.test(href)) found.push(`href=${href}`);
        }
        host.remove();
      }
      return found;
    }, loadCorpus().map((doc) => doc.text));
    assert.deepEqual(offending, []);
  });
});
