// The page's main-thread tasks from a Chrome trace: every task (style, layout, paint included), CPU time summed (it
// does not grow when the machine is busy with other processes and deschedules the renderer) and the longest task.
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
}

export interface MainThreadTasks {
  /**
   * Thread (CPU) milliseconds of every main-thread task in the window, summed. Thread time is sampled coarsely on
   * some machines (a single task can show more CPU than wall time), so it is only meaningful summed over many tasks.
   */
  cpuMs: number;
  /** The longest main-thread task, wall clock (includes any time the machine gave to other processes). */
  longestTaskMs: number;
  tasks: number;
  /** Tasks of 16 ms (wall) or more. */
  tasksOver16Ms: number;
  /** Of those, the ones that were mostly a V8 garbage collection (the page's whole heap, not only this renderer's). */
  gcTasksOver16Ms: number;
  /** The longest task that was not mostly garbage collection. */
  longestNonGcTaskMs: number;
  /** Tasks that took 50 ms of CPU or more (long tasks that a busy machine did not make long). */
  tasksOver50MsCpu: number;
  longestTaskCpuMs: number;
}

/** `startMark`: count only the tasks from the one that ran `console.timeStamp(startMark)` on (when it is found). */
export async function traceMainThread<T>(page: Page, cdp: CDPSession, run: () => Promise<T>, startMark?: string): Promise<{ value: T; main: MainThreadTasks }> {
  const { value, events } = await traceEvents(page, cdp, run);
  return { value, main: summarise(events, startMark) };
}

export type Trace = TraceEvent[];

/** The Chrome trace of `run` (and of the two frames after it), to summarise over one or more windows. */
export async function traceEvents<T>(page: Page, cdp: CDPSession, run: () => Promise<T>, extraCategories = ''): Promise<{ value: T; events: Trace }> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }) => events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline' + extraCategories, transferMode: 'ReportEvents' });
  const value = await run();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return { value, events };
}

/** The page's main thread (`pid:tid`): the renderer main thread that ran the most script during the trace. */
export function pageThread(events: Trace): string | undefined {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const scriptCounts = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (mainThreads.has(thread) && (e.name === 'FunctionCall' || e.name === 'FireAnimationFrame' || e.name === 'EvaluateScript')) {
      scriptCounts.set(thread, (scriptCounts.get(thread) ?? 0) + 1);
    }
  }
  return [...scriptCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * The page's main-thread tasks from the task that ran `console.timeStamp(startMark)` (when given and found) to the
 * one that ran `console.timeStamp(endMark)`, both included.
 */
export function summarise(events: Trace, startMark?: string, endMark?: string): MainThreadTasks {
  const page = pageThread(events);
  const tasks: TraceEvent[] = [];
  const mark = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === startMark && `${e.pid}:${e.tid}` === page);
  const from = startMark && mark ? mark.ts : -Infinity;
  const endEvent = endMark ? events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === endMark && `${e.pid}:${e.tid}` === page) : undefined;
  const to = endEvent ? endEvent.ts : Infinity;
  const pageTasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === page && e.ts + (e.dur ?? 0) >= from && e.ts <= to)
    .sort((a, b) => a.ts - b.ts);
  for (const task of pageTasks) {
    const outer = tasks[tasks.length - 1];
    if (outer && task.ts < outer.ts + (outer.dur ?? 0)) continue; // nested in a task already counted
    tasks.push(task);
  }
  const cpu = tasks.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  const wall = tasks.map((e) => (e.dur ?? 0) / 1000);
  const collections = events.filter((e) => e.ph === 'X' && (e.name === 'MajorGC' || e.name === 'MinorGC') && `${e.pid}:${e.tid}` === page);
  const mostlyGc = (task: TraceEvent) => {
    const end = task.ts + (task.dur ?? 0);
    const gc = collections.filter((e) => e.ts >= task.ts && e.ts < end).reduce((sum, e) => sum + (e.dur ?? 0), 0);
    return gc * 2 >= (task.dur ?? 0);
  };
  const gcTasks = new Set(tasks.filter((task, i) => wall[i] >= 16 && mostlyGc(task)));
  return {
    cpuMs: cpu.reduce((sum, t) => sum + t, 0),
    longestTaskMs: Math.max(0, ...wall),
    tasks: tasks.length,
    tasksOver16Ms: wall.filter((t) => t >= 16).length,
    gcTasksOver16Ms: gcTasks.size,
    longestNonGcTaskMs: Math.max(0, ...wall.filter((_, i) => !gcTasks.has(tasks[i]))),
    tasksOver50MsCpu: cpu.filter((t) => t >= 50).length,
    longestTaskCpuMs: Math.max(0, ...cpu),
  };
}
