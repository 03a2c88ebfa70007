// Where a traced run's main-thread time goes: the self time of each trace event kind (script, style, layout, paint,
// garbage collection...) on the page's main thread, and how much of the layout was forced from script.
import { pageThread, type Trace } from './mainThreadTrace';

type TraceEvent = Trace[number] & { args?: { beginData?: { stackTrace?: unknown[]; dirtyObjects?: number; totalObjects?: number }; elementCount?: number } };

export interface Breakdown {
  /** Thread milliseconds of self time per event name, largest first. */
  byEvent: Array<{ name: string; ms: number; count: number }>;
  /** Layout events with a JS stack (forced by script reading layout), and their thread milliseconds, self time. */
  forcedLayouts: number;
  forcedLayoutMs: number;
  totalMs: number;
}

/** Self time per event name on the page's main thread, from `startMark` on (as `summarise` counts tasks). */
export function breakdown(events: Trace, startMark?: string): Breakdown {
  const thread = pageThread(events);
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === startMark && `${e.pid}:${e.tid}` === thread);
  const from = mark ? mark.ts : -Infinity;
  const slices = (events as TraceEvent[])
    .filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread && e.ts >= from && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const time = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
  const self = new Map<TraceEvent, number>();
  const stack: TraceEvent[] = [];
  for (const e of slices) {
    while (stack.length > 0 && e.ts >= stack[stack.length - 1].ts + (stack[stack.length - 1].dur ?? 0)) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent, (self.get(parent) ?? 0) - time(e));
    self.set(e, (self.get(e) ?? 0) + time(e));
    stack.push(e);
  }
  const byName = new Map<string, { ms: number; count: number }>();
  let forcedLayouts = 0;
  let forcedLayoutMs = 0;
  for (const [e, ms] of self) {
    const entry = byName.get(e.name) ?? { ms: 0, count: 0 };
    entry.ms += Math.max(0, ms);
    entry.count++;
    byName.set(e.name, entry);
    if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && e.args?.beginData?.stackTrace) {
      forcedLayouts++;
      forcedLayoutMs += time(e);
    }
  }
  const byEvent = [...byName].map(([name, { ms, count }]) => ({ name, ms, count })).sort((a, b) => b.ms - a.ms);
  return { byEvent, forcedLayouts, forcedLayoutMs, totalMs: byEvent.reduce((sum, e) => sum + e.ms, 0) };
}

export function formatBreakdown(label: string, b: Breakdown, top = 14): string {
  const rows = b.byEvent.slice(0, top).map((e) => `    ${e.name.padEnd(28)} ${e.ms.toFixed(1).padStart(8)} ms  ${String(e.count).padStart(6)}x`);
  return [`  ${label}: ${b.totalMs.toFixed(1)} ms self time; forced style/layout ${b.forcedLayouts}x, ${b.forcedLayoutMs.toFixed(1)} ms`, ...rows].join('\n');
}

/** A few consecutive main-thread tasks from the middle of the run, with the rendering work inside each. */
export function frameTimeline(events: Trace, count = 40): string {
  const thread = pageThread(events);
  const onThread = (events as TraceEvent[]).filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === thread && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const tasks = onThread.filter((e) => e.name === 'RunTask');
  const withFrames = tasks.filter((task) => onThread.some((e) => e.name === 'FireAnimationFrame' && e.ts >= task.ts && e.ts < task.ts + task.dur!));
  const middle = tasks.indexOf(withFrames[Math.floor(withFrames.length / 2)]);
  const interesting = new Set(['FireAnimationFrame', 'FunctionCall', 'TimerFire', 'Layout', 'UpdateLayoutTree', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'ParseHTML', 'MajorGC', 'MinorGC', 'IntersectionObserverController::computeIntersections', 'ScrollLayer']);
  const lines: string[] = [];
  for (const task of tasks.slice(middle, middle + count)) {
    const inner = onThread.filter((e) => e !== task && e.ts >= task.ts && e.ts < task.ts + task.dur! && interesting.has(e.name));
    if (inner.every((e) => e.name === 'TimerFire' || e.name === 'FunctionCall')) continue; // the feed
    const parts = inner.map((e) => {
      const forced = e.args?.beginData?.stackTrace ? '!' : '';
      const data = e.args;
      const size = e.name === 'Layout' ? `[${data?.beginData?.dirtyObjects}/${data?.beginData?.totalObjects}]` : e.name === 'UpdateLayoutTree' ? `[${data?.elementCount}]` : '';
      return `${forced}${e.name.replace('IntersectionObserverController::computeIntersections', 'IO')}${size} ${((e.tdur ?? e.dur!) / 1000).toFixed(2)}`;
    });
    lines.push(`    +${((task.ts - tasks[middle].ts) / 1000).toFixed(0).padStart(5)} ms task ${(task.dur! / 1000).toFixed(2)}: ${parts.join(', ')}`);
  }
  return ['  frames in the middle of the run (! = forced from script):', ...lines].join('\n');
}
