// CPU time of the page's main-thread tasks, from a Chrome trace. Unlike wall-clock timings taken in the page, a
// task's thread time does not grow when the machine is busy with other processes and deschedules the renderer.
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

export interface MainThreadTasks {
  /** Thread (CPU) milliseconds of every main-thread task in the window, summed. */
  cpuMs: number;
  longestTaskCpuMs: number;
  tasks: number;
  /** Tasks of 16 ms of CPU or more. */
  tasksOver16Ms: number;
}

export async function traceMainThread<T>(page: Page, cdp: CDPSession, run: () => Promise<T>): Promise<{ value: T; main: MainThreadTasks }> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }) => events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  const value = await run();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return { value, main: summarise(events) };
}

function summarise(events: TraceEvent[]): MainThreadTasks {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  // The page's renderer is the one whose main thread ran script during the window.
  const scriptCounts = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (mainThreads.has(thread) && (e.name === 'FunctionCall' || e.name === 'FireAnimationFrame' || e.name === 'EvaluateScript')) {
      scriptCounts.set(thread, (scriptCounts.get(thread) ?? 0) + 1);
    }
  }
  const page = [...scriptCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const tasks: TraceEvent[] = [];
  const pageTasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === page).sort((a, b) => a.ts - b.ts);
  for (const task of pageTasks) {
    const outer = tasks[tasks.length - 1];
    if (outer && task.ts < outer.ts + (outer.dur ?? 0)) continue; // nested in a task already counted
    tasks.push(task);
  }
  const cpu = tasks.map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  return {
    cpuMs: cpu.reduce((sum, t) => sum + t, 0),
    longestTaskCpuMs: Math.max(0, ...cpu),
    tasks: tasks.length,
    tasksOver16Ms: cpu.filter((t) => t >= 16).length,
  };
}
