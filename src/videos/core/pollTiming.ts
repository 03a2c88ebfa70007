// When to poll one job, from what is known about when it will finish: what the gateway says (a Retry-After on
// its answer, `eta`, `progress`) and how long earlier jobs of the same kind took. Pure: PollScheduler owns the
// timers and calls these with the time.
import type { VideoJob } from '../../gateway/types';
import type { DurationHistory, JobShape } from './durationHistory';
import { isSuccessStatus } from './dialects/status';
import { lazy } from '../../util/lazy';
import { combinedForecast, median, progressForecast, progressStartMs, readingForecast, RecentSpans, spanFromMarks, type Forecast, type ProgressMark, type ProgressSpan } from './progressForecast';

export { progressForecast, type Forecast, type ProgressMark } from './progressForecast';

// The planner is its own file in the bundle, loaded with the first job of a kind that has a history, not at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pollPlan = lazy(() => require('./pollPlan') as typeof import('./pollPlan'));

/** A forecast whose earliest and latest lie this close is aimed at its latest (see JobTiming.nextIntervalMs). */
const NARROW_FORECAST_MS = 4_000;

/**
 * A job of a kind whose progress is known to begin some time after submission is first polled this long after that
 * (or when the shortest job of its kind ended, if sooner): every poll before it could only read 0 %, and a reading then
 * is at least 5 % (enough for a forecast) in jobs of up to 200 s.
 */
const FIRST_READING_MS = 10_000;

/** The scheduler's options that shape one job's schedule. */
export interface TimingOptions {
  /** Uniform in [0, 1); injected so tests can pin jitter. */
  random?: () => number;
  minIntervalMs?: number;
  maxIntervalMs?: number;
  backoffFactor?: number;
  /** Each interval is shortened by up to this fraction, so it never exceeds the cap. */
  jitter?: number;
  /** Longest wait the gateway may impose (a 429's pause, a Retry-After on an answer); default 1 hour. */
  maxPauseMs?: number;
  /** Durations of earlier jobs: a job of a known kind is polled around its expected completion. */
  history?: DurationHistory;
  /** Honour a Retry-After on answers and the `eta` and `progress` fields (default true). */
  gatewayHints?: boolean;
  /** Earlier jobs of the same kind needed before their durations plan the polls (default 3). */
  minSamples?: number;
  /**
   * What the learned plan weighs against one poll: a second of unseen completion (default 1), and a completion
   * seen more than `lateAfterMs` (default 4 s) after it happened (default 30 polls). See pollPlan.ts.
   */
  delayCostPerS?: number;
  lateAfterMs?: number;
  lateCost?: number;
  /** Longest gap before a learned plan's first poll or a forecast (default 10 minutes), so an early failure is still seen. */
  maxQuietMs?: number;
  /** Unfocused, a cadence is multiplied by this (default 4), and is at least `unfocusedFloorMs` (default 60 s). */
  unfocusedMultiplier?: number;
  unfocusedFloorMs?: number;
  /** Pause after a 429 that carries no Retry-After (default 30 s). */
  defaultRateLimitPauseMs?: number;
}

/** What a job's duration depends on, and when it was submitted (for the learned schedule and the history). */
export interface JobProfile {
  model: string;
  resolution?: string;
  duration?: number;
  submittedAt: number;
}

export interface TimingPolicy {
  minIntervalMs: number;
  maxIntervalMs: number;
  backoffFactor: number;
  /** Each interval is shortened by up to this fraction. */
  jitter: number;
  random: () => number;
  /** Read Retry-After on answers, `eta` and `progress` (off: the schedule of version 1, for the bench). */
  gatewayHints: boolean;
  /** Fewest earlier durations of the same kind before they plan the polls. */
  minSamples: number;
  /** The learned plan's costs (pollPlan.ts). */
  delayCostPerS: number;
  lateAfterMs: number;
  lateCost: number;
  /** Longest gap before a learned plan's first poll or a forecast, so that a job failing early is still seen soon. */
  maxQuietMs: number;
  /** Longest wait a gateway may ask for (a Retry-After, a pause after a 429). */
  maxWaitMs: number;
  unfocusedMultiplier: number;
  unfocusedFloorMs: number;
  defaultRateLimitPauseMs: number;
  /** Keep each origin observed while its jobs wait for learned plans or forecasts (on with history or hints). */
  originWatch: boolean;
  history: DurationHistory | undefined;
  /** When progress began and will end in recent jobs, as their marks told: shared by the scheduler's jobs, kept across a change of bounds. */
  recentSpans: RecentSpans;
}

export function timingPolicy(options: TimingOptions): TimingPolicy {
  const minIntervalMs = options.minIntervalMs ?? 2_000;
  const gatewayHints = options.gatewayHints ?? true;
  return {
    minIntervalMs,
    maxIntervalMs: Math.max(minIntervalMs, options.maxIntervalMs ?? 30_000),
    backoffFactor: Math.max(1, options.backoffFactor ?? 2),
    jitter: Math.min(1, Math.max(0, options.jitter ?? 0.2)),
    random: options.random ?? Math.random,
    gatewayHints,
    minSamples: Math.max(1, options.minSamples ?? 3),
    delayCostPerS: Math.max(0, options.delayCostPerS ?? 1),
    lateAfterMs: Math.max(0, options.lateAfterMs ?? 4_000),
    lateCost: Math.max(0, options.lateCost ?? 30),
    maxQuietMs: Math.max(minIntervalMs, options.maxQuietMs ?? 10 * 60_000),
    maxWaitMs: Math.max(minIntervalMs, options.maxPauseMs ?? 60 * 60_000),
    unfocusedMultiplier: Math.max(1, options.unfocusedMultiplier ?? 4),
    unfocusedFloorMs: Math.max(0, options.unfocusedFloorMs ?? 60_000),
    defaultRateLimitPauseMs: options.defaultRateLimitPauseMs ?? 30_000,
    originWatch: gatewayHints || options.history !== undefined,
    history: options.history,
    recentSpans: new RecentSpans(),
  };
}

/** Un-jittered backoff interval before the poll that follows `step` earlier polls: min × factor^step, capped. */
export function backoffIntervalMs(policy: TimingPolicy, step: number): number {
  return Math.min(policy.maxIntervalMs, policy.minIntervalMs * Math.pow(policy.backoffFactor, step));
}

export function jittered(policy: TimingPolicy, ms: number): number {
  return ms * (1 - policy.jitter * policy.random());
}

/** A cadence as it runs while the window is unfocused: multiplied, and at least the floor. */
export function unfocusedMs(policy: TimingPolicy, cadenceMs: number): number {
  return Math.max(cadenceMs * policy.unfocusedMultiplier, policy.unfocusedFloorMs);
}

/**
 * How long a 429 pauses its origin: the Retry-After asked for (or the default), at least the minimum interval
 * so that `Retry-After: 0` cannot make a hot loop, at most the longest wait so that a huge one is not days.
 */
export function rateLimitWaitMs(policy: TimingPolicy, retryAfterMs: number | undefined): number {
  const asked = retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : policy.defaultRateLimitPauseMs;
  return Math.min(Math.max(asked, policy.minIntervalMs), policy.maxWaitMs);
}

/**
 * Longest an origin with `pending` jobs may go unheard from, or undefined when every wait is a plain backoff
 * (at most the cap). Jobs submitted together wait for the same learned plan or forecast together, and an origin-wide
 * change (a 429 storm that answers whatever comes next, a revoked key, an outage) would stay unseen until they all
 * wake. N jobs whose quiet spells (each at most `maxQuietMs`) do not line up hear from the origin about every
 * maxQuietMs / N; the watch keeps that, for at most one extra poll per job per `maxQuietMs`.
 */
export function originWatchMs(policy: TimingPolicy, pending: number, focused: boolean): number | undefined {
  if (!policy.originWatch || pending <= 0) return undefined;
  const ms = Math.max(policy.minIntervalMs, policy.maxQuietMs / pending);
  return focused ? ms : unfocusedMs(policy, ms);
}

/** What an answer says about timing: `progress` (percent, 0–100) and `eta` (seconds left), when well-formed. */
export function gatewayTiming(job: VideoJob, maxWaitMs: number): { progress?: number; etaMs?: number } {
  const result: { progress?: number; etaMs?: number } = {};
  const progress = numberOf(job.progress);
  if (progress !== undefined && progress >= 0 && progress <= 100) result.progress = progress;
  const eta = numberOf(job.eta);
  if (eta !== undefined && eta >= 0) result.etaMs = Math.min(eta * 1000, maxWaitMs);
  return result;
}

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * How long a completed job took from submission, for the history. The completion happened after the last poll
 * that saw the job running (`lastOpenAt`) and before `now`; the gateway's `created` and `completed_at` narrow it
 * when present. A job seen completed on its first poll counts as taking until then: an upper bound, which keeps
 * the learned plan from creeping down on guesses.
 */
export function completedDurationMs(job: VideoJob, submittedAt: number, lastOpenAt: number | undefined, now: number): number {
  const upper = Math.max(0, now - submittedAt);
  if (lastOpenAt === undefined) return clampTo(serverDurationMs(job) ?? upper, 0, upper);
  const lower = Math.min(upper, Math.max(0, lastOpenAt - submittedAt));
  return clampTo(serverDurationMs(job) ?? (lower + upper) / 2, lower, upper);
}

/** `completed_at − created`, both Unix times (seconds, or ms when that large). */
function serverDurationMs(job: VideoJob): number | undefined {
  const created = epochMs(job.created);
  const completed = epochMs(job.completed_at);
  return created !== undefined && completed !== undefined && completed >= created ? completed - created : undefined;
}

function epochMs(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return value > 1e12 ? value : value * 1000;
}

function clampTo(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** What the origin watch reads of a tracked job. */
export interface WatchedJob {
  origin: string;
  /** A poll for it is on the wire. */
  busy: boolean;
  /** When its current wait began: its last answer, or when it was tracked. */
  since: number;
  /** The gateway asked that it not be polled before then. */
  heldUntil: number | undefined;
}

/**
 * Keeps every origin with pending jobs heard from at least every `originWatchMs`: when nothing has polled it for
 * that long, the job that has waited longest is polled early (not one the gateway asked to wait).
 */
export class OriginWatch {
  private readonly origins = new Map<string, { jobs: number; heardAt: number }>();

  constructor(private readonly policy: TimingPolicy) {}

  /** A job of `origin` is tracked; a new origin counts as heard from now. */
  add(origin: string, now: number): void {
    const state = this.origins.get(origin);
    if (state) state.jobs++;
    else this.origins.set(origin, { jobs: 1, heardAt: now });
  }

  /** A job of `origin` is no longer tracked. */
  drop(origin: string): void {
    const state = this.origins.get(origin);
    if (state && --state.jobs <= 0) this.origins.delete(origin);
  }

  /** `origin` answered a poll. */
  heard(origin: string, now: number): void {
    const state = this.origins.get(origin);
    if (state) state.heardAt = now;
  }

  clear(): void {
    this.origins.clear();
  }

  /** For each origin that nothing is polling, the job to poll to keep it observed, and when. */
  due<T>(jobs: Iterable<T>, view: (job: T) => WatchedJob, now: number, focused: boolean): Map<T, number> {
    const picks = new Map<string, { job: T; since: number } | 'busy'>();
    for (const job of jobs) {
      const { origin, busy, since, heldUntil } = view(job);
      const pick = picks.get(origin);
      if (pick === 'busy') continue;
      if (busy) picks.set(origin, 'busy');
      else if ((heldUntil ?? now) <= now && (!pick || since < pick.since)) picks.set(origin, { job, since });
    }
    const due = new Map<T, number>();
    for (const [origin, pick] of picks) {
      const state = this.origins.get(origin);
      const watchMs = state && originWatchMs(this.policy, state.jobs, focused);
      if (state && pick !== 'busy' && watchMs !== undefined) due.set(pick.job, state.heardAt + watchMs);
    }
    return due;
  }
}

/** What a poll's answer carried, besides the status. */
export interface AnswerHints {
  job?: VideoJob;
  /** A Retry-After on the answer (a 200, or an error other than 429). */
  retryAfterMs?: number;
}

/**
 * The schedule of one job beyond plain backoff. Without a learned plan and without hints from the gateway
 * every interval is the caller's backoff, so the job is polled exactly as it was before any of this existed.
 */
export class JobTiming {
  /** When to poll (absolute ms), planned from the durations of earlier jobs of the same kind (pollPlan.ts). */
  readonly plan: readonly number[] | undefined;
  /** When the last poll that found the job still running started. */
  private lastOpenAt: number | undefined;
  private firstMark: ProgressMark | undefined;
  private lastMark: ProgressMark | undefined;
  /** Progress began no earlier than this: the submission, or the last poll that still found 0 %. */
  private startedBy: number | undefined;
  private etaAt: number | undefined;
  /** The forecast completion that set the pending poll's time. */
  private forecastAt: number | undefined;
  /** Polls at or after a forecast completion that found the job still running. */
  private misses = 0;
  private pastPlanPolls = 0;
  /** The gateway asked that this job not be polled before then (a Retry-After on its last answer). */
  heldUntil: number | undefined;
  /** The history's key for this job: jobs of the same origin, model, resolution and length. */
  private readonly shape: JobShape | undefined;
  /** The same, as the recent spans' key: what earlier or running jobs of the kind tell applies to this one. */
  private readonly kind: string | undefined;

  constructor(
    private readonly policy: TimingPolicy,
    origin: string,
    private readonly profile: JobProfile | undefined,
  ) {
    this.shape = profile && { origin, model: profile.model, resolution: profile.resolution, duration: profile.duration };
    const durations = this.shape && policy.history?.durationsMs(this.shape);
    if (profile && durations && durations.length >= policy.minSamples) {
      this.plan = pollPlan().learnedPlan(durations, profile.submittedAt, policy);
    }
    this.startedBy = profile?.submittedAt;
    this.kind = this.shape && JSON.stringify([origin, this.shape.model, this.shape.resolution ?? null, this.shape.duration ?? null]);
  }

  /**
   * The first poll of a job with a learned plan: its next planned poll; of one whose kind's progress is known to begin
   * later than submission: once it has had time to say something (FIRST_READING_MS), or when the shortest job of
   * its kind was done, if sooner. Within the quiet limit.
   */
  firstDueAt(now: number): number | undefined {
    let planned: number | undefined;
    if (this.plan) planned = this.plan.find((at) => at > now) ?? now;
    else {
      const start = this.learnedStartAt();
      if (start === undefined || !this.profile) return undefined;
      const shortest = Math.min(...this.kindDurationsMs());
      planned = Math.min(start + FIRST_READING_MS, this.profile.submittedAt + shortest);
    }
    return Math.min(Math.max(planned, now + this.policy.minIntervalMs), now + this.policy.maxQuietMs);
  }

  /** When this job's progress should begin, as earlier jobs of its kind and recent ones' marks tell (their median). */
  private learnedStartAt(): number | undefined {
    if (!this.policy.gatewayHints || !this.profile || !this.shape) return undefined;
    const starts = [...(this.policy.history?.startsMs(this.shape) ?? []), ...this.recentSpans().map((span) => span.start)];
    return starts.length > 0 ? this.profile.submittedAt + median(starts) : undefined;
  }

  /** How long earlier jobs of this kind took, and recent ones took or will take as their marks told, in ms after submission. */
  private kindDurationsMs(): number[] {
    if (!this.shape) return [];
    return [...(this.policy.history?.durationsMs(this.shape) ?? []), ...this.recentSpans().map((span) => span.end)];
  }

  private recentSpans(): ProgressSpan[] {
    return this.kind === undefined ? [] : this.policy.recentSpans.spans(this.kind, this);
  }

  /** A poll found the job completed at `now` (wall time `at`): its duration joins the history. */
  completed(job: VideoJob, id: string, now: number, at = now): void {
    const history = this.policy.history;
    if (!history || !this.profile || !this.shape || !isSuccessStatus(job.status)) return;
    const ms = completedDurationMs(job, this.profile.submittedAt, this.lastOpenAt, now);
    const mark = this.lastMark && { at: this.lastMark.at - this.profile.submittedAt, percent: this.lastMark.percent };
    const startMs = mark && progressStartMs(mark, ms);
    history.record(this.shape, { ms, at, id, ...(startMs === undefined ? {} : { startMs }) });
  }

  /**
   * The interval after a poll (started at `startedAt`, answered at `now`) that left the job pending, whether it
   * answered or failed; `backoffMs` is the plain schedule's.
   */
  nextIntervalMs(now: number, startedAt: number, hints: AnswerHints, backoffMs: number): number {
    const { minIntervalMs, maxQuietMs, maxWaitMs } = this.policy;
    const useHints = this.policy.gatewayHints;
    if (hints.job) this.lastOpenAt = startedAt;
    if (useHints && hints.job) this.observe(now, startedAt, hints.job);
    if (this.forecastAt !== undefined && now >= this.forecastAt) this.misses++;
    this.forecastAt = undefined;

    let interval = backoffMs;
    const forecast = useHints ? this.forecast() : undefined;
    if (forecast) {
      this.forecastAt = forecast.earliest;
      // First aim at the earliest moment it can be done; once that missed, at the latest. A narrow window is not
      // worth a poll of its own: aim at its end, where one poll sees the job done.
      const narrow = forecast.latest !== undefined && forecast.latest - forecast.earliest <= NARROW_FORECAST_MS;
      const target = this.misses === 0 && !narrow ? forecast.earliest : forecast.latest ?? now;
      const floor = this.misses === 0 ? minIntervalMs : backoffIntervalMs(this.policy, this.misses - 1);
      interval = Math.min(Math.max(target - now, floor), maxQuietMs);
    } else if (this.plan) {
      interval = Math.min(Math.max(this.planIntervalMs(now, this.plan), minIntervalMs), maxQuietMs);
    }
    const asked = useHints ? hints.retryAfterMs : undefined;
    const heldMs = asked !== undefined && asked > 0 ? Math.min(asked, maxWaitMs) : undefined;
    this.heldUntil = heldMs === undefined ? undefined : now + heldMs;
    return heldMs === undefined ? interval : Math.max(interval, heldMs);
  }

  private observe(now: number, startedAt: number, job: VideoJob): void {
    const { progress, etaMs } = gatewayTiming(job, this.policy.maxWaitMs);
    this.etaAt = etaMs === undefined ? undefined : now + etaMs;
    if (progress === 0) this.startedBy = Math.max(this.startedBy ?? startedAt, startedAt);
    // 0 may only mean "still queued", and 100 comes with the final status: neither tells the rate.
    if (progress === undefined || progress <= 0 || progress >= 100) return;
    const mark = { at: now, percent: progress };
    if (!this.firstMark || (this.lastMark && progress < this.lastMark.percent)) this.firstMark = mark;
    this.lastMark = mark;
    const span = this.firstMark !== mark ? spanFromMarks(this.firstMark, mark) : undefined;
    if (span && this.profile && this.kind !== undefined) {
      const submittedAt = this.profile.submittedAt;
      this.policy.recentSpans.note(this.kind, this, { start: Math.max(0, span.start - submittedAt), end: span.end - submittedAt });
    }
  }

  private forecast(): Forecast | undefined {
    if (this.etaAt !== undefined) return { earliest: this.etaAt, latest: this.etaAt };
    if (!this.lastMark) return undefined;
    const twoMarks = this.firstMark && this.firstMark !== this.lastMark ? progressForecast(this.firstMark, this.lastMark) : undefined;
    const reading = this.readingForecast(this.lastMark);
    // An unseen queue between the last 0 % and the reading weighs (1 − p)/p times in a reading's forecast: alone, one
    // is aimed at only when earlier jobs tell when progress begins; its latest bounds a two-mark forecast anyway.
    if (!twoMarks) return reading?.pinned ? reading.forecast : undefined;
    return combinedForecast(twoMarks, reading?.forecast);
  }

  /**
   * From the last reading alone, progress taken to begin when earlier jobs of the kind began theirs (`pinned`), or
   * else no earlier than `startedBy`.
   */
  private readingForecast(mark: ProgressMark): { forecast: Forecast | undefined; pinned: boolean } | undefined {
    if (this.startedBy === undefined) return undefined;
    const learnedStart = this.learnedStartAt();
    const pinned = learnedStart !== undefined && learnedStart >= this.startedBy && learnedStart < mark.at;
    return { forecast: readingForecast(pinned ? learnedStart : this.startedBy, mark), pinned };
  }

  /**
   * To the next planned poll (planned times are aimed, not jittered: the plan already spreads jobs by their
   * submission); past the plan, sparse: the gap doubles after each poll, from the plan's last gap up to the cap.
   */
  private planIntervalMs(now: number, plan: readonly number[]): number {
    const planned = plan.find((at) => at > now);
    if (planned !== undefined) return planned - now;
    this.pastPlanPolls++;
    const lastGap = plan.length > 1 ? plan[plan.length - 1] - plan[plan.length - 2] : this.policy.minIntervalMs;
    const sparse = lastGap * Math.pow(this.policy.backoffFactor, this.pastPlanPolls);
    return jittered(this.policy, Math.min(this.policy.maxIntervalMs, sparse));
  }
}
