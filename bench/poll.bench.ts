// Poll bench: the job store's scheduler (learning from earlier durations and honouring the gateway's timing
// hints) against the same scheduler as it was before it learned ("today": fixed backoff only) and a naive
// fixed-interval poller, all with the real gateway client against the gateway simulator, on one virtual clock that
// also drives the simulator's video schedule and rate limit. Time stands still while a request is on the wire and
// jumps to the next timer when all is settled, so hours of polling run in seconds and the figures do not depend
// on the machine.
//   npm run bench:poll   (NAIVE_INTERVAL_MS=5000 changes the baseline's interval; POLL_BENCH_ONLY=storm runs one scenario)
import { GatewayClient } from '../src/gateway/client';
import type { GatewayApi, VideoRequest } from '../src/gateway/types';
import { FakeClock } from '../test/util/fakeClock';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunning } from '../src/videos/core/jobPresentation';
import { DurationHistory, MemoryJsonStore } from '../src/videos/core/durationHistory';
import { JobStore } from '../src/videos/core/jobStore';
import { isFinalStatus } from '../src/videos/core/dialects/status';
import { startSimulator, type Simulator } from '../test/simulator';
import type { VideoSchedule } from '../test/simulator/video';
import { seededRandom } from '../test/unit/videos/fakes';
import { percentile, reportLearned } from './lib/pollBound';
import { recordResults, type BenchFigure } from './lib/results';
import { requestsInsideRetryAfter, VirtualTime, type RequestRecord } from '../test/unit/videos/virtualTime';

const NAIVE_INTERVAL_MS = Number(process.env.NAIVE_INTERVAL_MS ?? 2_000);
/**
 * Seeds of the random draws (job durations, submit times). The learned scenario runs with each, and its figures pool
 * the 8 × 60 measured jobs: one sample of 60 puts its p95 on the third-worst job, which moves by a second from one
 * sample to the next. The other scenarios run with the first. POLL_BENCH_SEEDS=7 runs one other sample.
 */
const SEEDS = (process.env.POLL_BENCH_SEEDS ?? '2024,1,2,3,4,5,6,7').split(',').map(Number);
/** Scheduler options for the learning poller, to try a trade-off: POLL_BENCH_TUNE='{"lateCost":40}'. */
const TUNE: object = JSON.parse(process.env.POLL_BENCH_TUNE ?? '{}');
/** Issue 27's targets for the learned scenario, reported; the guard below is what the bench fails on. */
const TARGETS = { perJob: 4, meanMs: 2_000, p95Ms: 4_000 };
const GUARD = { perJob: 7, meanMs: 2_500 };
const IDLE_CHECK_MS = 10 * 60_000;
/** Learning may see completions later than today by at most this (mean and p95, each scenario). */
const LATENCY_TOLERANCE = { ms: 1_000, fraction: 0.1 };
const RUN_LIMIT_MS = 3 * 60 * 60_000;

interface JobPlan {
  /** Virtual ms after the start at which the job is submitted. */
  at: number;
  parameters: { resolution: string; duration: number };
  schedule: VideoSchedule;
}

interface Scenario {
  name: string;
  /** How the results file names it. */
  short: string;
  jobs: number;
  /** Job i's submit time, parameters and simulator schedule. */
  plan: (i: number, random: () => number) => JobPlan;
  /** The first jobs only teach the scheduler; figures count the others. */
  warmup?: number;
  /** Things done to the simulator at given times (a 429 storm). */
  events?: Array<{ at: number; run: (sim: Simulator) => void }>;
}

const P720 = { resolution: '720p', duration: 4 };
const fixed = (at: (i: number, random: () => number) => number, queuedMs: number, inProgressMs: number): Scenario['plan'] =>
  (i, random) => ({ at: at(i, random), parameters: P720, schedule: { queuedMs, inProgressMs } });

/** Normal(mean, sd) by Box-Muller, cut at ±3 sd. */
function normal(random: () => number, mean: number, sd: number): number {
  const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return mean + sd * Math.max(-3, Math.min(3, z));
}

/** Two kinds of job with stable durations of their own (queued for the first 20 %), no progress reported. */
const KINDS = [
  { parameters: { resolution: '720p', duration: 4 }, meanMs: 80_000, sdMs: 6_000 },
  { parameters: { resolution: '1080p', duration: 8 }, meanMs: 160_000, sdMs: 10_000 },
];
const WARMUP = 20;

/** The scenario of issue 27's targets: two kinds whose durations the scheduler learns. */
const LEARNED: Scenario = {
  name: `learned durations (2 kinds, 80 ± 6 s and 160 ± 10 s, no progress field; ${WARMUP} warm-up jobs, then 60 measured)`,
  short: 'learned durations',
  jobs: WARMUP + 60,
  warmup: WARMUP,
  plan: (i, random) => {
    const kind = KINDS[i % KINDS.length];
    const totalMs = Math.round(normal(random, kind.meanMs, kind.sdMs));
    const queuedMs = Math.round(totalMs * 0.2);
    // Warm-up jobs every 20 s; the measured ones at random times once the warm-up is over.
    const at = i < WARMUP ? i * 20_000 : 10 * 60_000 + Math.floor(random() * 10 * 60_000);
    return { at, parameters: kind.parameters, schedule: { queuedMs, inProgressMs: totalMs - queuedMs, progress: false } };
  },
};

/** Issue 34's targets where the gateway reports `progress`: polls per job (the submit aside) and mean time to see completion. */
const PROGRESS_GUARD = { pollsPerJob: 3, meanMs: 1_500 };

/** Jobs whose answers carry a linear `progress` (as the openai and xai dialects send), and no history to learn from. */
const PROGRESS: Scenario = {
  name: 'progress field (40 jobs, 60–180 s, linear progress; no history)',
  short: 'progress field (40 jobs, no history)',
  jobs: 40,
  plan: (_i, random) => {
    const totalMs = 60_000 + Math.floor(random() * 120_000);
    return { at: Math.floor(random() * 5 * 60_000), parameters: P720, schedule: { queuedMs: 5_000, inProgressMs: totalMs - 5_000, progress: true } };
  },
};

const SCENARIOS: Scenario[] = [
  {
    name: '200 pending jobs (10 min each)',
    short: '200 pending jobs, 10 min each',
    jobs: 200,
    plan: fixed(() => 0, 120_000, 479_300),
  },
  {
    name: '50 jobs completing at random times',
    short: '50 jobs completing at random times',
    jobs: 50,
    plan: fixed((_i, random) => Math.floor(random() * 10 * 60_000), 20_000, 99_300),
  },
  {
    name: '429 storm (100 jobs, 5 req/10 s limit for 90 s + forced 429s)',
    short: '429 storm (100 jobs)',
    jobs: 100,
    plan: fixed(() => 0, 60_000, 239_300),
    events: [
      { at: 60_000, run: (sim) => sim.setRateLimit({ requests: 5, windowMs: 10_000 }) },
      { at: 150_000, run: (sim) => sim.setRateLimit(null) },
      { at: 200_000, run: (sim) => sim.force429(20, 6) },
    ],
  },
  LEARNED,
  PROGRESS,
];

interface Poller {
  /** Resolves with the job id. */
  submit(request: VideoRequest): Promise<string | undefined>;
  pending(): number;
  dispose(): void;
}

type PollerKind = 'learning' | 'today' | 'naive';

interface RunResult {
  /** Requests for the measured jobs (all jobs but the warm-up). */
  requests: RequestRecord[];
  allRequests: RequestRecord[];
  simLogged: number;
  detectionLatencyMs: number[];
  idleRequests: number;
  timersLeftIdle: number;
  virtualMs: number;
  wallMs: number;
  completed: number;
}

/**
 * The job store, as the extension uses it ("learning": with a duration history and the gateway's hints), or with
 * both off, which is the scheduler as it was before either existed ("today").
 */
function storePoller(clock: FakeClock, api: GatewayApi, origin: string, onFinal: (id: string) => void, learning: boolean): Poller {
  const history = learning ? new DurationHistory({ store: new MemoryJsonStore() }) : undefined;
  void history?.load();
  const folder = mkdtempSync(join(tmpdir(), 'mg-bench-jobs-'));
  const store = new JobStore({
    folder,
    clock,
    apiFor: () => api,
    scheduler: { random: seededRandom(11), history, gatewayHints: learning, ...TUNE },
    // One window: no other window's changes to re-read on a timer.
    sharing: { rescanMs: 0 },
  });
  store.onDidFinish((job) => onFinal(job.id!));
  return {
    submit: async (request) => {
      const job = await store.submit(origin, request);
      if (isFinalStatus(job.status)) onFinal(job.id!);
      return job.id;
    },
    pending: () => store.jobs().filter(isRunning).length,
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
      return job.id;
    },
    pending: () => pending,
    dispose: () => timers.forEach((t) => clock.clearTimeout(t)),
  };
}

async function run(scenario: Scenario, kind: PollerKind, seed: number): Promise<RunResult> {
  const wallStart = performance.now();
  const clock = new FakeClock();
  const start = clock.now();
  const time = new VirtualTime(clock);
  const random = seededRandom(seed);
  const plans = Array.from({ length: scenario.jobs }, (_, i) => scenario.plan(i, random));
  const planOf = (prompt: string) => plans[Number(/^bench job (\d+)$/.exec(prompt)?.[1])];
  const sim = await startSimulator({ video: (request) => planOf(request.prompt).schedule, now: () => clock.now() });
  // The scheduler owns retries for polls; the naive poller gets the same client for a like-for-like count.
  const client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
  const api = time.wrap(client);
  const finishedAt = new Map<string, number>();
  const onFinal = (id: string) => finishedAt.set(id, clock.now());
  const poller = kind === 'naive' ? naivePoller(clock, api, onFinal) : storePoller(clock, api, sim.origin, onFinal, kind === 'learning');

  const measured = new Map<string, JobPlan>();
  let submitted = 0;
  plans.forEach((plan, i) => {
    clock.setTimeout(() => {
      submitted++;
      // The store writes each job to disk before and after sending it: time stands still for that too.
      void time.hold(poller.submit({ model: 'model-1.0-video-edit', input: { prompt: `bench job ${i}` }, parameters: plan.parameters })).then((id) => {
        if (id !== undefined && i >= (scenario.warmup ?? 0)) measured.set(id, plan);
      });
    }, plan.at);
  });
  for (const event of scenario.events ?? []) clock.setTimeout(() => event.run(sim), event.at);

  await time.runWhile(() => submitted < scenario.jobs || poller.pending() > 0 || finishedAt.size < scenario.jobs, RUN_LIMIT_MS);
  const virtualMs = clock.now() - start;

  const before = time.requests.length;
  await time.runUntil(clock.now() + IDLE_CHECK_MS);
  const idleRequests = time.requests.length - before;
  const timersLeftIdle = clock.pendingTimers;

  // Each job completes on the simulator `queued + in progress` after its submission reached it.
  const latencies: number[] = [];
  for (const [id, plan] of measured) {
    const submitStart = submitTimeOf(time.requests, id);
    const at = finishedAt.get(id);
    if (submitStart !== undefined && at !== undefined) latencies.push(at - (submitStart + plan.schedule.queuedMs + plan.schedule.inProgressMs));
  }

  if (process.env.POLL_BENCH_TRACE && kind === 'learning') traceJobs(time.requests, measured);
  poller.dispose();
  await client.close();
  const simLogged = sim.log.length;
  await sim.close();
  return {
    requests: time.requests.filter((r) => measured.has((r.method === 'submit' ? r.jobId : r.id) ?? '')),
    allRequests: time.requests,
    simLogged,
    detectionLatencyMs: latencies,
    idleRequests,
    timersLeftIdle,
    virtualMs,
    wallMs: performance.now() - wallStart,
    completed: [...measured.keys()].filter((id) => finishedAt.has(id)).length,
  };
}

/** POLL_BENCH_TRACE=1: each measured job's polls, in s after its submission, with the job's progress then. */
function traceJobs(requests: readonly RequestRecord[], measured: ReadonlyMap<string, JobPlan>): void {
  for (const [id, plan] of measured) {
    const submitted = submitTimeOf(requests, id);
    if (submitted === undefined) continue;
    const { queuedMs, inProgressMs } = plan.schedule;
    const polls = requests.filter((r) => r.method === 'get' && r.id === id).map((r) => {
      const t = r.startedAt - submitted;
      const percent = Math.max(0, Math.min(100, ((t - queuedMs) / inProgressMs) * 100));
      return `${(t / 1000).toFixed(1)}s@${percent.toFixed(0)}%`;
    });
    console.log(`${id} ${((queuedMs + inProgressMs) / 1000).toFixed(0)} s at ${(submitted / 1000).toFixed(0)}: ${polls.join(' ')}`);
  }
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

interface Row {
  metric: string;
  learning: string;
  today: string;
  naive: string;
  'today / learning': string;
  'naive / learning': string;
}

function stats(scenario: Scenario, r: RunResult) {
  const measuredJobs = scenario.jobs - (scenario.warmup ?? 0);
  const polls = r.requests.filter((q) => q.method === 'get');
  return {
    completed: r.completed,
    total: r.requests.length,
    perJob: r.requests.length / measuredJobs,
    pollsPerJob: polls.length / measuredJobs,
    overMinimum: r.requests.length / (2 * measuredJobs),
    peakPolls: peakPerSecond(polls),
    peakAll: peakPerSecond(r.requests),
    rateLimited: r.allRequests.filter((q) => q.errorStatus === 429).length,
    insideRetryAfter: requestsInsideRetryAfter(r.allRequests),
    idle: r.idleRequests,
    timers: r.timersLeftIdle,
    latencyMean: r.detectionLatencyMs.reduce((a, b) => a + b, 0) / Math.max(1, r.detectionLatencyMs.length),
    latencyP95: percentile(r.detectionLatencyMs, 95),
    latencyMax: Math.max(...r.detectionLatencyMs),
    simLogged: r.simLogged,
    virtualMin: r.virtualMs / 60_000,
    wall: r.wallMs,
  };
}

type Stats = ReturnType<typeof stats>;

function summarize(learning: Stats, today: Stats, naive: Stats): Row[] {
  const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : x > 0 ? '∞' : '–');
  const row = (metric: string, key: keyof Stats, digits = 0, withRatio = true, scale = 1): Row => {
    const [l, t, n] = [learning[key] / scale, today[key] / scale, naive[key] / scale];
    return {
      metric,
      learning: fmt(l, digits),
      today: fmt(t, digits),
      naive: fmt(n, digits),
      'today / learning': withRatio ? ratio(t, l) : '',
      'naive / learning': withRatio ? ratio(n, l) : '',
    };
  };
  return [
    row('jobs completed', 'completed', 0, false),
    row('requests (submit + poll)', 'total'),
    row('requests per job (minimum 2)', 'perJob', 2),
    row('polls per job (minimum 1)', 'pollsPerJob', 2),
    row('requests / minimum', 'overMinimum', 2),
    row('peak polls per second', 'peakPolls'),
    row('peak requests per second', 'peakAll'),
    row('429 answers received', 'rateLimited'),
    row('requests inside Retry-After (must be 0)', 'insideRetryAfter'),
    row('requests while nothing pending (must be 0)', 'idle'),
    row('timers left while idle', 'timers', 0, false),
    row('completion seen after (mean s)', 'latencyMean', 1, true, 1000),
    row('completion seen after (p95 s)', 'latencyP95', 1, true, 1000),
    row('completion seen after (max s)', 'latencyMax', 1, true, 1000),
    row('requests logged by the simulator', 'simLogged', 0, false),
    row('virtual minutes until all final', 'virtualMin', 1, false),
    row('wall ms', 'wall', 0, false),
  ];
}

function resultFigures(firstSeed: ReadonlyMap<Scenario, Record<'learning' | 'today' | 'naive', Stats>>, pooled: ReturnType<typeof reportLearned>): BenchFigure[] {
  const figures: BenchFigure[] = [];
  const three = (s: Record<'learning' | 'today' | 'naive', Stats>, key: 'perJob' | 'latencyMean' | 'latencyP95', digits: number, scale = 1) =>
    [s.learning, s.today, s.naive].map((x) => (x[key] / scale).toFixed(digits)).join(' / ');
  for (const [scenario, s] of firstSeed) {
    if (scenario === LEARNED || scenario === PROGRESS) continue;
    const value = `${three(s, 'perJob', 2)} requests per job; ${three(s, 'latencyMean', 1, 1000)} s mean; ${three(s, 'latencyP95', 1, 1000)} s p95`;
    const storm = scenario.events !== undefined;
    figures.push(storm ? { measure: scenario.short, value, target: `latency no worse than fixed backoff's by more than ${LATENCY_TOLERANCE.fraction * 100} % + ${LATENCY_TOLERANCE.ms / 1000} s`, met: true } : { measure: scenario.short, value });
  }
  const { learning, today } = pooled;
  const naivePerJob = firstSeed.get(LEARNED)?.naive.perJob;
  figures.push(
    { measure: 'learned durations: requests per job', value: `${learning.perJob.toFixed(2)} (fixed backoff ${today.perJob.toFixed(2)}${naivePerJob === undefined ? '' : `, naive ${naivePerJob.toFixed(1)}`})`, target: `≤ ${TARGETS.perJob}`, met: learning.perJob <= TARGETS.perJob },
    { measure: 'learned durations: mean latency', value: `${(learning.mean / 1000).toFixed(2)} s`, target: `≤ ${TARGETS.meanMs / 1000} s`, met: learning.mean <= TARGETS.meanMs },
    { measure: 'learned durations: p95 latency (pooled)', value: `${(learning.p95 / 1000).toFixed(2)} s (${Math.min(...learning.p95s).toFixed(1)}–${Math.max(...learning.p95s).toFixed(1)} s per seed)`, target: `≤ ${TARGETS.p95Ms / 1000} s`, met: learning.p95 <= TARGETS.p95Ms },
  );
  const progress = firstSeed.get(PROGRESS);
  if (progress) {
    const { learning: l, today: t, naive: n } = progress;
    figures.push(
      { measure: `${PROGRESS.short}: polls per job`, value: `${l.pollsPerJob.toFixed(2)}, ${l.perJob.toFixed(2)} requests with the submit (fixed backoff ${t.pollsPerJob.toFixed(2)}, naive ${n.pollsPerJob.toFixed(1)})`, target: `≤ ${PROGRESS_GUARD.pollsPerJob}`, met: l.pollsPerJob <= PROGRESS_GUARD.pollsPerJob },
      { measure: `${PROGRESS.short}: mean latency`, value: `${(l.latencyMean / 1000).toFixed(2)} s (p95 ${(l.latencyP95 / 1000).toFixed(1)} s)`, target: `≤ ${PROGRESS_GUARD.meanMs / 1000} s`, met: l.latencyMean <= PROGRESS_GUARD.meanMs },
    );
  }
  return figures;
}

async function main(): Promise<void> {
  console.log('Poll bench: the job store, learning (durations of earlier jobs, the gateway\'s Retry-After/eta/progress) vs today');
  console.log(`(backoff 2 s → 30 s only) vs a naive poller (every ${NAIVE_INTERVAL_MS} ms, no cap). All: ≤ 3 in flight, ≥ 100 ms between polls.`);
  console.log('Real client and simulator on loopback, one virtual clock; "completion seen after" = detection delay after the job finished on the gateway.');
  console.log('Figures count the measured jobs (all but the warm-up ones).\n');
  const failures: string[] = [];
  const only = process.env.POLL_BENCH_ONLY;
  const learnedRuns: Array<{ seed: number; learning: RunResult; today: RunResult }> = [];
  const firstSeed = new Map<Scenario, Record<'learning' | 'today' | 'naive', Stats>>();
  const scenarios = SCENARIOS.filter((s) => !only || s.name.includes(only));
  for (const seed of SEEDS) {
    for (const scenario of scenarios.filter((s) => s === LEARNED || seed === SEEDS[0])) {
      const results = { learning: await run(scenario, 'learning', seed), today: await run(scenario, 'today', seed), naive: await run(scenario, 'naive', seed) };
      const [learning, today, naive] = [results.learning, results.today, results.naive].map((r) => stats(scenario, r));
      if (scenario.warmup !== undefined) learnedRuns.push({ seed, ...results });
      console.log(`## ${scenario.name}${scenario === LEARNED && SEEDS.length > 1 ? ` (seed ${seed})` : ''}`);
      console.table(summarize(learning, today, naive));
      for (const [kind, result] of Object.entries(results).filter(([kind]) => kind !== 'naive')) {
        const label = `${scenario.name} (${kind})`;
        if (requestsInsideRetryAfter(result.allRequests) !== 0) failures.push(`${label}: requests inside Retry-After`);
        if (result.idleRequests !== 0 || result.timersLeftIdle !== 0) failures.push(`${label}: activity while idle`);
        if (result.completed !== scenario.jobs - (scenario.warmup ?? 0)) failures.push(`${label}: ${result.completed} measured jobs completed`);
        if (result.simLogged !== result.allRequests.length) failures.push(`${label}: simulator saw ${result.simLogged} requests, client sent ${result.allRequests.length}`);
      }
      if (learning.perJob > today.perJob) failures.push(`${scenario.name}: more requests per job than today (${learning.perJob.toFixed(2)} > ${today.perJob.toFixed(2)})`);
      for (const [label, key] of [['mean', 'latencyMean'], ['p95', 'latencyP95']] as const) {
        const limit = today[key] * (1 + LATENCY_TOLERANCE.fraction) + LATENCY_TOLERANCE.ms;
        if (!(learning[key] <= limit)) {
          failures.push(`${scenario.name}: ${label} latency worse than today's (${(learning[key] / 1000).toFixed(1)} s > ${(today[key] / 1000).toFixed(1)} s + ${LATENCY_TOLERANCE.fraction * 100} % + ${LATENCY_TOLERANCE.ms / 1000} s)`);
        }
      }
      if (seed === SEEDS[0]) firstSeed.set(scenario, { learning, today, naive });
      if (scenario === PROGRESS) {
        // The first two jobs, with nothing to go on, poll through the queue and read twice before a forecast; the
        // others first poll once their progress can say something (when it begins, the first two told), then aim.
        const met = (ok: boolean) => (ok ? 'met' : 'missed');
        const pollsMet = learning.pollsPerJob <= PROGRESS_GUARD.pollsPerJob;
        const meanMet = learning.latencyMean <= PROGRESS_GUARD.meanMs;
        console.log(`Targets (issue 34, progress): ≤ ${PROGRESS_GUARD.pollsPerJob} polls per job ${met(pollsMet)} (${learning.pollsPerJob.toFixed(2)}; ${learning.perJob.toFixed(2)} requests with the submit), ≤ ${PROGRESS_GUARD.meanMs / 1000} s mean ${met(meanMet)} (${(learning.latencyMean / 1000).toFixed(2)} s).`);
        if (!pollsMet || !meanMet) failures.push(`${scenario.name}: guard ≤ ${PROGRESS_GUARD.pollsPerJob} polls per job and ≤ ${PROGRESS_GUARD.meanMs / 1000} s mean latency missed`);
      }
      if (scenario.warmup !== undefined && (learning.perJob > GUARD.perJob || learning.latencyMean > GUARD.meanMs)) {
        failures.push(`${scenario.name}: guard ≤ ${GUARD.perJob} requests per job and ≤ ${GUARD.meanMs / 1000} s mean latency missed (${learning.perJob.toFixed(2)}, ${(learning.latencyMean / 1000).toFixed(2)} s)`);
      }
    }
  }
  const pooled = learnedRuns.length > 0 ? reportLearned(learnedRuns, LEARNED.jobs - (LEARNED.warmup ?? 0), KINDS, TARGETS) : undefined;
  // Only a whole run is a result: one narrowed to a scenario or a seed is for trying things.
  if (pooled && !only && !process.env.POLL_BENCH_SEEDS && !process.env.POLL_BENCH_TUNE && !process.env.NAIVE_INTERVAL_MS) {
    recordResults(
      'poll',
      `the real client and simulator on one virtual clock; requests per job and mean / p95 completion latency, learning / fixed backoff / naive (every job every ${NAIVE_INTERVAL_MS / 1000} s); the learned scenario over ${SEEDS.length} seeds (${learnedRuns.length * (LEARNED.jobs - (LEARNED.warmup ?? 0))} measured jobs, latencies pooled)`,
      resultFigures(firstSeed, pooled),
    );
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
