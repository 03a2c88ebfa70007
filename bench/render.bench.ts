// Streaming markdown render bench, in headless Chromium: a ~200 KB assistant reply with 30 code blocks streamed in
// seeded 2–8 character deltas, rendered by StreamingMarkdown and by a naive renderer (whole text re-rendered every
// frame), each compared with a one-shot render of the final text measured in the same run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, REPO_ROOT, servePage } from '../test/browser/harness';
import { freshPage } from './render/benchPage';
import { breakdownBench } from './render/breakdownRun';
import { generateReply, splitIntoDeltas } from './render/corpus';
import { splitBench } from './render/splitRun';
import { traceMainThread, type MainThreadTasks } from './render/mainThreadTrace';
import { runOneShot, runScenario, STREAM_START_MARK, type ScenarioInput, type ScenarioResult } from './render/pageScenario';
import { transcriptBench } from './render/transcriptBench';
import { recordResults, type BenchFigure } from './lib/results';

const FRAME_TARGET_MS = 16;
const RATIO_TARGET = 2;
/** Issue 12: at full speed a stream may cost at most 1.3× a one-shot render. */
const MAX_SPEED_RATIO_TARGET = 1.3;
const ARRIVAL_RATE = 20_000; // chars/s: ~5k tokens/s, far above real models, so frames carry hundreds of chars
const MAX_SPEED = 'max speed';

/** `--quick`: one run of StreamingMarkdown per feed, no naive or tuning rows (for trying a change; not for docs/benchmarks.md). */
const QUICK = process.argv.includes('--quick');
/** Streaming runs per row; the row shows the run with the median render time (this machine is shared and noisy). */
const RUNS = Number(process.env.BENCH_RUNS ?? (QUICK ? 1 : 3));
/** `--only stream|pace|transcript|breakdown|split`: one part of the bench (for trying a change; breakdown and split run only with --only). */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const wanted = (part: 'stream' | 'pace' | 'transcript' | 'breakdown' | 'split') => (part === 'breakdown' || part === 'split' ? ONLY === part : ONLY === undefined || ONLY === part);

/** Realistic paces (125 and 500 tokens/s): the share of the main thread that rendering takes, late in the reply. */
const PACES = [500, 2_000];
const PACE_SECONDS = 10;
const SHARE_TARGET = 0.03;

interface Variant {
  label: string;
  renderer: 'streaming' | 'naive' | 'reveal';
  tuning?: ScenarioInput['tuning'];
  revealEveryMs?: number;
  revealBuilds?: boolean;
  worker?: boolean;
}
/** As the chat panel streams: parsing, rendering and highlighting in the markdown worker. */
const DEFAULT_VARIANT: Variant = { label: 'StreamingMarkdown', renderer: 'streaming', worker: true };
/** The same renderer without a worker (end() and a panel whose worker did not start render this way). */
const ON_PAGE_VARIANT: Variant = { label: 'StreamingMarkdown, no worker', renderer: 'streaming' };
const RATE_ONLY_VARIANTS: Variant[] = [
  { label: 'naive re-render', renderer: 'naive' },
  // A smaller frame budget (3 ms of block rendering a frame), measured beside the default in the same run: it shows what
  // fewer, fuller frames save.
  { label: 'StreamingMarkdown 3 ms', renderer: 'streaming', worker: true, tuning: { frameBudgetMs: 3 } },
];
/**
 * The display floor: the final DOM built beforehand, each update only moving the arrived blocks into view and following
 * the bottom, at StreamingMarkdown's shortest and longest update intervals. What any renderer that shows the text as it
 * arrives pays the browser (style, layout, scrolling) before it parses or sanitises anything.
 */
const TRIED = process.env.BENCH_TRY ? (JSON.parse(process.env.BENCH_TRY) as Variant[]) : undefined;
const FLOOR_VARIANTS: Variant[] = [
  { label: 'display floor 50 ms', renderer: 'reveal', revealEveryMs: 50 },
  { label: 'display floor 250 ms', renderer: 'reveal', revealEveryMs: 250 },
];
/**
 * The worker floor: as the display floor at 50 ms, but each block is built from its final HTML (nodeBuilder) when it
 * comes into view. What the main thread would still pay if a Web Worker parsed, rendered and highlighted everything for
 * free and sent finished blocks: the bound on any worker design at this update pace.
 */
const WORKER_FLOOR: Variant = { label: 'worker floor 50 ms', renderer: 'reveal', revealEveryMs: 50, revealBuilds: true };

interface Row {
  renderer: string;
  feed: string;
  result: ScenarioResult;
  main: MainThreadTasks;
}

/** A measurement in a fresh page (benchPage.ts), traced or not. */
async function inFreshPage<T>(browser: Browser, url: string, deltas: string[], run: (page: Page) => Promise<T>, traced: boolean, startMark?: string): Promise<{ value: T; main?: MainThreadTasks }> {
  const { page, cdp, close } = await freshPage(browser, url, deltas);
  try {
    return traced ? await traceMainThread(page, cdp, () => run(page), startMark) : { value: await run(page) };
  } finally {
    await close();
  }
}

/**
 * The same measurement twice, each in a fresh page: untraced for the times taken in the page, traced for main-thread
 * CPU and tasks (tracing costs the streaming runs, with their thousands of tasks, some 10-15%, and one-shot nothing).
 */
async function measure<T>(browser: Browser, url: string, deltas: string[], run: (page: Page) => Promise<T>, startMark?: string): Promise<{ value: T; main: MainThreadTasks }> {
  const { value } = await inFreshPage(browser, url, deltas, run, false);
  const { main } = await inFreshPage(browser, url, deltas, run, true, startMark);
  return { value, main: main! };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The 200 KB reply streamed at 20k chars/s and at full speed, beside its one-shot render. */
async function streamBench(browser: Browser, url: string, text: string, deltas: string[]): Promise<object> {
  console.log(`corpus: ${text.length} chars, ${(text.match(/^```\w/gm) ?? []).length} fenced code blocks, ${deltas.length} deltas of 2-8 chars`);
  const oneShot: Record<'streaming' | 'naive', Array<{ ms: number; cpuMs: number }>> = { streaming: [], naive: [] };
  let oneShotHtml = '';
  for (let i = 0; i < 3; i++) {
    for (const renderer of ['streaming', 'naive'] as const) {
      const { value, main } = await measure(browser, url, deltas, (page) => page.evaluate(runOneShot, { renderer }));
      oneShot[renderer].push({ ms: value.ms, cpuMs: main.cpuMs });
      if (renderer === 'streaming') oneShotHtml = value.html;
    }
  }
  const oneShotMs = median(oneShot.streaming.map((run) => run.ms));
  const oneShotCpuMs = median(oneShot.streaming.map((run) => run.cpuMs));
  const naiveOneShotMs = median(oneShot.naive.map((run) => run.ms));

  const rows: Row[] = [];
  const feeds: Array<[string, number | null]> = [
    [`${ARRIVAL_RATE / 1000}k chars/s`, ARRIVAL_RATE],
    [MAX_SPEED, null],
  ];
  const feedCpuMs = new Map<string, number>();
  for (const [feed, charsPerSecond] of feeds) {
    const idleInput: ScenarioInput = { renderer: 'none', charsPerSecond };
    // Traced from the stream's start: the display floor builds its DOM before it, unmeasured.
    const idle = (await inFreshPage(browser, url, deltas, (page) => page.evaluate(runScenario, idleInput), true, STREAM_START_MARK)).main!;
    feedCpuMs.set(feed, idle.cpuMs);
    // The naive renderer at max speed takes minutes (every frame re-renders up to 200 KB): measured at the fixed rate
    // only; the 3 ms frame budget at both.
    // BENCH_TRY='[{"label": …, "renderer": "streaming", "tuning": {…}}]': only these beside the default (trying a change).
    const variants = TRIED
      ? [DEFAULT_VARIANT, ...TRIED]
      : [DEFAULT_VARIANT, ON_PAGE_VARIANT, ...(QUICK ? [] : RATE_ONLY_VARIANTS.filter((variant) => charsPerSecond !== null || variant.renderer !== 'naive')), ...FLOOR_VARIANTS, WORKER_FLOOR];
    // Runs interleaved, so that a busy spell of the machine does not land on one renderer's runs only.
    const runs = new Map<Variant, Array<{ result: ScenarioResult; main: MainThreadTasks }>>(variants.map((variant) => [variant, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const variant of variants) {
        const input: ScenarioInput = { renderer: variant.renderer, charsPerSecond, tuning: variant.tuning, revealEveryMs: variant.revealEveryMs, revealBuilds: variant.revealBuilds, worker: variant.worker };
        const { value: result, main } = await measure(browser, url, deltas, (page) => page.evaluate(runScenario, input), STREAM_START_MARK);
        runs.get(variant)!.push({ result, main: { ...main, cpuMs: main.cpuMs - idle.cpuMs } });
        const same = result.html === oneShotHtml ? 'same DOM as one-shot' : 'DOM DIFFERS from one-shot';
        const split = `append ${fmt(result.appendMs)} ms, frames ${fmt(result.frameScriptMs)} ms script + ${fmt(result.framesMs - result.frameScriptMs)} ms style/layout, end ${fmt(result.endMs)} ms`;
        console.log(`  done: ${variant.label} @ ${feed} in ${fmt(result.wallMs / 1000)} s wall; ${split} (${same})`);
      }
    }
    for (const variant of variants) {
      const variantRuns = runs.get(variant)!;
      const byRenderTime = [...variantRuns].sort((a, b) => a.result.renderMs - b.result.renderMs);
      const byCpu = [...variantRuns].sort((a, b) => a.main.cpuMs - b.main.cpuMs);
      const middle = Math.floor(variantRuns.length / 2);
      rows.push({ renderer: variant.label, feed, result: byRenderTime[middle].result, main: byCpu[middle].main });
    }
  }

  console.log('');
  console.log(`one-shot render of the final text (append(all) + end()), median of 3: ${fmt(oneShotMs)} ms in the page (incl. layout), ${fmt(oneShotCpuMs)} ms main-thread CPU (incl. paint)`);
  console.log(`naive one-shot (markdown-it + DOMPurify + replaceChildren), median of 3: ${fmt(naiveOneShotMs)} ms in the page`);
  console.log('');
  const header = ['renderer', 'feed', 'render ms', 'x one-shot', 'longest frame', 'p99 frame', 'frames>=16ms', 'CPU ms', 'x one-shot CPU', 'longest task', 'longest non-GC task', 'tasks>=16ms (GC)', 'heap peak MB', 'wall s'];
  const table = rows.map(({ renderer, feed, result, main }) => [
    renderer,
    feed,
    fmt(result.renderMs),
    fmt(result.renderMs / oneShotMs, 2),
    fmt(result.longestFrameMs),
    fmt(result.p99FrameMs),
    `${result.framesOver16Ms}/${result.frames}`,
    ...(feed === MAX_SPEED ? ['n/a', 'n/a'] : [fmt(main.cpuMs), fmt(main.cpuMs / oneShotCpuMs, 2)]),
    fmt(main.longestTaskMs),
    fmt(main.longestNonGcTaskMs),
    `${main.tasksOver16Ms} (${main.gcTasksOver16Ms})/${main.tasks}`,
    `${mb(result.peakHeapBytes)} (+${mb(result.peakHeapBytes - result.baseHeapBytes)})`,
    fmt(result.wallMs / 1000),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log('');
  for (const [feed] of feeds) {
    const ours = rows.find((row) => row.feed === feed && row.renderer === DEFAULT_VARIANT.label)!;
    const cpuRatio = feed === MAX_SPEED ? '' : `, ${fmt(ours.main.cpuMs / oneShotCpuMs, 2)}x in main-thread CPU`;
    const wallRatio = ours.result.renderMs / oneShotMs;
    const longest = ours.main.longestTaskMs;
    console.log(
      `${feed}: streaming / one-shot ${fmt(wallRatio, 2)}x in the page${cpuRatio} (target <= ${feed === MAX_SPEED ? MAX_SPEED_RATIO_TARGET : RATIO_TARGET}x); longest frame ${fmt(ours.result.longestFrameMs)} ms, ` +
        `longest task ${fmt(longest)} ms, longest non-GC task ${fmt(ours.main.longestNonGcTaskMs)} ms (target < ${FRAME_TARGET_MS} ms); ` +
        // Wall time grows when a busy machine deschedules the renderer; CPU time does not.
        `longest task in CPU ${fmt(ours.main.longestTaskCpuMs)} ms, tasks of 50 ms CPU or more: ${ours.main.tasksOver50MsCpu}`,
    );
    const floors = FLOOR_VARIANTS.map((variant) => rows.find((row) => row.feed === feed && row.renderer === variant.label)!);
    if (floors.some((row) => !row)) continue;
    const floorCpu = (row: Row) => (feed === MAX_SPEED ? '' : `, ${fmt(row.main.cpuMs / oneShotCpuMs, 2)}x in CPU`);
    console.log(
      `${' '.repeat(feed.length)}  display floor (final DOM moved into view, no parsing or sanitising): ` +
        floors.map((row, i) => `every ${FLOOR_VARIANTS[i].revealEveryMs} ms ${fmt(row.result.renderMs / oneShotMs, 2)}x one-shot in the page${floorCpu(row)} (${row.result.frames} updates)`).join('; ') +
        `; StreamingMarkdown / floor at 50 ms: ${fmt(wallRatio / (floors[0].result.renderMs / oneShotMs), 2)}x`,
    );
    const onPage = rows.find((row) => row.feed === feed && row.renderer === ON_PAGE_VARIANT.label);
    if (onPage) {
      console.log(`${' '.repeat(feed.length)}  without the worker (parsing on the page): ${fmt(onPage.result.renderMs / oneShotMs, 2)}x one-shot in the page${floorCpu(onPage)}`);
    }
    const workerFloor = rows.find((row) => row.feed === feed && row.renderer === WORKER_FLOOR.label);
    if (workerFloor) {
      console.log(
        `${' '.repeat(feed.length)}  worker floor (the floor at 50 ms, each block built from its final HTML as it comes into view: a worker doing all parsing and rendering for free): ` +
          `${fmt(workerFloor.result.renderMs / oneShotMs, 2)}x one-shot in the page${floorCpu(workerFloor)} (${workerFloor.result.frames} updates)`,
      );
    }
    const naive = rows.find((row) => row.feed === feed && row.renderer === 'naive re-render');
    if (naive) {
      console.log(
        `${' '.repeat(feed.length)}  naive: ${fmt(naive.result.renderMs / oneShotMs, 1)}x one-shot in the page, ${fmt(naive.main.cpuMs / oneShotCpuMs, 1)}x in CPU, longest task ${fmt(naive.main.longestTaskMs)} ms; ` +
          `naive / streaming: CPU ${fmt(naive.main.cpuMs / ours.main.cpuMs, 1)}x, longest task ${fmt(naive.main.longestTaskMs / longest, 1)}x, ` +
          `peak heap growth ${fmt((naive.result.peakHeapBytes - naive.result.baseHeapBytes) / Math.max(1, ours.result.peakHeapBytes - ours.result.baseHeapBytes), 1)}x`,
      );
    }
  }
  console.log('');
  console.log('How the text is fed: deltas arrive in page tasks while requestAnimationFrame runs normally.');
  console.log(`  "${ARRIVAL_RATE / 1000}k chars/s": deltas due by the clock are appended every ~4 ms (setTimeout), about ${Math.round(ARRIVAL_RATE / 60)} chars per frame;`);
  console.log('  "max speed": one delta per task back to back (MessageChannel), so each frame gets whatever piled up.');
  console.log('StreamingMarkdown parses, renders and highlights in the markdown worker, as the chat panel does ("no worker": on the page; the one-shot render is always on the page, as renderMarkdown() is);');
  console.log('it updates the DOM every 50 ms, or up to 250 ms apart when updates (their style, layout and paint included) take more than 2.5% of the main thread');
  console.log('and renders a backlog of finished blocks in consecutive frames, 8 ms of rendering each ("3 ms": a 3 ms budget, for comparison); the naive renderer');
  console.log('re-renders every frame.');
  console.log(`Streaming rows: the run with the median render ms of ${RUNS} (and the traced run with the median CPU ms), runs interleaved; one-shot: median of 3.`);
  console.log('In the page (wall clock): "render ms" sums append(), each animation frame (DOM work plus the style/layout');
  console.log('it forces while following the bottom, as the panel does) and end(); frames are those rAF callbacks.');
  console.log('From a Chrome trace of a second run (thread CPU time, immune to the machine being busy): "CPU ms" sums every main-thread');
  console.log('task of the run (rendering, style, layout, paint) minus the same feed into a no-op sink');
  console.log(`(${[...feedCpuMs].map(([feed, ms]) => `${feed}: ${fmt(ms)} ms`).join(', ')}); at max speed that feed takes the whole CPU for a time`);
  console.log('that varies by a second from run to run, so no CPU figure is given there. "longest task" is the longest main-thread task');
  console.log('(wall); "GC" counts tasks of 16 ms or more that were mostly a V8 garbage collection of the page\'s heap.');
  console.log('Each run is in a fresh page warmed up on another text; heap is performance.memory (precise) during the run.');
  recordStreamFigures(rows, oneShotMs, oneShotCpuMs, text.length, deltas.length);

  return {
    corpusChars: text.length,
    deltas: deltas.length,
    oneShot,
    rows: rows.map(({ renderer, feed, result, main }) => ({ renderer, feed, ...result, html: undefined, main })),
  };
}

/** The stream's rows as bench/results/render.json, which docs/benchmarks.md's table is generated from. */
function recordStreamFigures(rows: Row[], oneShotMs: number, oneShotCpuMs: number, chars: number, deltaCount: number): void {
  const row = (feed: string, renderer: string) => rows.find((r) => r.feed === feed && r.renderer === renderer);
  const ratio = (r: Row) => r.result.renderMs / oneShotMs;
  const paced = `${ARRIVAL_RATE / 1000}k chars/s`;
  const figures: BenchFigure[] = [];
  for (const [feed, target] of [[paced, RATIO_TARGET], [MAX_SPEED, MAX_SPEED_RATIO_TARGET]] as const) {
    const ours = row(feed, DEFAULT_VARIANT.label);
    if (!ours) continue;
    const onPage = row(feed, ON_PAGE_VARIANT.label);
    const floors = FLOOR_VARIANTS.map((variant) => row(feed, variant.label)).filter((r): r is Row => r !== undefined);
    const parts = [`${fmt(ratio(ours), 2)}× in the page (${fmt(ours.result.renderMs)} ms)${feed === MAX_SPEED ? '' : `, ${fmt(ours.main.cpuMs / oneShotCpuMs, 2)}× in CPU`}`];
    if (onPage) parts.push(`without the worker ${fmt(ratio(onPage), 2)}× (${fmt(onPage.result.renderMs)} ms)`);
    // The floor is given at each update pace: one that updates as often as the renderer is the one to compare with.
    if (floors.length > 0) parts.push(`the display floor alone ${floors.map((f) => `${fmt(ratio(f), 2)}× (${f.result.frames} updates)`).join(' to ')}`);
    figures.push({ measure: `200 KB at ${feed === MAX_SPEED ? 'full speed' : paced}, against the one-shot render`, value: parts.join('; '), target: `≤ ${target}×`, met: ratio(ours) <= target });
  }
  const longest = [paced, MAX_SPEED].map((feed) => row(feed, DEFAULT_VARIANT.label)?.main.longestTaskMs);
  if (longest.every((ms) => ms !== undefined)) {
    figures.push({ measure: `longest task, wall clock (${paced} / full speed)`, value: `${longest.map((ms) => fmt(ms!)).join(' / ')} ms`, target: 'no task over 50 ms', met: longest.every((ms) => ms! <= 50) });
  }
  const conditions = `headless Chromium, 600×900 viewport following the bottom; a ${Math.round(chars / 1000)} KB reply in ${deltaCount.toLocaleString('en-US')} deltas of 2–8 characters, streamed through the markdown worker as the chat panel does, against a one-shot render of the final text on the page (${fmt(oneShotMs)} ms) in the same run; ${RUNS} rounds (medians)`;
  recordResults('render', conditions, figures);
}

/**
 * The main-thread share of rendering at realistic paces: the last PACE_SECONDS of the reply streamed at each pace
 * (the text before it rendered first, unmeasured: late in a long reply an update costs most), CPU from a trace that
 * starts with the stream, minus the same feed into a no-op sink, over the stream's wall time.
 */
async function paceBench(browser: Browser, url: string, deltas: string[]): Promise<object> {
  const rows: Array<{ charsPerSecond: number; chars: number; idleCpuMs: number; cpuMs: number; share: number; result: ScenarioResult; main: MainThreadTasks }> = [];
  for (const charsPerSecond of PACES) {
    const streamLastChars = charsPerSecond * PACE_SECONDS;
    const traced = (renderer: ScenarioInput['renderer']) =>
      inFreshPage(browser, url, deltas, (page) => page.evaluate(runScenario, { renderer, charsPerSecond, streamLastChars }), true, STREAM_START_MARK);
    const runs: Array<(typeof rows)[number]> = [];
    for (let i = 0; i < RUNS; i++) {
      // The feed's own cost, measured beside each run (it varies with the machine's load).
      const idle = (await traced('none')).main!;
      const { value: result, main: tracedMain } = await traced('streaming');
      const main = tracedMain!;
      const cpuMs = main.cpuMs - idle.cpuMs;
      runs.push({ charsPerSecond, chars: streamLastChars, idleCpuMs: idle.cpuMs, cpuMs, share: cpuMs / result.wallMs, result, main });
      console.log(`  done: StreamingMarkdown @ ${charsPerSecond} chars/s: ${fmt(cpuMs)} ms CPU over ${fmt(result.wallMs / 1000)} s, ${result.frames} updates`);
    }
    rows.push([...runs].sort((a, b) => a.share - b.share)[Math.floor(runs.length / 2)]);
  }
  console.log('');
  console.log(`realistic paces: the last ${PACE_SECONDS} s of the 200 KB reply, median of ${RUNS} traced runs by share`);
  const header = ['feed', 'streamed chars', 'wall s', 'updates', 'render CPU ms', 'main-thread share', 'target', 'longest task', 'longest frame'];
  const table = rows.map((row) => [
    `${row.charsPerSecond} chars/s`,
    String(row.chars),
    fmt(row.result.wallMs / 1000),
    String(row.result.frames),
    fmt(row.cpuMs),
    `${fmt(row.share * 100, 2)}%`,
    row.share <= SHARE_TARGET ? `<= ${SHARE_TARGET * 100}% met` : `<= ${SHARE_TARGET * 100}% NOT met`,
    fmt(row.main.longestTaskMs),
    fmt(row.result.longestFrameMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log(`"render CPU ms": main-thread CPU of the traced stream (style, layout and paint included) minus the same feed into a no-op sink, run beside it (${rows.map((row) => `${row.charsPerSecond}: ${fmt(row.idleCpuMs)} ms`).join(', ')}).`);
  console.log('');
  return rows.map(({ result, ...row }) => ({ ...row, result: { ...result, html: undefined } }));
}

async function main(): Promise<void> {
  const text = generateReply();
  const deltas = splitIntoDeltas(text);
  const browser = await launchChromium(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
  const served = await servePage();
  const summary: Record<string, object> = {};
  // Wall-clock figures mean little on a machine busy with other work: the load is printed with them.
  const load = () => `${cpus().length} cores, load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`;
  console.log(`machine: ${load()}`);
  try {
    if (wanted('breakdown')) summary.breakdown = await breakdownBench(browser, served.url, deltas);
    if (wanted('split')) summary.split = await splitBench(browser, served.url, deltas, Math.max(RUNS, 5));
    if (wanted('stream')) summary.stream = await streamBench(browser, served.url, text, deltas);
    if (wanted('pace')) summary.paces = await paceBench(browser, served.url, deltas);
    if (wanted('transcript')) summary.transcript = await transcriptBench(browser, RUNS);
    const outDir = join(REPO_ROOT, '.bench');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'render.json'), JSON.stringify(summary, null, 2));
    console.log(`machine at the end: ${load()}`);
  } finally {
    await browser.close();
    await served.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
