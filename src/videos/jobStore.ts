// Owns the video jobs: their records, their persistence and their polling. Pure: storage, clock and gateway access
// are injected, so it runs the same in the extension host, in tests and in the bench.
import type { Memento } from '../util/memento';
import type { GatewayApi, VideoRequest } from '../gateway/types';
import type { Clock } from '../util/clock';
import { Emitter, type Disposable, type Event } from '../util/events';
import { readError, type ErrorFields } from '../gateway/errors';
import { MissingApiKeyError } from './errors';
import {
  applyGatewayJob,
  errorFromGateway,
  isFinalRecord,
  isPollable,
  isStoredRecord,
  recordFromRequest,
  requestFromRecord,
  type VideoJobRecord,
} from './jobRecord';
import {
  PollScheduler,
  type AuthRequired,
  type JobProfile,
  type PauseChange,
  type PollEvent,
  type PollSchedulerOptions,
} from './pollScheduler';


export const VIDEO_JOBS_STORAGE_KEY = 'modelGateway.videoJobs.v1';

export interface JobStoreOptions {
  storage: Memento;
  clock: Clock;
  /** The API for a gateway origin, or undefined when there is no key for it (its polling then waits). */
  apiFor: (origin: string) => GatewayApi | undefined;
  scheduler?: Omit<PollSchedulerOptions, 'clock' | 'poll'>;
  storageKey?: string;
  /** Receives persistence failures; the store keeps working from memory. */
  onPersistError?: (error: unknown) => void;
  newKey?: () => string;
}

export interface JobsChange {
  /** Keys of records added, changed or removed. */
  keys: string[];
}

export class JobStore implements Disposable {
  private readonly records = new Map<string, VideoJobRecord>();
  private readonly storage: Memento;
  private readonly storageKey: string;
  private readonly clock: Clock;
  private readonly apiFor: (origin: string) => GatewayApi | undefined;
  private readonly onPersistError: (error: unknown) => void;
  private readonly newKey: () => string;
  private readonly scheduler: PollScheduler;
  private readonly disposables: Disposable[] = [];
  private saving: Promise<void> = Promise.resolve();
  private queuedWrite: Promise<void> | undefined;
  /** Copies of the records as last written (never mutated, so storage may keep references to them). */
  private readonly snapshot = new Map<string, VideoJobRecord>();
  private readonly dirty = new Set<string>();
  private keyCounter = 0;

  private readonly changeEmitter = new Emitter<JobsChange>();
  private readonly finishEmitter = new Emitter<VideoJobRecord>();
  readonly onDidChange = this.changeEmitter.event;
  /** A job reached a final state (completed, failed, …, or not found on the gateway). */
  readonly onDidFinish = this.finishEmitter.event;
  readonly onDidChangePause: Event<PauseChange>;
  readonly onAuthRequired: Event<AuthRequired>;

  constructor(options: JobStoreOptions) {
    this.storage = options.storage;
    this.storageKey = options.storageKey ?? VIDEO_JOBS_STORAGE_KEY;
    this.clock = options.clock;
    this.apiFor = options.apiFor;
    this.onPersistError = options.onPersistError ?? (() => undefined);
    this.newKey = options.newKey ?? (() => `job-${this.clock.now().toString(36)}-${(this.keyCounter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
    this.scheduler = new PollScheduler({
      ...options.scheduler,
      clock: this.clock,
      poll: (target, signal, onRetryAfter) => {
        const api = this.apiFor(target.origin);
        if (!api) return Promise.reject(new MissingApiKeyError(target.origin));
        return api.getVideo(target.id, { signal, maxRetries: 0, onRetryAfter });
      },
    });
    this.onDidChangePause = this.scheduler.onDidChangePause;
    this.onAuthRequired = this.scheduler.onAuthRequired;
    this.disposables.push(this.scheduler.onDidPoll((event) => this.onPolled(event)));
    this.restore();
  }

  /** Newest first; only one origin's jobs when given. Copies: edit through the store's methods. */
  jobs(origin?: string): VideoJobRecord[] {
    return [...this.records.values()]
      .filter((record) => origin === undefined || record.origin === origin)
      .sort((a, b) => b.createdAt - a.createdAt || (a.key < b.key ? 1 : -1))
      .map(cloneRecord);
  }

  get(key: string): VideoJobRecord | undefined {
    const record = this.records.get(key);
    return record && cloneRecord(record);
  }

  /** Jobs still in progress: being submitted or polled. */
  get runningCount(): number {
    let count = 0;
    for (const record of this.records.values()) if (record.localState === 'submitting' || isPollable(record)) count++;
    return count;
  }

  /**
   * Submits a job. A 'submitting' record is stored first; the gateway's answer replaces it and is persisted before
   * any event fires or this returns. If the request may have reached the gateway without an answer, the record
   * turns 'uncertain' and is returned (never resubmitted automatically). A definite refusal removes the record and
   * rethrows the error.
   */
  async submit(origin: string, request: VideoRequest): Promise<VideoJobRecord> {
    return this.submitReplacing(origin, request, undefined);
  }

  /** Submits a job's request again as a new job; an uncertain original is replaced by it. */
  async resubmit(key: string): Promise<VideoJobRecord> {
    const original = this.records.get(key);
    if (!original) throw new Error(`Unknown video job ${key}`);
    if (original.localState === 'submitting') throw new Error('This job is still being submitted');
    const replaces = original.localState === 'uncertain' ? key : undefined;
    return this.submitReplacing(original.origin, requestFromRecord(original), replaces);
  }

  /**
   * Ties an uncertain submission to the job the gateway did create (its id, for example from the gateway's
   * console): the job is fetched once, then tracked like any other. Rejects when the gateway does not know it.
   */
  async adopt(key: string, id: string): Promise<VideoJobRecord> {
    const record = this.records.get(key);
    if (!record) throw new Error(`Unknown video job ${key}`);
    if (record.localState !== 'uncertain') throw new Error('Only a submission whose outcome is unknown can be given a job id');
    const api = this.apiFor(record.origin);
    if (!api) throw new MissingApiKeyError(record.origin);
    const job = await api.getVideo(id.trim());
    if (!this.records.has(key)) return cloneRecord(record);
    applyGatewayJob(record, { ...job, id: job.id || id.trim() }, this.clock.now());
    if (isPollable(record)) this.scheduler.track({ key, origin: record.origin, id: record.id! }, { job: jobProfile(record) });
    record.nextPollAt = this.scheduler.nextPollAt(key);
    await this.persist(key);
    this.changeEmitter.fire({ keys: [key] });
    if (isFinalRecord(record)) this.finishEmitter.fire(cloneRecord(record));
    return cloneRecord(record);
  }

  /** Forgets a job: the only way a job leaves the list apart from clearFinished. */
  async remove(key: string): Promise<boolean> {
    if (!this.records.delete(key)) return false;
    this.scheduler.untrack(key);
    await this.persist(key);
    this.changeEmitter.fire({ keys: [key] });
    return true;
  }

  /** Removes jobs in a final state; returns how many went. */
  async clearFinished(): Promise<number> {
    const keys = [...this.records.values()].filter(isFinalRecord).map((record) => record.key);
    if (keys.length === 0) return 0;
    for (const key of keys) {
      this.records.delete(key);
      this.scheduler.untrack(key);
    }
    await this.persist(...keys);
    this.changeEmitter.fire({ keys });
    return keys.length;
  }

  /** Polls a pending job now (still within rate-limit pauses and the in-flight cap). False if it is not polled. */
  refresh(key: string): boolean {
    return this.scheduler.pollNow(key);
  }

  refreshAll(): void {
    this.scheduler.pollAllNow();
  }

  setFocused(focused: boolean): void {
    this.scheduler.setFocused(focused);
  }

  pausedUntil(origin: string): number | undefined {
    return this.scheduler.pausedUntil(origin);
  }

  isAuthBlocked(origin: string): boolean {
    return this.scheduler.isAuthBlocked(origin);
  }

  /** Call when the API key of an origin changed: polling that waited for it resumes. */
  resumeAuth(origin: string): void {
    this.scheduler.resumeAuth(origin);
  }

  /** Resolves once everything changed so far is written to storage. */
  flush(): Promise<void> {
    return this.saving;
  }

  dispose(): void {
    this.scheduler.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.changeEmitter.dispose();
    this.finishEmitter.dispose();
  }

  private async submitReplacing(origin: string, request: VideoRequest, replaces: string | undefined): Promise<VideoJobRecord> {
    const api = this.apiFor(origin);
    if (!api) throw new MissingApiKeyError(origin);
    const record = recordFromRequest(this.newKey(), origin, request, this.clock.now());
    this.records.set(record.key, record);
    await this.persist(record.key);
    this.changeEmitter.fire({ keys: [record.key] });

    let outcome: { job: Awaited<ReturnType<GatewayApi['submitVideo']>> } | { error: ErrorFields; raw: unknown };
    try {
      outcome = { job: await api.submitVideo(request) };
    } catch (raw) {
      outcome = { error: readError(raw), raw };
    }
    if (!this.records.has(record.key)) return cloneRecord(record); // removed by the user meanwhile

    const changed = [record.key];
    const now = this.clock.now();
    if ('job' in outcome && outcome.job.id) {
      applyGatewayJob(record, outcome.job, now);
    } else if ('job' in outcome) {
      markUncertain(record, { message: 'The gateway accepted the job but sent no job id', code: 'bad_response' }, now);
    } else if (mayHaveReachedGateway(outcome.error)) {
      markUncertain(record, errorFromGateway(outcome.error), now);
    } else {
      this.records.delete(record.key);
      await this.persist(record.key);
      this.changeEmitter.fire({ keys: changed });
      throw outcome.raw;
    }
    if (replaces !== undefined && this.records.delete(replaces)) changed.push(replaces);
    if (isPollable(record)) this.scheduler.track({ key: record.key, origin, id: record.id! }, { job: jobProfile(record) });
    record.nextPollAt = this.scheduler.nextPollAt(record.key);
    await this.persist(...changed);
    this.changeEmitter.fire({ keys: changed });
    if (isFinalRecord(record)) this.finishEmitter.fire(cloneRecord(record));
    return cloneRecord(record);
  }

  private onPolled(event: PollEvent): void {
    const record = this.records.get(event.target.key);
    if (!record) return;
    const { outcome, polledAt } = event;
    record.lastPolledAt = polledAt;
    record.pollCount = event.pollCount;
    record.nextPollAt = event.nextPollAt;
    record.updatedAt = polledAt;
    const wasFinal = isFinalRecord(record);
    switch (outcome.kind) {
      case 'status':
        applyGatewayJob(record, outcome.job, polledAt);
        break;
      case 'not_found':
        record.localState = 'not_found';
        record.completedAt ??= polledAt;
        record.error = errorFromGateway(outcome.error);
        delete record.nextPollAt;
        break;
      case 'auth':
      case 'rate_limited':
      case 'transient':
        // The job itself is unchanged; the scheduler keeps it and waits.
        break;
    }
    void this.persist(record.key);
    this.changeEmitter.fire({ keys: [record.key] });
    if (!wasFinal && isFinalRecord(record)) this.finishEmitter.fire(cloneRecord(record));
  }

  private restore(): void {
    const stored = this.storage.get<unknown>(this.storageKey);
    const list = Array.isArray(stored) ? stored : [];
    const interrupted: string[] = [];
    for (const value of list) {
      if (!isStoredRecord(value)) continue;
      const record = normalizeStored(value);
      if (record.localState === 'submitting') {
        // The window closed before the gateway answered: the job may or may not exist.
        markUncertain(record, { message: 'The extension stopped before the gateway answered' }, record.updatedAt);
        interrupted.push(record.key);
      }
      this.records.set(record.key, record);
      this.snapshot.set(record.key, cloneRecord(record));
    }
    for (const record of this.records.values()) {
      if (!isPollable(record)) continue;
      this.scheduler.track(
        { key: record.key, origin: record.origin, id: record.id! },
        { nextPollAt: record.nextPollAt, lastPolledAt: record.lastPolledAt, pollCount: record.pollCount, job: jobProfile(record) },
      );
    }
    if (interrupted.length > 0) void this.persist(...interrupted);
  }

  /**
   * Queues a write of every record, the changed ones (`keys`) copied afresh; resolves when a snapshot at least this
   * recent is stored. Unchanged records reuse their last copy, so a poll does not copy the whole list.
   */
  private persist(...keys: string[]): Promise<void> {
    for (const key of keys) this.dirty.add(key);
    // A write that has not started yet will take the latest state anyway: share it.
    if (this.queuedWrite) return this.queuedWrite;
    const write = this.saving.then(async () => {
      this.queuedWrite = undefined;
      for (const key of this.dirty) {
        const record = this.records.get(key);
        if (record) this.snapshot.set(key, cloneRecord(record));
        else this.snapshot.delete(key);
      }
      this.dirty.clear();
      const list = [...this.records.keys()].map((key) => this.snapshot.get(key)).filter((r): r is VideoJobRecord => r !== undefined);
      try {
        await this.storage.update(this.storageKey, list);
      } catch (error) {
        this.onPersistError(error);
      }
    });
    this.queuedWrite = write;
    this.saving = write;
    return write;
  }
}

/** What the scheduler needs to learn this job's duration and plan from earlier ones. */
function jobProfile(record: VideoJobRecord): JobProfile {
  return { model: record.model, resolution: record.parameters.resolution, duration: record.parameters.duration, submittedAt: record.createdAt };
}

function mayHaveReachedGateway(error: ErrorFields): boolean {
  return error.outcomeUnknown === true || (error.status !== undefined && error.status >= 500);
}

function markUncertain(record: VideoJobRecord, error: VideoJobRecord['error'], now: number): void {
  record.localState = 'uncertain';
  record.error = error;
  record.updatedAt = now;
  delete record.nextPollAt;
}

function normalizeStored(value: VideoJobRecord): VideoJobRecord {
  const record = cloneRecord(value);
  record.pollCount = typeof record.pollCount === 'number' ? record.pollCount : 0;
  record.updatedAt = typeof record.updatedAt === 'number' ? record.updatedAt : record.createdAt;
  return record;
}

/** A copy sharing nothing mutable with the original (cheaper than structuredClone, which showed in the bench). */
function cloneRecord(record: VideoJobRecord): VideoJobRecord {
  const copy: VideoJobRecord = { ...record, parameters: { ...record.parameters }, resultUrls: [...record.resultUrls] };
  if (record.parameters.extra) copy.parameters.extra = structuredClone(record.parameters.extra);
  if (record.inputExtra) copy.inputExtra = structuredClone(record.inputExtra);
  if (record.error) copy.error = { ...record.error };
  return copy;
}
