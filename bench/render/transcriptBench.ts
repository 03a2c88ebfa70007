// The long-transcript scenario of bench:render (Node side): a 500-turn chat (~2 MB of markdown) opened in the chat
// webview's ChatApp, lazily (the panel's way) and with every reply rendered before the first frame (the one-shot
// baseline), each in a fresh page; then scrolled to the top.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { chatBundle } from '../../test/browser/chatBundle';
import { chatCss, REPO_ROOT, servePage } from '../../test/browser/harness';
import { generateTranscript } from './corpus';
import { summarise, traceEvents, type MainThreadTasks } from './mainThreadTrace';
import { LAST_SCREEN_MARK, loadTranscript, OPEN_MARK, runTranscript, SCROLLED_MARK, type TranscriptInput, type TranscriptResult } from './transcriptScenario';

const LAST_SCREEN_TARGET_MS = 150;
const TURNS = 500;
const CHARS = 2_000_000;
/** A fast drag of the scrollbar: two thirds of a viewport per frame. */
const SCROLL_STEP_PX = 600;

interface Run {
  result: TranscriptResult;
  /** Main-thread tasks from the message to the end of the first frame after it. */
  open: MainThreadTasks;
  /** From there to the end of the scroll. */
  afterOpen: MainThreadTasks;
}

interface Variant {
  label: string;
  input: TranscriptInput;
}

const VARIANTS: Variant[] = [
  { label: 'one-shot (all replies, then the first frame)', input: { history: 'at once', scrollStepPx: SCROLL_STEP_PX, scrollWhileRendering: false } },
  { label: 'lazy, scrolled once all rendered', input: { history: 'lazily', scrollStepPx: SCROLL_STEP_PX, scrollWhileRendering: false } },
  { label: 'lazy, scrolled at once', input: { history: 'lazily', scrollStepPx: SCROLL_STEP_PX, scrollWhileRendering: true } },
];

function median<T>(values: T[], key: (value: T) => number): T {
  return [...values].sort((a, b) => key(a) - key(b))[Math.floor(values.length / 2)];
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** What is left of the lazy view's DOM once all is rendered, without its lazy-rendering marks (for comparing). */
function withoutLazyMarks(html: string): string {
  return html.replace(/ md-lazy"/g, '"').replace(/ style="contain-intrinsic-size: auto [\d.]+px;"/g, '');
}

export async function transcriptBench(browser: Browser, runs: number): Promise<object> {
  const turns = generateTranscript(TURNS, CHARS);
  const chars = turns.reduce((sum, turn) => sum + turn.content.length, 0);
  const served = await servePage({ body: '', script: chatBundle, styles: chatCss() });
  const results = new Map<Variant, Run[]>(VARIANTS.map((variant) => [variant, []]));
  try {
    for (let i = 0; i < runs; i++) {
      for (const variant of VARIANTS) {
        const context = await browser.newContext({ viewport: { width: 600, height: 900 } });
        try {
          const page = await context.newPage();
          await page.goto(served.url);
          await page.evaluate(loadTranscript, turns);
          const cdp = await context.newCDPSession(page);
          await cdp.send('HeapProfiler.collectGarbage');
          const { value: result, events } = await traceEvents(page, cdp, () => page.evaluate(runTranscript, variant.input));
          const run = { result, open: summarise(events, OPEN_MARK, LAST_SCREEN_MARK), afterOpen: summarise(events, LAST_SCREEN_MARK, SCROLLED_MARK) };
          results.get(variant)!.push(run);
          console.log(
            `  done: transcript, ${variant.label}: last screen ${fmt(result.lastScreenMs)} ms (${fmt(run.open.cpuMs)} ms CPU), all rendered ${fmt(result.allRenderedMs)} ms, ` +
              `after open: longest task ${fmt(run.afterOpen.longestTaskMs)} ms (${fmt(run.afterOpen.longestTaskCpuMs)} ms CPU)`,
          );
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await served.close();
  }

  const rows = VARIANTS.map((variant) => {
    const run = median(results.get(variant)!, (r) => r.open.cpuMs);
    return { variant, ...run };
  });
  const baseline = rows[0].result;
  const baselineCpu = rows[0].open.cpuMs;
  console.log('');
  console.log(`long transcript: ${TURNS} turns, ${(chars / 1e6).toFixed(2)} MB of markdown, 600x900 panel; median of ${runs} traced runs by CPU to the last screen`);
  const header = ['how the chat opens', 'last screen ms', 'CPU ms', 'x one-shot CPU', 'complete', 'receive ms', 'all rendered ms', 'scroll frames', 'longest scroll frame', 'long tasks (longest)', 'after open', 'after open >=50 ms CPU (longest)', 'longest non-GC task', 'unrendered', 'same DOM'];
  const table = rows.map(({ variant, result, open, afterOpen }) => [
    variant.label,
    fmt(result.lastScreenMs),
    fmt(open.cpuMs),
    fmt(open.cpuMs / baselineCpu, 2),
    result.lastScreenComplete ? 'yes' : 'NO',
    fmt(result.receiveMs),
    fmt(result.allRenderedMs),
    String(result.scrollFrames),
    fmt(result.longestScrollFrameMs),
    `${result.longTasks} (${fmt(result.longestLongTaskMs)})`,
    `${result.longTasksAfterOpen} (${fmt(result.longestLongTaskAfterOpenMs)})`,
    `${afterOpen.tasksOver50MsCpu} (${fmt(afterOpen.longestTaskCpuMs)})`,
    fmt(afterOpen.longestNonGcTaskMs),
    String(result.unrendered),
    withoutLazyMarks(result.html) === baseline.html ? 'yes' : 'DIFFERS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  for (const { variant, result } of rows.slice(1)) {
    if (withoutLazyMarks(result.html) === baseline.html) continue;
    const file = join(REPO_ROOT, '.bench', `transcript-${variant.input.history}-${variant.input.scrollWhileRendering ? 'scrolled' : 'waited'}.html`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, withoutLazyMarks(result.html));
    writeFileSync(join(dirname(file), 'transcript-one-shot.html'), baseline.html);
    console.log(`DOM differs from one-shot: see ${file}`);
  }
  const lazy = rows[1];
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(
    `lazy: last screen in ${fmt(lazy.result.lastScreenMs)} ms, ${fmt(lazy.open.cpuMs)} ms CPU (target < ${LAST_SCREEN_TARGET_MS} ms: ${met(lazy.result.lastScreenMs < LAST_SCREEN_TARGET_MS && lazy.result.lastScreenComplete)} in wall time, ` +
      `${met(lazy.open.cpuMs < LAST_SCREEN_TARGET_MS)} in CPU), ${fmt(baselineCpu / lazy.open.cpuMs, 1)}x less CPU than one-shot; long tasks after the last screen ` +
      `(rendering the rest, scrolling at once): ${rows[2].result.longTasksAfterOpen} by the page's clock, ${rows[2].afterOpen.tasksOver50MsCpu} of 50 ms CPU (target 0)`,
  );
  console.log('"last screen": from the init message to the end of the first frame after it (wall clock in the page; "CPU": main-thread CPU from a trace of');
  console.log('the same run, which a busy machine does not inflate); "complete": every reply on screen rendered, at the bottom.');
  console.log('"long tasks": tasks of 50 ms or more from the message to the end of the scroll (PerformanceObserver); "after open": those after the last screen;');
  console.log('">=50 ms CPU" and "longest non-GC task" (wall) come from the trace: a task that was mostly garbage collection is left out of the latter.');
  console.log(`the scroll goes from the bottom to the top ${SCROLL_STEP_PX} px per frame. "same DOM": the transcript once all is rendered equals the one-shot's.`);
  return Object.fromEntries(rows.map(({ variant, result, open, afterOpen }) => [variant.label, { ...result, html: undefined, open, afterOpen }]));
}
