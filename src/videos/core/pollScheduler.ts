// Decides when each pending video job is polled. One scheduler serves every gateway origin; it holds at most one
// timer, and none while nothing is pending or everything pending is blocked. When one job is due next (backoff,
// the learned window, the gateway's hints) is pollTiming.ts's; the limits every poll obeys are here. Times kept inside
// are monotonic, so a wall-clock step neither stalls nor hurries polling; times in and out of the API are wall times.
import type { VideoJob } from '../../gateway/types';
import { monotonicFromWall, wallFromMonotonic, type Clock, type TimerHandle } from '../../util/clock';
import { Emitter, type Disposable } from '../../util/events';
import { readError, type ErrorFields } from '../../gateway/errors';
import { classifyPollError } from './errors';
import { backoffIntervalMs, jittered, JobTiming, OriginWatch, rateLimitWaitMs, timingPolicy, unfocusedMs } from './pollTiming';
import type { AnswerHints, TimingPolicy, WatchedJob } from './pollTiming';
import { isFinalStatus } from './dialects/status';

export type { JobProfile } from './pollTiming';
export type { PollTarget, PollFunction, PollSchedulerOptions, PollOutcome, PollEvent, PauseChange, AuthRequired, TrackOptions } from './pollTypes';
import type { PollTarget, PollFunction, PollSchedulerOptions, PollOutcome, PollEvent, PauseChange, AuthRequired, TrackOptions } from './pollTypes';

interface Entry {
  target: PollTarget;
  /** Polls already made (sets the backoff step). */
  pollCount: number;
  /** Backoff step: successful or failed polls that counted towards backoff. */
  step: number;
  /** When the current interval started. */
  scheduledAt: number;
  intervalMs: number;
  /** Next poll time while focused. */
  dueAt: number;
  /** Poll as soon as allowed, whatever the focus (explicit refresh). */
  urgent: boolean;
  inFlight: AbortController | undefined;
  startedAt: number;
  /** A Retry-After on the answer to the poll in flight. */
  answerRetryAfterMs: number | undefined;
  timing: JobTiming;
}

export class PollScheduler implements Disposable {
  private readonly clock: Clock;
  private readonly pollFn: PollFunction;
  private readonly policy: TimingPolicy;
  private timingOptions: PollSchedulerOptions;
  private readonly maxInFlight: number;
  private readonly minGapMs: number;

  private readonly entries = new Map<string, Entry>();
  private readonly pauses = new Map<string, number>();
  /** Origins whose key was refused, with the refusal (the view words it), until the key changes. */
  private readonly authBlocked = new Map<string, ErrorFields>();
  private readonly watch: OriginWatch;
  private focused = true;
  private inFlightCount = 0;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  private timer: TimerHandle | undefined;
  private timerDueAt: number | undefined;
  private disposed = false;

  private readonly pollEmitter = new Emitter<PollEvent>();
  private readonly pauseEmitter = new Emitter<PauseChange>();
  private readonly authEmitter = new Emitter<AuthRequired>();
  readonly onDidPoll = this.pollEmitter.event;
  readonly onDidChangePause = this.pauseEmitter.event;
  readonly onAuthRequired = this.authEmitter.event;

  /** New poll bounds (a settings change) on the live scheduler: every poll planned from now on keeps to them. */
  setIntervals(bounds: { minIntervalMs: number; maxIntervalMs: number }): void {
    this.timingOptions = { ...this.timingOptions, ...bounds };
    // In place: the origin watch and every job's timing hold this policy object.
    Object.assign(this.policy, { ...timingPolicy(this.timingOptions), recentSpans: this.policy.recentSpans });
  }

  constructor(options: PollSchedulerOptions) {
    this.clock = options.clock;
    this.pollFn = options.poll;
    this.timingOptions = options;
    this.policy = timingPolicy(options);
    this.watch = new OriginWatch(this.policy);
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 3);
    this.minGapMs = Math.max(0, options.minGapMs ?? 100);
  }

  /** Un-jittered interval before the poll that follows `step` earlier polls. */
  baseIntervalMs(step: number): number {
    return backoffIntervalMs(this.policy, step);
  }

  /**
   * Starts polling a job (no-op if already tracked). Restored jobs pass their stored schedule; `job` lets the
   * durations of earlier jobs of the same kind plan the polls, and this job's duration join them.
   */
  track(target: PollTarget, options: TrackOptions = {}): void {
    if (this.disposed || this.entries.has(target.key)) return;
    const now = this.clock.monotonic();
    const fromWall = (wall: number | undefined) => (wall === undefined ? undefined : monotonicFromWall(this.clock, wall));
    const timing = new JobTiming(this.policy, target.origin, options.job && { ...options.job, submittedAt: fromWall(options.job.submittedAt)! });
    const pollCount = options.pollCount ?? 0;
    const scheduledAt = fromWall(options.lastPolledAt) ?? now;
    const nextPollAt = fromWall(options.nextPollAt);
    const learnedDueAt = nextPollAt === undefined ? timing.firstDueAt(now) : undefined;
    const intervalMs = learnedDueAt === undefined ? this.jitteredIntervalMs(pollCount) : learnedDueAt - scheduledAt;
    this.entries.set(target.key, {
      target: { ...target },
      pollCount,
      step: pollCount,
      scheduledAt,
      intervalMs,
      dueAt: nextPollAt ?? scheduledAt + intervalMs,
      urgent: false,
      inFlight: undefined,
      startedAt: scheduledAt,
      answerRetryAfterMs: undefined,
      timing,
    });
    this.watch.add(target.origin, now);
    this.pump();
  }

  /** Stops polling a job for good; an in-flight poll for it is aborted and its result ignored. */
  untrack(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.remove(entry);
    entry.inFlight?.abort();
    this.pump();
  }

  isTracked(key: string): boolean {
    return this.entries.has(key);
  }

  /** Polls the job as soon as pauses, the in-flight cap and the rate allow, whatever the focus. */
  pollNow(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (!entry.inFlight) {
      entry.dueAt = Math.min(entry.dueAt, this.clock.monotonic());
      entry.urgent = true;
    }
    this.pump();
    return true;
  }

  pollAllNow(): void {
    const now = this.clock.monotonic();
    for (const entry of this.entries.values()) {
      if (entry.inFlight) continue;
      entry.dueAt = Math.min(entry.dueAt, now);
      entry.urgent = true;
    }
    this.pump();
  }

  /** Unfocused, jobs are polled less often; on focus, jobs already due are polled at once. */
  setFocused(focused: boolean): void {
    if (this.focused === focused) return;
    this.focused = focused;
    this.pump();
  }

  /** When (wall time) polling of `origin` resumes after a 429, or undefined if it is not paused. */
  pausedUntil(origin: string): number | undefined {
    const until = this.pauses.get(origin);
    return until !== undefined && until > this.clock.monotonic() ? wallFromMonotonic(this.clock, until) : undefined;
  }

  isAuthBlocked(origin: string): boolean {
    return this.authBlocked.has(origin);
  }

  /** The refusal that paused polling of `origin` until its key changes, if it is paused so. */
  authFailure(origin: string): ErrorFields | undefined {
    return this.authBlocked.get(origin);
  }

  /** Call once the API key of `origin` has changed: polling resumes, overdue jobs first. */
  resumeAuth(origin: string): void {
    if (this.authBlocked.delete(origin)) this.pump();
  }

  /** Next poll time (wall time) of a tracked job as the current focus sees it. */
  nextPollAt(key: string): number | undefined {
    const entry = this.entries.get(key);
    return entry ? wallFromMonotonic(this.clock, this.effectiveDueAt(entry)) : undefined;
  }

  get pendingCount(): number {
    return this.entries.size;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Whether a timer is armed (for tests: there must be none while idle). */
  get hasTimer(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.cancelTimer();
    for (const entry of this.entries.values()) entry.inFlight?.abort();
    this.entries.clear();
    this.watch.clear();
    this.pollEmitter.dispose();
    this.pauseEmitter.dispose();
    this.authEmitter.dispose();
  }

  private jitteredIntervalMs(step: number): number {
    return jittered(this.policy, this.baseIntervalMs(step));
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry.target.key);
    this.watch.drop(entry.target.origin);
  }

  private effectiveDueAt(entry: Entry): number {
    if (this.focused || entry.urgent) return entry.dueAt;
    // A long wait for an expected completion is not a cadence: only the backoff's range is slowed down.
    const cadence = Math.min(entry.intervalMs, this.policy.maxIntervalMs);
    return Math.max(entry.dueAt, entry.scheduledAt + unfocusedMs(this.policy, cadence));
  }

  /** Earliest time the entry may be polled, or undefined while its origin waits for a new key. */
  private earliestStartAt(entry: Entry, now: number, watchAt = Number.POSITIVE_INFINITY): number | undefined {
    const origin = entry.target.origin;
    if (this.authBlocked.has(origin)) return undefined;
    const pause = this.pauses.get(origin);
    const due = Math.min(this.effectiveDueAt(entry), watchAt);
    return pause !== undefined && pause > now ? Math.max(due, pause) : due;
  }

  /** The idle entry that may start first, and when. */
  private nextStart(now: number): { entry: Entry; at: number } | undefined {
    const watch = this.watch.due(this.entries.values(), watchedJob, now, this.focused);
    let next: { entry: Entry; at: number } | undefined;
    for (const entry of this.entries.values()) {
      if (entry.inFlight) continue;
      const at = this.earliestStartAt(entry, now, watch.get(entry));
      if (at !== undefined && (!next || at < next.at)) next = { entry, at };
    }
    return next;
  }

  private expirePauses(now: number): void {
    for (const [origin, until] of this.pauses) {
      if (until <= now) {
        this.pauses.delete(origin);
        this.pauseEmitter.fire({ origin, pausedUntil: undefined });
      }
    }
  }

  /** Starts every poll that may start now, then arms one timer for the next moment anything can start. */
  private pump(): void {
    if (this.disposed) return;
    const now = this.clock.monotonic();
    this.expirePauses(now);
    while (this.inFlightCount < this.maxInFlight && now >= this.lastStartAt + this.minGapMs) {
      const next = this.nextStart(now);
      if (!next || next.at > now) break;
      this.start(next.entry, now);
    }
    this.armTimer(now);
  }

  private armTimer(now: number): void {
    const next = this.inFlightCount < this.maxInFlight ? this.nextStart(now) : undefined;
    const wakeAt = next && Math.max(next.at, this.lastStartAt + this.minGapMs);
    if (wakeAt === this.timerDueAt && this.timer !== undefined) return;
    this.cancelTimer();
    if (wakeAt === undefined) return;
    this.timerDueAt = wakeAt;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.timerDueAt = undefined;
      this.pump();
    }, Math.max(0, wakeAt - now));
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDueAt = undefined;
  }

  private start(entry: Entry, now: number): void {
    const controller = new AbortController();
    entry.inFlight = controller;
    entry.urgent = false;
    entry.pollCount++;
    entry.startedAt = now;
    entry.answerRetryAfterMs = undefined;
    this.inFlightCount++;
    this.lastStartAt = now;
    const onRetryAfter = (ms: number): void => {
      if (Number.isFinite(ms) && ms >= 0) entry.answerRetryAfterMs = ms;
    };
    let request: Promise<VideoJob>;
    try {
      request = this.pollFn({ ...entry.target }, controller.signal, onRetryAfter);
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (job) => this.finish(entry, controller, { kind: 'job', job }),
      (error: unknown) => this.finish(entry, controller, { kind: 'error', error }),
    );
  }

  private finish(
    entry: Entry,
    controller: AbortController,
    result: { kind: 'job'; job: VideoJob } | { kind: 'error'; error: unknown },
  ): void {
    this.inFlightCount--;
    entry.inFlight = undefined;
    const stillTracked = !this.disposed && this.entries.get(entry.target.key) === entry && !controller.signal.aborted;
    if (!stillTracked) {
      this.pump();
      return;
    }
    const now = this.clock.monotonic();
    this.watch.heard(entry.target.origin, now);
    const outcome = result.kind === 'job' ? this.statusOutcome(result.job) : this.errorOutcome(entry, result.error, now);
    if (outcome) {
      this.apply(entry, outcome, now);
      this.pollEmitter.fire({
        target: { ...entry.target },
        outcome: outcome.kind === 'rate_limited' ? { ...outcome, pausedUntil: wallFromMonotonic(this.clock, outcome.pausedUntil) } : outcome,
        polledAt: this.clock.now(),
        pollCount: entry.pollCount,
        nextPollAt: this.nextPollAt(entry.target.key),
      });
    }
    this.pump();
  }

  private statusOutcome(job: VideoJob): PollOutcome {
    return { kind: 'status', job, final: isFinalStatus(job.status) };
  }

  private errorOutcome(entry: Entry, raw: unknown, now: number): PollOutcome | undefined {
    const error = readError(raw);
    switch (classifyPollError(error)) {
      case 'not_found':
        return { kind: 'not_found', error };
      case 'auth':
        return { kind: 'auth', error };
      case 'rate_limited': {
        const pausedUntil = now + rateLimitWaitMs(this.policy, error.retryAfterMs);
        return { kind: 'rate_limited', error, pausedUntil: Math.max(pausedUntil, this.pauses.get(entry.target.origin) ?? 0) };
      }
      case 'aborted':
        // Aborted by someone else than this scheduler: try again on the normal schedule.
        return { kind: 'transient', error };
      case 'transient':
        return { kind: 'transient', error };
    }
  }

  private apply(entry: Entry, outcome: PollOutcome, now: number): void {
    const origin = entry.target.origin;
    switch (outcome.kind) {
      case 'status':
        if (outcome.final) {
          this.remove(entry);
          entry.timing.completed(outcome.job, entry.target.id, now, this.clock.now());
        } else {
          this.backOff(entry, now, { job: outcome.job, retryAfterMs: entry.answerRetryAfterMs });
        }
        return;
      case 'not_found':
        this.remove(entry);
        return;
      case 'auth':
        // The job stays due; it is polled once the key changes.
        entry.dueAt = Math.min(entry.dueAt, now);
        if (!this.authBlocked.has(origin)) {
          this.authBlocked.set(origin, outcome.error);
          this.authEmitter.fire({ origin, status: outcome.error.status, error: outcome.error });
        }
        return;
      case 'rate_limited': {
        entry.dueAt = Math.min(entry.dueAt, now);
        const previous = this.pauses.get(origin);
        if (previous === undefined || outcome.pausedUntil > previous) {
          this.pauses.set(origin, outcome.pausedUntil);
          this.pauseEmitter.fire({ origin, pausedUntil: wallFromMonotonic(this.clock, outcome.pausedUntil) });
        }
        return;
      }
      case 'transient':
        this.backOff(entry, now, { retryAfterMs: outcome.error.retryAfterMs });
        return;
    }
  }

  private backOff(entry: Entry, now: number, hints: AnswerHints): void {
    entry.step++;
    entry.intervalMs = entry.timing.nextIntervalMs(now, entry.startedAt, hints, this.jitteredIntervalMs(entry.step));
    entry.scheduledAt = now;
    entry.dueAt = now + entry.intervalMs;
  }
}

function watchedJob(entry: Entry): WatchedJob {
  return { origin: entry.target.origin, busy: entry.inFlight !== undefined, since: entry.scheduledAt, heldUntil: entry.timing.heldUntil };
}
