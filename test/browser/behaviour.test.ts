import assert from 'node:assert/strict';
import { loadCorpus } from './harness';
import { useSuitePage } from './suitePage';

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
    clock() {
      // Frames 1/60 s apart on a clock the test moves: what the time-based pacing of updates is tested with.
      const frame = 1000 / 60;
      const state = { time: 0, due: undefined as { at: number; callback: () => void } | undefined };
      const scheduler = {
        now: () => state.time,
        requestFrame(callback: () => void) {
          state.due = { at: state.time + frame, callback };
          return () => (state.due = undefined);
        },
        requestFrameAfter(delayMs: number, callback: () => void) {
          state.due = { at: state.time + delayMs + frame / 2, callback }; // the frame after the timer, on average
          return () => (state.due = undefined);
        },
      };
      return {
        state,
        scheduler,
        runDue() {
          const due = state.due!;
          state.due = undefined;
          state.time = due.at;
          due.callback();
          return due.at;
        },
      };
    },
    host() {
      return document.body.appendChild(document.createElement('div'));
    },
    oneShotHtml(text: string) {
      const host = document.body.appendChild(document.createElement('div'));
      const md = new MD.StreamingMarkdown(host, { scheduler: (w.T as Helpers).scheduler() });
      md.append(text);
      md.end();
      return host.innerHTML;
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
  /** A frame scheduler on a clock the test moves; runDue() runs the requested frame at its time and returns that. */
  clock(): {
    state: { time: number; due: { at: number; callback: () => void } | undefined };
    scheduler: { now(): number; requestFrame(callback: () => void): () => void; requestFrameAfter(delayMs: number, callback: () => void): () => void };
    runDue(): number;
  };
  host(): HTMLDivElement;
  /** The DOM of append(text) + end(): what any chunking must end with. */
  oneShotHtml(text: string): string;
}
type MD = typeof import('./markdownTestEntry');
declare const T: Helpers;

/** Finished blocks (and the open tail) sit in runs: `<div class="md-run">` (see blockRuns.ts). */
const inRun = (html: string) => `<div class="md-run">${html}</div>`;
declare const MD: MD;

describe('StreamingMarkdown behaviour in Chromium', function () {
  this.timeout(30_000);
  const suite = useSuitePage((page) => page.evaluate(installPageHelpers));

  it('batches appends into one frame and applies end() synchronously', async () => {
    const result = await suite.page.evaluate(() => {
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
    assert.equal(result.afterFrame, inRun('<h1>Title</h1>\n<p>first paragraph</p>\n'));
    assert.equal(result.final, inRun('<h1>Title</h1>\n<p>first paragraph and more</p>\n'));
    assert.equal(result.cancels, 1, 'end() cancels the frame it no longer needs');
    assert.equal(result.pending, false);
  });

  it('calls onRendered after each update that changed the DOM, and in end()', async () => {
    const result = await suite.page.evaluate(() => {
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
    assert.deepEqual(result.seen, [inRun('<p>Hello</p>\n'), inRun('<p>Hello world</p>\n<p>Next</p>\n'), inRun('<p>Hello world</p>\n<p>Next</p>\n')]);
  });

  it('updates every 30 ms (the frame nearest to it), waiting on a timer instead of requesting frames it would not use', async () => {
    const result = await suite.page.evaluate(() => {
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

  it('renders a backlog in the very next frames, and waits the update interval only to re-render the open tail', async () => {
    const result = await suite.page.evaluate(() => {
      let time = 0;
      const calls: string[] = [];
      let pending: (() => void) | undefined;
      const scheduler = {
        now: () => (time += 1), // every clock read takes 1 ms: the 3 ms frame budget fits a block or two
        requestFrame(callback: () => void) {
          calls.push('next frame');
          pending = callback;
          return () => (pending = undefined);
        },
        requestFrameAfter(delayMs: number, callback: () => void) {
          calls.push('after interval');
          pending = callback;
          return () => (pending = undefined);
        },
      };
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.\n\n`).join('') + 'Open tail');
      let frames = 0;
      while (pending && !host.textContent?.includes('Open tail')) {
        time += 17;
        const callback = pending;
        pending = undefined;
        callback();
        frames++;
      }
      md.append(' grows');
      return { calls, frames, blocks: host.querySelectorAll('.md-run > p').length };
    });
    assert.ok(result.frames > 3, `the backlog took ${result.frames} frames`);
    assert.deepEqual(result.calls.slice(0, result.frames), Array(result.frames).fill('next frame'), 'each frame that was behind asked for the next one');
    assert.equal(result.calls[result.frames], 'after interval', 'caught up: the next update waits for the interval');
    assert.equal(result.blocks, 41);
  });

  it('spaces updates out when they are expensive (at most maxUpdateShare of the time), up to maxUpdateIntervalMs', async () => {
    const result = await suite.page.evaluate(() => {
      const clock = T.clock();
      let costOfUpdate = 0;
      // onRendered is where the panel scrolls, making the browser lay out: that time counts as the update's cost.
      const md = new MD.StreamingMarkdown(T.host(), { scheduler: clock.scheduler, onRendered: () => (clock.state.time += costOfUpdate) });
      const starts: number[] = [];
      const stream = (cost: number, updates: number) => {
        costOfUpdate = cost;
        starts.length = 0;
        for (let i = 0; i < updates && clock.state.due; i++) {
          starts.push(clock.runDue());
          md.append(`word${i} `); // text keeps coming
        }
        return starts.slice(1).map((start, i) => Math.round(start - starts[i]));
      };
      md.append('first ');
      return { cheap: stream(1, 12), expensive: stream(12, 30), cheapAgain: stream(0.5, 30) };
    });
    const near = (actual: number, expected: number) => Math.abs(actual - expected) <= 1;
    // Cheap updates (1 ms: 2% of 50 ms, under 2.5%) keep the 50 ms interval.
    assert.ok(result.cheap.slice(1).every((interval) => near(interval, 50)), JSON.stringify(result.cheap));
    // 12 ms updates would need 480 ms for a 2.5% share: the interval grows and stops at 250 ms.
    const expensive = result.expensive;
    assert.ok(expensive.every((interval, i) => i === 0 || interval >= expensive[i - 1]), `growing: ${JSON.stringify(expensive)}`);
    assert.ok(near(expensive[expensive.length - 1], 250), JSON.stringify(expensive));
    // Cheap again: back to 50 ms.
    assert.ok(near(result.cheapAgain[result.cheapAgain.length - 1], 50), JSON.stringify(result.cheapAgain));
  });

  it("counts the browser's rendering of an update as its cost when the scheduler can tell when a frame is done", async () => {
    const result = await suite.page.evaluate(() => {
      const clock = T.clock();
      const rendered: Array<() => void> = [];
      const scheduler = { ...clock.scheduler, afterRendering: (callback: () => void) => rendered.push(callback) };
      const md = new MD.StreamingMarkdown(T.host(), { scheduler });
      const starts: number[] = [];
      md.append('first ');
      for (let i = 0; i < 30 && clock.state.due; i++) {
        starts.push(clock.runDue()); // the update itself takes no time here...
        clock.state.time += 8; // ...but the browser's style, layout and paint of it take 8 ms
        for (const done of rendered.splice(0)) done();
        md.append(`word${i} `);
      }
      return starts.slice(1).map((start, i) => Math.round(start - starts[i]));
    });
    // 8 ms per update is 2.5% of 320 ms: spaced out up to the 250 ms cap, where the update's own time (0) would not.
    assert.ok(Math.abs(result[result.length - 1] - 250) <= 1, JSON.stringify(result));
  });

  it('groups finished blocks into runs of RUN_SIZE, with the open tail in the last run', async () => {
    const result = await suite.page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      const tailIsLast: boolean[] = [];
      for (let i = 0; i < 2 * MD.RUN_SIZE + 12; i++) {
        md.append(`Paragraph ${i} is`);
        scheduler.runFrame();
        tailIsLast.push(host.lastElementChild?.lastElementChild?.textContent === `Paragraph ${i} is`);
        md.append(' written out.\n\n');
        scheduler.runFrame();
      }
      md.end();
      const runs = Array.from(host.children);
      return {
        tailIsLast,
        allRuns: runs.every((run) => run.tagName === 'DIV' && run.className === 'md-run'),
        sizes: runs.map((run) => run.childElementCount),
        runSize: MD.RUN_SIZE,
      };
    });
    assert.ok(result.tailIsLast.every(Boolean), 'the open tail is the last block of the last run');
    assert.ok(result.allRuns);
    const expected: number[] = [];
    for (let left = 2 * result.runSize + 12; left > 0; left -= result.runSize) expected.push(Math.min(result.runSize, left));
    assert.deepEqual(result.sizes, expected);
  });

  it('moves the rest of the open tail to a new run when a finished block fills the last one', async () => {
    const result = await suite.page.evaluate(() => {
      const paragraphs = Array.from({ length: MD.RUN_SIZE - 1 }, (_, i) => `Paragraph ${i}.\n\n`).join('');
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(paragraphs + '- a\n- b\n\nPar'); // the list is not final yet: the tail shows it and "Par"
      scheduler.runFrame();
      const before = Array.from(host.children, (run) => run.childElementCount);
      const openParagraph = host.lastElementChild!.lastElementChild!;
      md.append('a done\n\nNext'); // the list becomes final and fills the run; "Para done" follows it
      scheduler.runFrame();
      const after = Array.from(host.children, (run) => Array.from(run.children, (block) => block.textContent));
      const kept = openParagraph.isConnected && openParagraph.parentElement === host.lastElementChild;
      md.end();
      return { before, after: after.map((run) => run.length), secondRun: after[1], kept, same: host.innerHTML === T.oneShotHtml(md.text), runSize: MD.RUN_SIZE };
    });
    const size = result.runSize;
    assert.deepEqual(result.before, [size + 1], `${size - 1} paragraphs, then the open list and paragraph`);
    assert.deepEqual(result.after, [size, 2]);
    assert.deepEqual(result.secondRun, ['Para done', 'Next']);
    assert.ok(result.kept, 'the open paragraph moved with its nodes');
    assert.ok(result.same, 'final DOM equals the one-shot DOM');
  });

  it('keeps a heading that starts a run as far below the paragraph above it as a heading inside a run', async () => {
    const gaps = await suite.page.evaluate(async () => {
      const host = document.body.insertBefore(document.createElement('div'), document.body.firstChild);
      host.className = 'markdown-body';
      // Block RUN_SIZE (the first of the second run) and block 3 (inside the first run) are headings after paragraphs.
      const blocks = Array.from({ length: MD.RUN_SIZE + 4 }, (_, i) => (i === 3 || i === MD.RUN_SIZE ? `## Heading ${i}` : `Paragraph ${i}.`));
      const md = new MD.StreamingMarkdown(host, { scheduler: T.scheduler() });
      md.append(blocks.join('\n\n') + '\n');
      md.end();
      // On screen, so that the finished run (content-visibility: auto) is laid out rather than given its estimate.
      window.scrollTo(0, 0);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const gapAbove = (text: string) => {
        const heading = Array.from(host.querySelectorAll('h2')).find((h) => h.textContent === text)!;
        const above = heading.previousElementSibling ?? heading.parentElement!.previousElementSibling!.lastElementChild!;
        return heading.getBoundingClientRect().top - above.getBoundingClientRect().bottom;
      };
      const result = { inside: gapAbove('Heading 3'), atRunStart: gapAbove(`Heading ${MD.RUN_SIZE}`), runs: host.children.length };
      host.remove();
      return result;
    });
    assert.equal(gaps.runs, 2);
    assert.ok(gaps.inside > 10, `a heading's own top margin shows: ${gaps.inside}px`);
    assert.ok(Math.abs(gaps.atRunStart - gaps.inside) <= 1, `gap above a heading starting a run ${gaps.atRunStart}px, inside a run ${gaps.inside}px`);
  });

  it('drops a run made for an open tail that came to nothing (a link definition renders no block)', async () => {
    const result = await suite.page.evaluate(() => {
      const scheduler = T.scheduler();
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(Array.from({ length: MD.RUN_SIZE }, (_, i) => `Paragraph ${i}.\n\n`).join('') + '[a');
      scheduler.runFrame();
      const whileParagraph = host.children.length;
      md.append(']: https://example.com/a');
      scheduler.runFrame();
      return { whileParagraph, whileDefinition: host.children.length };
    });
    assert.equal(result.whileParagraph, 2, 'a full run, and a new one for the open "[a" paragraph');
    assert.equal(result.whileDefinition, 1);
  });

  it('parses only the open tail: the largest text parsed per frame does not grow with the reply', async () => {
    const result = await suite.page.evaluate(() => {
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
        const firstBlocks: Array<{ node: Node; parent: Node | null }> = [];
        for (let i = 0; i < text.length; i += 5) {
          md.append(text.slice(i, i + 5));
          scheduler.runFrame();
          const blocks = host.querySelectorAll('.md-run > *');
          if (firstBlocks.length === 0 && blocks.length > 4) firstBlocks.push(...Array.from(blocks, (node) => ({ node, parent: node.parentNode })).slice(0, 2));
        }
        md.end();
        const kept = firstBlocks.length === 2 && firstBlocks.every(({ node, parent }) => node.parentNode === parent && host.contains(node));
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
    const result = await suite.page.evaluate((text) => {
      const whole = text + '\n\nTrailing paragraph';
      // Every clock read advances 4 ms: past the default 8 ms budget after a block or two.
      const backlogFrames = (frameBudgetMs?: number) => {
        const scheduler = T.scheduler(4);
        const md = new MD.StreamingMarkdown(T.host(), { scheduler, frameBudgetMs });
        md.append(whole);
        let frames = 0;
        while (scheduler.runFrame()) frames++;
        md.end();
        return frames;
      };
      const scheduler = T.scheduler(4);
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(whole);
      const childCounts: number[] = [];
      let frames = 0;
      while (scheduler.runFrame()) {
        frames++;
        childCounts.push(host.querySelectorAll('.md-run > *').length);
      }
      const tailShown = host.lastElementChild?.lastElementChild?.textContent;
      md.end();
      return { frames, framesAt3Ms: backlogFrames(3), childCounts, tailShown, same: host.innerHTML === T.oneShotHtml(whole) };
    }, text);
    assert.ok(result.frames > 5, `rendered over ${result.frames} frames`);
    // Each frame that changes the DOM pays style, layout and paint once, so the default takes fewer, fuller frames.
    assert.ok(result.frames < result.framesAt3Ms, `${result.frames} frames by default, ${result.framesAt3Ms} with a 3 ms budget`);
    for (let i = 1; i < result.childCounts.length; i++) assert.ok(result.childCounts[i] >= result.childCounts[i - 1]);
    assert.equal(result.tailShown, 'Trailing paragraph', 'the open tail is shown once the backlog is rendered');
    assert.ok(result.same, 'final DOM equals the one-shot DOM');
  });

  it('finish() renders the rest over frames within the budget, then resolves with the DOM end() gives', async () => {
    // Ends in a list and an unfinished line: two blocks that only the end of the text makes final.
    const text = loadCorpus().find((doc) => doc.name.startsWith('02'))!.text + '\n\n- a\n- b\n\nLast words';
    const result = await suite.page.evaluate(async (text) => {
      const expected = T.oneShotHtml(text);
      const scheduler = T.scheduler(4); // every clock read advances 4 ms: past the 3 ms budget after the first block
      const host = T.host();
      const md = new MD.StreamingMarkdown(host, { scheduler });
      md.append(text);
      let resolved = false;
      const finished = md.finish().then(() => (resolved = true));
      let appendAfterFinish = '';
      try {
        md.append('more');
      } catch (error) {
        appendAfterFinish = String(error);
      }
      let frames = 0;
      let resolvedEarly = false;
      while (scheduler.runFrame()) {
        frames++;
        await Promise.resolve();
        if (scheduler.state.pending) resolvedEarly ||= resolved;
      }
      await finished;
      // end() and flush() after finish(): nothing left to do; dispose() settles a finish() that is still running.
      md.end();
      md.flush();
      const abandoned = new MD.StreamingMarkdown(T.host(), { scheduler: T.scheduler() });
      abandoned.append(text);
      const settled = abandoned.finish();
      abandoned.dispose();
      await settled;
      // end() while finish() is under way completes at once.
      const hurried = T.host();
      const hurriedMd = new MD.StreamingMarkdown(hurried, { scheduler: T.scheduler(4) });
      hurriedMd.append(text);
      void hurriedMd.finish();
      hurriedMd.end();
      return {
        frames,
        resolvedEarly,
        appendAfterFinish,
        same: host.innerHTML === expected,
        hurriedSame: hurried.innerHTML === expected,
      };
    }, text);
    assert.ok(result.frames > 5, `finished over ${result.frames} frames`);
    assert.equal(result.resolvedEarly, false, 'resolves only once the DOM is final');
    assert.match(result.appendAfterFinish, /append\(\) after end\(\), finish\(\)/);
    assert.ok(result.same, 'final DOM equals the one-shot DOM');
    assert.ok(result.hurriedSame, 'end() during finish() completes the DOM');
  });

  it('announces each completed block once, in order, as plain text without the code toolbar', async () => {
    const announced = await suite.page.evaluate(() => {
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
    const result = await suite.page.evaluate(() => {
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
      ['apply', 'button', 'Apply (review the change first)'],
    ]);
    assert.ok(result.tsSpans >= 1);
    assert.equal(result.plainSpans, 0);
    assert.deepEqual(result.actions[0], ['copy', 'const a: number = 1; // <b>\n', 'ts']);
    assert.deepEqual(result.actions[6], ['new-file', 'plain <i>\n', 'nosuchlang']);
    assert.deepEqual(result.actions[7], ['apply', 'plain <i>\n', 'nosuchlang']);
  });

  it('grows an open code block in place: earlier lines keep their nodes, the partial line is plain text', async () => {
    const result = await suite.page.evaluate(() => {
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

  it('grows the open paragraph, list item or table cell in place: the same text node, and the DOM a fresh render gives', async () => {
    const result = await suite.page.evaluate(() => {
      const cases = [
        { start: 'Intro.\n\nSome **bold** text and', words: [' more', ' words', ' & <b>', ' "quoted"', ' here'] },
        { start: '- first\n- second item', words: [' grows', ' longer', ' & longer'] },
        { start: '| a | b |\n|---|---|\n| 1 | two', words: [' three', ' four'] },
      ];
      return cases.map(({ start, words }) => {
        const scheduler = T.scheduler();
        const host = T.host();
        const md = new MD.StreamingMarkdown(host, { scheduler });
        md.append(start);
        scheduler.runFrame();
        const lastText = () => {
          const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
          let last: Node | null = null;
          for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent!.trim() !== '') last = node;
          return last;
        };
        const node = lastText();
        let text = start;
        const steps: Array<{ sameNode: boolean; sameDom: boolean }> = [];
        for (const word of words) {
          md.append(word);
          text += word;
          scheduler.runFrame();
          steps.push({ sameNode: lastText() === node && node!.isConnected, sameDom: host.innerHTML === T.oneShotHtml(text) });
        }
        return steps;
      });
    });
    for (const steps of result) {
      assert.ok(steps.every((step) => step.sameNode), `edited in place: ${JSON.stringify(steps)}`);
      assert.ok(steps.every((step) => step.sameDom), `same DOM as a fresh render: ${JSON.stringify(steps)}`);
    }
  });

  it('renders http(s) links as <a> with data-href, other targets inert, images as links; clicks never navigate', async () => {
    const url = suite.page.url();
    const result = await suite.page.evaluate(() => {
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
        anchors: anchors.map((a) => [a.textContent, a.getAttribute('data-href'), a.getAttribute('href'), a.tabIndex, a.getAttribute('role')]),
        inert: Array.from(host.querySelectorAll('span.md-link-inert')).map((s) => [s.textContent, s.getAttribute('title')]),
        images: host.querySelectorAll('img').length,
        activated,
      };
    });
    await suite.page.waitForTimeout(50);
    assert.equal(suite.page.url(), url, 'no navigation');
    // No live href (VS Code's webview shell would open the link a second time); focusable and announced as links.
    assert.deepEqual(result.anchors, [
      ['web', 'https://example.com/a', null, 0, 'link'],
      ['https://example.com/auto', 'https://example.com/auto', null, 0, 'link'],
      ['https://example.com/bare', 'https://example.com/bare', null, 0, 'link'],
      ['pic', 'https://example.com/p.png', null, 0, 'link'],
      ['nested', 'https://example.com/outer', null, 0, 'link'],
    ]);
    assert.deepEqual(result.inert, [
      ['rel', './file.ts'],
      ['mail', 'mailto:a@b.c'],
      ['local', null],
      ['nested', null],
    ]);
    assert.equal(result.images, 0);
    assert.deepEqual(result.activated, result.anchors.map((a) => a[1]));
    assert.deepEqual(suite.served.strayRequests, []);
  });

  it('never shows half a surrogate pair or a doubled line break from a split \\r\\n', async () => {
    const result = await suite.page.evaluate(() => {
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
    assert.equal(result.final, inRun('<p>Smile 😀 ok</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n'));
    assert.equal(result.text, 'Smile 😀 ok\r\n- a\r\n- b');
  });

  it('stops scheduling after dispose() and rejects appends after end()', async () => {
    const result = await suite.page.evaluate(() => {
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
    const offending = await suite.page.evaluate((texts) => {
      const tags = new Set(['A', 'BLOCKQUOTE', 'BR', 'BUTTON', 'CODE', 'DIV', 'EM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'LI', 'OL', 'P', 'PRE', 'S', 'SPAN', 'STRONG', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL']);
      const attributes = new Set(['title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-href', 'data-lang', 'data-action', 'tabindex', 'role']);
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
