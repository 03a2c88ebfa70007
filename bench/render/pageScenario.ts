// Runs inside the bench page (the markdown bundle defines window.MD). Self-contained: Playwright sends its source.

export interface ScenarioInput {
  /**
   * 'none' only feeds the deltas: its CPU cost is the harness's, subtracted from the others. 'reveal' is the display
   * floor: the final DOM is built beforehand (outside the measurement) and each update only moves into view the
   * blocks whose text has arrived, every `revealEveryMs`; no parsing, rendering or sanitising at all.
   */
  renderer: 'streaming' | 'naive' | 'none' | 'reveal';
  /** 'reveal': the time between updates (StreamingMarkdown's are 50–250 ms apart). */
  revealEveryMs?: number;
  /**
   * 'reveal': the blocks are kept as their final HTML and built (nodeBuilder) as they come into view, instead of built
   * beforehand: what the main thread would still pay if a worker did all parsing and rendering for free.
   */
  revealBuilds?: boolean;
  /** Arrival rate of the text; null feeds deltas back to back (one per task) as fast as the page takes them. */
  charsPerSecond: number | null;
  /**
   * Stream only the last this many characters of the reply; the text before them is rendered at once first, outside
   * the measurement (a pace test late in a long reply, where each update's cost is highest).
   */
  streamLastChars?: number;
  /** 'streaming': parse, render and highlight in the markdown worker (MarkdownWorker, as the chat panel does). */
  worker?: boolean;
  /** StreamingMarkdown tuning, to explore trade-offs (defaults otherwise). */
  tuning?: { frameBudgetMs?: number; minUpdateIntervalMs?: number; maxUpdateShare?: number; runSize?: number; maxRegionLength?: number };
}

export interface ScenarioResult {
  /** Main-thread time spent rendering: appends + frames (including the style/layout they cause) + end()/finish(). */
  renderMs: number;
  appendMs: number;
  framesMs: number;
  /** Of framesMs: the frame callbacks themselves (our script and the DOM calls it makes). */
  frameScriptMs: number;
  endMs: number;
  frames: number;
  longestFrameMs: number;
  p99FrameMs: number;
  p95FrameMs: number;
  framesOver16Ms: number;
  /** Tasks of 50 ms or more seen by a PerformanceObserver('longtask') during the run. */
  longTasks: number;
  longestLongTaskMs: number;
  wallMs: number;
  baseHeapBytes: number;
  peakHeapBytes: number;
  html: string;
}

/** Puts the deltas in the page beforehand, so that moving 40,000 strings into it is not part of any measurement. */
export function loadDeltas(deltas: string[]): void {
  const page = window as unknown as { benchDeltas: string[]; benchText: string };
  page.benchDeltas = deltas;
  page.benchText = deltas.join('');
}

/** Marks in the trace where the measured stream starts (after any text rendered beforehand); runScenario spells it out. */
export const STREAM_START_MARK = 'bench:stream-start';

export async function runScenario(input: ScenarioInput): Promise<ScenarioResult> {
  type MD = typeof import('../../test/browser/markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const allDeltas = (window as unknown as { benchDeltas: string[] }).benchDeltas;
  let firstStreamed = allDeltas.length;
  for (let chars = 0; firstStreamed > 0 && chars < (input.streamLastChars ?? Infinity); ) chars += allDeltas[--firstStreamed].length;
  const deltas = allDeltas.slice(firstStreamed);
  const prefix = allDeltas.slice(0, firstStreamed).join('');
  const host = document.body.appendChild(document.createElement('div'));
  host.className = 'markdown-body';
  const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
  const baseHeapBytes = heap();
  let peakHeapBytes = baseHeapBytes;
  const frameTimes: number[] = [];
  let longTasks = 0;
  let longestLongTaskMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      longTasks++;
      longestLongTaskMs = Math.max(longestLongTaskMs, entry.duration);
    }
  });
  observer.observe({ type: 'longtask' });

  // Like the chat panel, keep the newest text in view (this also forces the style and layout the frame caused).
  const followBottom = () => document.scrollingElement!.scrollTo(0, document.scrollingElement!.scrollHeight);
  /** Times a frame's work plus the style and layout it causes (forced here; the browser would do it right after). */
  let frameScriptMs = 0;
  /** Layout forced inside a frame callback (StreamingMarkdown's onRendered follows the bottom, as in the panel). */
  let layoutInCallbackMs = 0;
  const followBottomInCallback = () => {
    const start = performance.now();
    followBottom();
    layoutInCallbackMs += performance.now() - start;
  };
  const timedFrame = (work: () => void) => {
    const start = performance.now();
    const layoutBefore = layoutInCallbackMs;
    work();
    frameScriptMs += performance.now() - start - (layoutInCallbackMs - layoutBefore);
    followBottom();
    frameTimes.push(performance.now() - start);
    peakHeapBytes = Math.max(peakHeapBytes, heap());
  };

  /** end(): the text is complete; StreamingMarkdown finishes in frames (finish(), as the chat panel does). */
  let sink: { append(delta: string): void; end(): Promise<void> | void; prefill(text: string): void };
  const renderer = new md.MarkdownRenderer(); // fresh: no highlight memo carried over from another run
  if (input.renderer === 'streaming') {
    const worker = input.worker ? await md.MarkdownWorker.load('/md-worker.js') : undefined;
    if (input.worker && !worker) throw new Error('the markdown worker did not load');
    const streaming = new md.StreamingMarkdown(host, {
      ...input.tuning,
      renderer,
      worker,
      onRendered: followBottomInCallback,
      scheduler: {
        requestFrame(callback) {
          const id = requestAnimationFrame(() => timedFrame(callback));
          return () => cancelAnimationFrame(id);
        },
        requestFrameAfter(delayMs, callback) {
          let id = 0;
          const timer = setTimeout(() => (id = requestAnimationFrame(() => timedFrame(callback))), delayMs);
          return () => {
            clearTimeout(timer);
            cancelAnimationFrame(id);
          };
        },
        afterRendering: md.animationFrameScheduler.afterRendering,
        now: () => performance.now(),
      },
    });
    sink = {
      append: (delta) => streaming.append(delta),
      end: () => streaming.finish(),
      prefill(text) {
        streaming.append(text);
        streaming.flush();
      },
    };
  } else if (input.renderer === 'reveal') {
    // Built in a detached element: no style or layout is paid for it here.
    const built = document.createElement('div');
    const prebuilt = new md.StreamingMarkdown(built, { renderer });
    prebuilt.append((window as unknown as { benchText: string }).benchText);
    prebuilt.end();
    // Each finished block with its run, in order, and where its text ends as a share of the whole reply's text.
    const blocks: Array<{ node: ChildNode; run: number; endShare: number }> = [];
    const runs = Array.from(built.children);
    const totalText = built.textContent!.length;
    let seen = 0;
    runs.forEach((run, index) => {
      for (const node of Array.from(run.childNodes)) blocks.push({ node, run: index, endShare: (seen += node.textContent!.length) / totalText });
    });
    const allText = (window as unknown as { benchText: string }).benchText.length;
    const build = md.builderFor(document);
    const htmlOf = input.revealBuilds ? blocks.map(({ node }) => (node instanceof Element ? node.outerHTML : (node.textContent ?? ''))) : [];
    const shownRuns: HTMLElement[] = [];
    let delivered = 0;
    let shown = 0;
    const reveal = () => {
      while (shown < blocks.length && blocks[shown].endShare <= delivered / allText) {
        const { node, run } = blocks[shown++];
        while (shownRuns.length <= run) {
          const element = host.appendChild(document.createElement('div'));
          element.className = runs[shownRuns.length].className;
          shownRuns.push(element);
        }
        shownRuns[run].appendChild(input.revealBuilds ? build(htmlOf[shown - 1]) : node);
      }
      followBottomInCallback();
    };
    let lastAt = -Infinity;
    let pending: (() => void) | undefined;
    const schedule = () => {
      if (pending) return;
      const wait = Math.max(0, lastAt + (input.revealEveryMs ?? 50) - 8 - performance.now());
      const timer = setTimeout(() => {
        const id = requestAnimationFrame(() => {
          pending = undefined;
          lastAt = performance.now();
          timedFrame(reveal);
        });
        pending = () => cancelAnimationFrame(id);
      }, wait);
      pending = () => clearTimeout(timer);
    };
    sink = {
      append(delta) {
        delivered += delta.length;
        schedule();
      },
      end() {
        pending?.();
        delivered = allText;
        reveal();
      },
      prefill(text) {
        delivered = text.length;
        reveal();
      },
    };
  } else if (input.renderer === 'none') {
    sink = { append() {}, end() {}, prefill() {} };
  } else {
    // The baseline: the whole text through markdown-it, DOMPurify and into the DOM on every frame.
    const sanitize = md.createSanitizer(window);
    let text = '';
    let frame = 0;
    const render = () => host.replaceChildren(sanitize(renderer.renderDocument(text)));
    sink = {
      append(delta) {
        text += delta;
        frame ||= requestAnimationFrame(() => {
          frame = 0;
          timedFrame(render);
        });
      },
      end() {
        cancelAnimationFrame(frame);
        render();
      },
      prefill(prefixText) {
        text = prefixText;
        render();
      },
    };
  }
  if (prefix !== '') {
    sink.prefill(prefix);
    followBottom();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    frameTimes.length = 0;
    frameScriptMs = 0;
  }
  console.timeStamp('bench:stream-start'); // STREAM_START_MARK: the trace counts main-thread work from here on
  (window as unknown as { benchStreamStarted: boolean }).benchStreamStarted = true; // for a profiler to start now

  let appendMs = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    let next = 0;
    let delivered = 0;
    const channel = new MessageChannel();
    const deliver = () => {
      const delta = deltas[next++];
      const start = performance.now();
      sink.append(delta);
      appendMs += performance.now() - start;
      delivered += delta.length;
    };
    const pump = () => {
      if (input.charsPerSecond === null) {
        deliver();
      } else {
        const due = ((performance.now() - started) / 1000) * input.charsPerSecond;
        while (next < deltas.length && delivered < due) deliver();
      }
      if (next >= deltas.length) resolve();
      else if (input.charsPerSecond === null) channel.port2.postMessage(0);
      // Wake when the next delta is due (a slow pace is not polled every millisecond: that would cost more than it feeds).
      else setTimeout(pump, Math.max(1, started + (delivered / input.charsPerSecond) * 1000 - performance.now()));
    };
    channel.port1.onmessage = pump;
    pump();
  });
  const endStart = performance.now();
  const finished = sink.end();
  followBottom();
  const endMs = performance.now() - endStart;
  await finished; // what finish() leaves to frames is in framesMs
  const wallMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 100));
  observer.disconnect();
  const sorted = [...frameTimes].sort((a, b) => a - b);
  const framesMs = frameTimes.reduce((sum, t) => sum + t, 0);
  return {
    renderMs: appendMs + framesMs + endMs,
    appendMs,
    framesMs,
    frameScriptMs,
    endMs,
    frames: frameTimes.length,
    longestFrameMs: Math.max(endMs, sorted[sorted.length - 1] ?? 0),
    p99FrameMs: sorted[Math.floor(sorted.length * 0.99)] ?? 0,
    p95FrameMs: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    framesOver16Ms: frameTimes.filter((t) => t >= 16).length,
    longTasks,
    longestLongTaskMs,
    wallMs,
    baseHeapBytes,
    peakHeapBytes: Math.max(peakHeapBytes, heap()),
    html: host.innerHTML,
  };
}

/** One append of the whole text, then end(): the reference cost. */
export function runOneShot(input: { renderer: 'streaming' | 'naive' }): { ms: number; html: string } {
  type MD = typeof import('../../test/browser/markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const text = (window as unknown as { benchText: string }).benchText;
  const host = document.body.appendChild(document.createElement('div'));
  host.className = 'markdown-body';
  const renderer = new md.MarkdownRenderer();
  const sanitize = md.createSanitizer(window);
  const start = performance.now();
  if (input.renderer === 'streaming') {
    const streaming = new md.StreamingMarkdown(host, { renderer });
    streaming.append(text);
    streaming.end();
  } else {
    host.replaceChildren(sanitize(renderer.renderDocument(text)));
  }
  document.scrollingElement!.scrollTo(0, document.scrollingElement!.scrollHeight);
  const ms = performance.now() - start;
  const html = host.innerHTML;
  host.remove();
  return { ms, html };
}

/**
 * Renders some markdown once so that every scenario starts with warm code (JIT), fonts and styles rather than the first
 * frame paying for them (a chat panel has laid out markdown before a long reply comes in).
 */
export function warmUp(text: string): void {
  type MD = typeof import('../../test/browser/markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  for (let i = 0; i < 3; i++) {
    const host = document.body.appendChild(document.createElement('div'));
    const streaming = new md.StreamingMarkdown(host, { renderer: new md.MarkdownRenderer() });
    for (let at = 0; at < text.length; at += 40) {
      streaming.append(text.slice(at, at + 40));
      streaming.flush();
    }
    streaming.end();
    host.className = 'markdown-body';
    void host.offsetHeight;
    host.replaceChildren(md.createSanitizer(window)(new md.MarkdownRenderer().renderDocument(text)));
    void host.offsetHeight;
    host.remove();
  }
}
