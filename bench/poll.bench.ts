// Poll bench: the job store's scheduler against a naive fixed-interval poller, both with the real gateway client
// against the gateway simulator, on one virtual clock that also drives the simulator's video schedule and rate
// limit. Time stands still while a request is on the wire and jumps to the next timer when all is settled, so
// hours of polling run in seconds and the figures do not depend on the machine.
//   npm run bench:poll   (NAIVE_INTERVAL_MS=5000 changes the baseline's interval; POLL_BENCH_ONLY=storm runs one scenario)
import { GatewayClient } from '../src/gateway/client';
import type { GatewayApi, VideoRequest } from '../src/gateway/types';
import { FakeClock } from '../src/util/fakeClock';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPollable } from '../src/videos/jobRecord';
import { JobStore } from '../src/videos/jobStore';
import { isFinalStatus } from '../src/videos/status';
import { startSimulator, type Simulator } from '../test/simulator';
import { seededRandom } from '../test/unit/videos/fakes';
import { requestsInsideRetryAfter, VirtualTime, type RequestRecord } from '../test/unit/videos/virtualTime';

const NAIVE_INTERVAL_MS = Number(process.env.NAIVE_INTERVAL_MS ?? 2_000);
const IDLE_CHECK_MS = 10 * 60_000;
const RUN_LIMIT_MS = 3 * 60 * 60_000;

interface Scenario {
  name: string;
  jobs: number;
  /** Virtual ms after the start at which job i is submitted. */
  submitAt: (i: number, random: () => number) => number;
  schedule: { queuedMs: number; inProgressMs: number };
  /** Things done to the simulator at given times (a 429 storm). */
  events?: Array<{ at: number; run: (sim: Simulator) => void }>;
}

const SCENARIOS: Scenario[] = [
  {
    name: '200 pending jobs (10 min each)',
    jobs: 200,
    submitAt: () => 0,
    schedule: { queuedMs: 120_000, inProgressMs: 479_300 },
  },
  {
    name: '50 jobs completing at random times',
    jobs: 50,
    submitAt: (_i, random) => Math.floor(random() * 10 * 60_000),
    schedule: { queuedMs: 20_000, inProgressMs: 99_300 },
  },
  {
    name: '429 storm (100 jobs, 5 req/10 s limit for 90 s + forced 429s)',
    jobs: 100,
    submitAt: () => 0,
    schedule: { queuedMs: 60_000, inProgressMs: 239_300 },
    events: [
      { at: 60_000, run: (sim) => sim.setRateLimit({ requests: 5, windowMs: 10_000 }) },
      { at: 150_000, run: (sim) => sim.setRateLimit(null) },
      { at: 200_000, run: (sim) => sim.force429(20, 6) },
    ],
  },
];

interface Poller {
  submit(request: VideoRequest): Promise<void>;
  pending(): number;
  dispose(): void;
}

interface RunResult {
  requests: RequestRecord[];
  simLogged: number;
  detectionLatencyMs: number[];
  idleRequests: number;
  timersLeftIdle: number;
  virtualMs: number;
  wallMs: number;
  completed: number;
}

/** The job store, as the extension uses it. */
function adaptivePoller(clock: FakeClock, api: GatewayApi, origin: string, onFinal: (id: string) => void): Poller {
  const folder = mkdtempSync(join(tmpdir(), 'mg-bench-jobs-'));
  // One window: no other window's changes to re-read on a timer.
  const store = new JobStore({ folder, clock, apiFor: () => api, scheduler: { random: seededRandom(11) }, sharing: { rescanMs: 0 } });
  store.onDidFinish((job) => onFinal(job.id!));
  return {
    submit: async (request) => {
      const job = await store.submit(origin, request);
      if (isFinalStatus(job.status)) onFinal(job.id!);
    },
    pending: () => store.jobs().filter((job) => job.localState === 'submitting' || isPollable(job)).length,
    dispose: () => {
      store.dispose();
      void store.flush().then(() => rmSync(folder, { recursive: true, force: true }));
    },
  };
}

/** What a first implementation often does: poll each job every N seconds until it is final, whatever happens. */
function naivePoller(clock: FakeClock, api: GatewayApi, onFinal: (id: string) => void): Poller {
  const timers = new Set<ReturnType<FakeClock['setTimeout']>>();
  let pending = 0;
  const schedule = (id: string): void => {
    const timer = clock.setTimeout(() => {
      timers.delete(timer);
      api.getVideo(id).then(
        (job) => {
          if (isFinalStatus(job.status)) {
            pending--;
            onFinal(id);
          } else schedule(id);
        },
        () => schedule(id),
      );
    }, NAIVE_INTERVAL_MS);
    timers.add(timer);
  };
  return {
    submit: async (request) => {
      pending++;
      const job = await api.submitVideo(request);
      schedule(job.id);
    },
    pending: () => pending,
    dispose: () => timers.forEach((t) => clock.clearTimeout(t)),
  };
}

async function run(scenario: Scenario, kind: 'adaptive' | 'naive'): Promise<RunResult> {
  const wallStart = performance.now();
  const clock = new FakeClock();
  const start = clock.now();
  const time = new VirtualTime(clock);
  const sim = await startSimulator({ video: scenario.schedule, now: () => clock.now() });
  // The scheduler owns retries for polls; the naive poller gets the same client for a like-for-like count.
  const client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
  const api = time.wrap(client);
  const finishedAt = new Map<string, number>();
  const onFinal = (id: string) => finishedAt.set(id, clock.now());
  const poller = kind === 'adaptive' ? adaptivePoller(clock, api, sim.origin, onFinal) : naivePoller(clock, api, onFinal);

  const random = seededRandom(2024);
  let submitted = 0;
  for (let i = 0; i < scenario.jobs; i++) {
    const at = scenario.submitAt(i, random);
    clock.setTimeout(() => {
      submitted++;
      // The store writes each job to disk before and after sending it: time stands still for that too.
      void time.hold(poller.submit({ model: 'model-1.0-video-edit', input: { prompt: `bench job ${i}` }, parameters: { resolution: '720p', duration: 4 } }));
    }, at);
  }
  for (const event of scenario.events ?? []) clock.setTimeout(() => event.run(sim), event.at);

  await time.runWhile(() => submitted < scenario.jobs || poller.pending() > 0 || finishedAt.size < scenario.jobs, RUN_LIMIT_MS);
  const virtualMs = clock.now() - start;

  const before = time.requests.length;
  await time.runUntil(clock.now() + IDLE_CHECK_MS);
  const idleRequests = time.requests.length - before;
  const timersLeftIdle = clock.pendingTimers;

  // Each job completes on the simulator `queued + in progress` after its submission reached it.
  const duration = scenario.schedule.queuedMs + scenario.schedule.inProgressMs;
  const latencies: number[] = [];
  for (const [id, at] of finishedAt) {
    const submitStart = submitTimeOf(time.requests, id);
    if (submitStart !== undefined) latencies.push(at - (submitStart + duration));
  }

  poller.dispose();
  await client.close();
  const simLogged = sim.log.length;
  await sim.close();
  return {
    requests: time.requests,
    simLogged,
    detectionLatencyMs: latencies,
    idleRequests,
    timersLeftIdle,
    virtualMs,
    wallMs: performance.now() - wallStart,
    completed: finishedAt.size,
  };
}

/** When the submit that created job `id` was sent: the recorded submit whose answer carried that id. */
function submitTimeOf(requests: readonly RequestRecord[], id: string): number | undefined {
  return requests.find((r) => r.method === 'submit' && r.jobId === id)?.startedAt;
}

function peakPerSecond(requests: readonly RequestRecord[]): number {
  const buckets = new Map<number, number>();
  for (const r of requests) {
    const second = Math.floor(r.startedAt / 1000);
    buckets.set(second, (buckets.get(second) ?? 0) + 1);
  }
  return Math.max(0, ...buckets.values());
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

interface Row {
  metric: string;
  adaptive: string;
  naive: string;
  'naive / adaptive': string;
}

function summarize(scenario: Scenario, adaptive: RunResult, naive: RunResult): Row[] {
  const stats = (r: RunResult) => {
    const polls = r.requests.filter((q) => q.method === 'get');
    return {
      total: r.requests.length,
      perJob: r.requests.length / scenario.jobs,
      overMinimum: r.requests.length / (2 * scenario.jobs),
      peakPolls: peakPerSecond(polls),
      peakAll: peakPerSecond(r.requests),
      rateLimited: r.requests.filter((q) => q.errorStatus === 429).length,
      insideRetryAfter: requestsInsideRetryAfter(r.requests),
      idle: r.idleRequests,
      timers: r.timersLeftIdle,
      latencyMean: r.detectionLatencyMs.reduce((a, b) => a + b, 0) / Math.max(1, r.detectionLatencyMs.length),
      latencyP95: percentile(r.detectionLatencyMs, 95),
      latencyMax: Math.max(...r.detectionLatencyMs),
      completed: r.completed,
      simLogged: r.simLogged,
      virtualMin: r.virtualMs / 60_000,
      wall: r.wallMs,
    };
  };
  const a = stats(adaptive);
  const n = stats(naive);
  const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : x > 0 ? '∞' : '–');
  const row = (metric: string, av: number, nv: number, digits = 0, withRatio = true): Row => ({
    metric,
    adaptive: fmt(av, digits),
    naive: fmt(nv, digits),
    'naive / adaptive': withRatio ? ratio(nv, av) : '',
  });
  return [
    row('jobs completed', a.completed, n.completed, 0, false),
    row('requests (submit + poll)', a.total, n.total),
    row('requests per job (minimum 2)', a.perJob, n.perJob, 2),
    row('requests / minimum', a.overMinimum, n.overMinimum, 2),
    row('peak polls per second', a.peakPolls, n.peakPolls),
    row('peak requests per second', a.peakAll, n.peakAll),
    row('429 answers received', a.rateLimited, n.rateLimited),
    row('requests inside Retry-After (must be 0)', a.insideRetryAfter, n.insideRetryAfter),
    row('requests while nothing pending (must be 0)', a.idle, n.idle),
    row('timers left while idle', a.timers, n.timers, 0, false),
    row('completion seen after (mean s)', a.latencyMean / 1000, n.latencyMean / 1000, 1),
    row('completion seen after (p95 s)', a.latencyP95 / 1000, n.latencyP95 / 1000, 1),
    row('completion seen after (max s)', a.latencyMax / 1000, n.latencyMax / 1000, 1),
    row('requests logged by the simulator', a.simLogged, n.simLogged, 0, false),
    row('virtual minutes until all final', a.virtualMin, n.virtualMin, 1, false),
    row('wall ms', a.wall, n.wall, 0, false),
  ];
}

async function main(): Promise<void> {
  console.log(`Poll bench: job store (backoff 2 s → 30 s, ≤ 3 in flight, ≥ 100 ms between polls) vs naive poller (every ${NAIVE_INTERVAL_MS} ms, no cap).`);
  console.log('Real client and simulator on loopback, one virtual clock; "completion seen after" = detection delay after the job finished on the gateway.\n');
  const failures: string[] = [];
  const only = process.env.POLL_BENCH_ONLY;
  for (const scenario of SCENARIOS.filter((s) => !only || s.name.includes(only))) {
    const adaptive = await run(scenario, 'adaptive');
    const naive = await run(scenario, 'naive');
    console.log(`## ${scenario.name}`);
    console.table(summarize(scenario, adaptive, naive));
    if (requestsInsideRetryAfter(adaptive.requests) !== 0) failures.push(`${scenario.name}: requests inside Retry-After`);
    if (adaptive.idleRequests !== 0 || adaptive.timersLeftIdle !== 0) failures.push(`${scenario.name}: activity while idle`);
    if (adaptive.completed !== scenario.jobs) failures.push(`${scenario.name}: ${adaptive.completed}/${scenario.jobs} jobs completed`);
    if (adaptive.simLogged !== adaptive.requests.length) failures.push(`${scenario.name}: simulator saw ${adaptive.simLogged} requests, client sent ${adaptive.requests.length}`);
  }
  if (failures.length > 0) {
    console.error(`\nFAILED:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
