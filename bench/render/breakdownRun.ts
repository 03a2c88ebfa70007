// `--only breakdown`: where the main thread's time goes in one traced run per scenario (the trace's event kinds, forced
// layouts), and a sampled JS profile of each (self time by function): the measurement to make before changing the
// renderer. One run each, so the figures are for reading, not for docs/benchmarks.md's ratios.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { freshPage } from './benchPage';
import { traceEvents } from './mainThreadTrace';
import { runOneShot, runScenario, type ScenarioInput } from './pageScenario';
import { breakdown, formatBreakdown, frameTimeline } from './traceBreakdown';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const keyOf = (frame: ProfileNode['callFrame']) => (frame.functionName === '' ? `(anonymous) ${frame.url.split('/').pop()}:${frame.lineNumber}` : frame.functionName);

async function profiled(cdp: CDPSession, run: () => Promise<unknown>): Promise<Profile> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await run();
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  return profile;
}

function topFunctions(profile: Profile, top = 18): string {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const key = keyOf(nodes.get(id)!.callFrame);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (key !== '(idle)' && key !== '(program)') total += ms;
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const rows = [...self].filter(([key]) => key !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top);
  // Inclusive time of the renderer's own steps (a function counted once per sample, however deep it recurses).
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(nodes.get(at)!.callFrame));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const steps = [...inclusive]
    .filter(([name]) => !name.startsWith('(') || name.includes('md.js'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`);
  return [
    `  JS profile: ${total.toFixed(1)} ms sampled outside idle/program`,
    ...rows.map(([key, ms]) => `    ${key.slice(0, 40).padEnd(40)} ${ms.toFixed(1).padStart(8)} ms`),
    `    inclusive: ${steps.join(', ')}`,
  ].join('\n');
}

export async function breakdownBench(browser: Browser, url: string, deltas: string[]): Promise<object> {
  const scenarios: Array<[string, (page: Page) => Promise<unknown>]> = [
    ['one-shot', (page) => page.evaluate(runOneShot, { renderer: 'streaming' as const })],
    ['20k chars/s', (page) => page.evaluate(runScenario, { renderer: 'streaming', charsPerSecond: 20_000 } satisfies ScenarioInput)],
    ['20k chars/s, no-op sink', (page) => page.evaluate(runScenario, { renderer: 'none', charsPerSecond: 20_000 } satisfies ScenarioInput)],
    ['max speed', (page) => page.evaluate(runScenario, { renderer: 'streaming', charsPerSecond: null } satisfies ScenarioInput)],
  ];
  const summary: Record<string, object> = {};
  for (const [label, run] of scenarios) {
    const traced = await freshPage(browser, url, deltas);
    const { events } = await traceEvents(traced.page, traced.cdp, () => run(traced.page), ',disabled-by-default-devtools.timeline.stack');
    await traced.close();
    const b = breakdown(events);
    console.log(formatBreakdown(label, b));
    if (label === '20k chars/s') console.log(frameTimeline(events));
    const sampled = await freshPage(browser, url, deltas);
    const profile = await profiled(sampled.cdp, () => run(sampled.page));
    await sampled.close();
    console.log(topFunctions(profile));
    summary[label] = b;
  }
  return summary;
}
