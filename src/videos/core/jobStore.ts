// Owns the video jobs: their records, their persistence and their polling. Pure: the folder, clock and gateway
// access are injected, so it runs the same in the extension host, in tests and in the bench. Every window (extension
// host) of a profile has its own store over the same folder: each job is a file, one window per gateway polls (the
// one holding that gateway's lease), and one window announces each finished job.
import { randomBytes } from 'node:crypto';
import type { GatewayApi, VideoCallOptions, VideoRequest } from '../../gateway/types';
import type { DialectName } from '../../settings/profile';
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ErrorFields } from '../../gateway/errors';
import type { SubmissionHost } from './jobSubmission';
import { endOwner, newOwnerId, ownerAlive } from './owners';
import { JobFiles, type RefreshRequest } from './jobFiles';
import {
  laneOf,
  applyGatewayJob,
  cloneRecord,
  errorFromGateway,
  isFinalRecord,
  isPollable,
  isSpecJob,
  markUncertain,
  recordText,
  type VideoJobRecord,
} from './jobRecord';
import { lazy, type Lazy } from '../../util/lazy';
import type { JobPolling } from './jobPolling';
import { JobSync, type LegacyStorage } from './jobSync';
import type { LeaseTiming } from './pollLease';
import type { AuthRequired, PauseChange, PollEvent, PollSchedulerOptions } from './pollScheduler';
import type { Presence } from './windowPresence';

// The scheduler and the window roles on their first need (see `polling` below), never at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jobPolling = lazy(() => require('./jobPolling') as typeof import('./jobPolling'));
// A dialect's wire only for a job of another dialect than the spec's.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jobWire = lazy(() => require('./jobWire') as typeof import('./jobWire'));

export { VIDEO_JOBS_STORAGE_KEY } from './jobSync';

export interface SharingOptions extends LeaseTiming {
  /** Re-read the folder this often, besides watching it (a watch can miss changes on some file systems). 0: never. */
  rescanMs?: number;
  /** Watch the folder for other windows' changes (default true). */
  watch?: boolean;
  /** An unfocused window waits this long before announcing a finished job, so that a focused one goes first. */
  unfocusedAnnounceDelayMs?: number;
}

export interface JobStoreOptions {
  /** The folder every window shares: `<globalStorage>/videos`. */
  folder: string;
  /** Where earlier versions kept the jobs (`context.globalState`): moved into the folder once, then cleared. */
  legacy?: LegacyStorage;
  clock: Clock;
  /** The API for a gateway origin; without a key for it, its calls fail with a MissingApiKeyError (polling then waits). */
  apiFor: (origin: string) => GatewayApi;
  scheduler?: Omit<PollSchedulerOptions, 'clock' | 'poll'>;
  sharing?: SharingOptions;
  /** Whether the window is still there; while it is gone, this store neither polls nor announces. */
  presence?: Presence;
  /**
   * The dialect a profile's new job speaks and the base URL its paths are below (stored on the job, so a later change
   * of the profile leaves a running job as it is). Without it, or when it names none, jobs speak the spec's dialect.
   */
  dialectFor?: (profile: string | undefined) => PromiseLike<{ dialect: DialectName; baseUrl: string } | undefined> | { dialect: DialectName; baseUrl: string } | undefined;
  /** Receives persistence failures; the store keeps working from memory. */
  onPersistError?: (error: unknown) => void;
  newKey?: () => string;
}

/** Job files this version could not read (damaged), moved out of the jobs folder by this window. */
export interface SetAsideBatch {
  folder: string;
  files: string[];
}

export interface JobsChange {
  /** Keys of exactly the records added, changed or removed. */
  keys: string[];
}

export class JobStore implements Disposable {
  private readonly records = new Map<string, VideoJobRecord>();
  private readonly clock: Clock;
  private readonly apiFor: (origin: string) => GatewayApi;
  private readonly dialectFor: JobStoreOptions['dialectFor'];
  private readonly onPersistError: (error: unknown) => void;
  private readonly newKey: () => string;
  private readonly files: JobFiles;
  private readonly sync: JobSync;
  /** This store's id in leases, claims and 'submitting' records. */
  private readonly owner = newOwnerId();
  /** Polling and the window roles; built once records are known (none are before the first read of the folder). */
  private readonly polling: Lazy<JobPolling>;
  private schedulerOptions: PollSchedulerOptions;
  private focused = true;
  private disposed = false;
  private keyCounter = 0;

  private readonly changeEmitter = new Emitter<JobsChange>();
  private readonly finishEmitter = new Emitter<VideoJobRecord>();
  readonly onDidChange = this.changeEmitter.event;
  /** A job reached a final state (completed, failed, …, not found), and this window announces it (once across windows). */
  readonly onDidFinish = this.finishEmitter.event;
  private readonly setAsideEmitter = new Emitter<SetAsideBatch>();
  /** Fires once per load or re-scan that set damaged job files aside (after the constructor, for those it found). */
  readonly onDidSetAside = this.setAsideEmitter.event;
  // The polling's events, which it forwards once built (listeners subscribe before).
  private readonly pauseEmitter = new Emitter<PauseChange>();
  private readonly authEmitter = new Emitter<AuthRequired>();
  private readonly leaseEmitter = new Emitter<string>();
  readonly onDidChangePause: Event<PauseChange> = this.pauseEmitter.event;
  readonly onAuthRequired: Event<AuthRequired> = this.authEmitter.event;
  /** Fires with an origin whose lease (polling, and keeping its results) this window took or let go. */
  readonly onDidChangeLease: Event<string> = this.leaseEmitter.event;
  /**
   * Resolves once the jobs in the folder when the store was built are loaded (and announced through onDidChange):
   * read asynchronously, so that activation does not wait for the folder; commands that name a job wait for this.
   */
  readonly ready: Promise<void>;

  constructor(options: JobStoreOptions) {
    this.clock = options.clock;
    this.apiFor = options.apiFor;
    this.dialectFor = options.dialectFor;
    const sharing = options.sharing ?? {};
    this.onPersistError = options.onPersistError ?? (() => undefined);
    this.newKey = options.newKey ?? (() => `job-${this.clock.now().toString(36)}-${(this.keyCounter++).toString(36)}-${randomBytes(4).toString('hex')}`);
    this.schedulerOptions = {
      ...options.scheduler,
      clock: this.clock,
      poll: (target, signal, onRetryAfter) =>
        this.apiFor(target.origin).getVideo(target.id, { ...this.pollOptions(this.records.get(target.key), target.id), signal, maxRetries: 0, onRetryAfter, pace: 'background' }),
    };
    this.files = new JobFiles(options.folder);
    this.sync = new JobSync({
      files: this.files,
      clock: this.clock,
      rescanMs: sharing.rescanMs ?? 5_000,
      watch: sharing.watch ?? true,
      host: {
        records: this.records,
        applyFromDisk: (incoming, gone) => this.applyFromDisk(incoming, gone),
        dropRemoved: (key) => this.publish(this.forget([key]), []),
        refreshRequested: (request) => this.refreshRequested(request),
        // Later, so that what the first load found reaches the listeners added once the store is built.
        setAside: (files) => queueMicrotask(() => !this.disposed && this.setAsideEmitter.fire({ folder: this.files.setAsideDir, files })),
        onError: (error) => this.onPersistError(error),
      },
    });
    this.polling = lazy(() =>
      jobPolling().startJobPolling({
        scheduler: this.schedulerOptions,
        focused: this.focused,
        records: this.records,
        files: this.files,
        owner: this.owner,
        clock: this.clock,
        leaseTiming: sharing,
        unfocusedAnnounceDelayMs: sharing.unfocusedAnnounceDelayMs ?? 1_500,
        presence: options.presence,
        announce: (key) => {
          const record = this.records.get(key);
          if (record && !this.disposed) this.finishEmitter.fire(cloneRecord(record));
        },
        onError: this.onPersistError,
        onDidPoll: (event) => this.onPolled(event),
        onDidChangePause: (change) => this.pauseEmitter.fire(change),
        onAuthRequired: (required) => this.authEmitter.fire(required),
        onDidChangeLease: (origin) => this.leaseEmitter.fire(origin),
      }),
    );
    if (options.legacy) this.sync.migrate(options.legacy);
    // The first read is a re-scan like any other: what it finds arrives through applyFromDisk. The folder is
    // watched before it starts (JobSync's constructor), so a job another window writes meanwhile is either in this
    // read or sets off the next one.
    this.ready = this.sync.load();
  }

  /** Newest first; only the given lanes' jobs (laneOf: a profile on an origin) when given. Copies: edit through the store's methods. */
  jobs(lanes?: string | ReadonlySet<string>): VideoJobRecord[] {
    const wanted = typeof lanes === 'string' ? new Set([lanes]) : lanes;
    return [...this.records.values()]
      .filter((record) => wanted === undefined || wanted.has(laneOf(record)))
      .sort((a, b) => b.createdAt - a.createdAt || (a.key < b.key ? 1 : -1))
      .map(cloneRecord);
  }

  get(key: string): VideoJobRecord | undefined {
    const record = this.records.get(key);
    return record && cloneRecord(record);
  }

  /**
   * Submits a job. A 'submitting' record is stored first (when it cannot be written, nothing is sent: this rejects
   * with a JobStorageError naming the folder); the gateway's answer replaces it and is persisted before
   * any event fires or this returns. If the request may have reached the gateway without an answer, the record
   * turns 'uncertain' and is returned (never resubmitted automatically). A definite refusal removes the record and
   * rethrows the error.
   */
  async submit(origin: string, request: VideoRequest, profile?: string, surface?: 'tool'): Promise<VideoJobRecord> {
    return this.submitReplacing(origin, request, undefined, profile, surface);
  }

  /** Submits a job's request again as a new job; an uncertain original is replaced by it. */
  async resubmit(key: string): Promise<VideoJobRecord> {
    const original = this.records.get(key);
    if (!original) throw new Error(`Unknown video job ${key}`);
    if (original.localState === 'submitting') throw new Error('This job is still being submitted');
    const replaces = original.localState === 'uncertain' ? key : undefined;
    return this.submitReplacing(original.origin, jobPolling().requestFromRecord(original), replaces, original.profile);
  }

  /**
   * Ties an uncertain submission to the job the gateway did create (its id, for example from the gateway's
   * console): the job is fetched once, then tracked like any other. Rejects when the gateway does not know it.
   */
  async adopt(key: string, id: string): Promise<VideoJobRecord> {
    return jobPolling().adoptJob(this.submission, key, id);
  }

  /** Cancels (deletes) the job on the gateway where its dialect can, after `confirm`; otherwise resolves with why not. */
  cancelOnGateway(key: string, confirm?: () => Promise<boolean>): Promise<string | undefined> {
    return jobPolling().cancelJob(this.submission, key, this.clock.now(), confirm);
  }

  /** Forgets a job, in every window: the only way a job leaves the list apart from clearFinished. */
  async remove(key: string): Promise<boolean> {
    if (!this.records.has(key)) return false;
    await this.commit(this.forget([key]));
    return true;
  }

  /** Removes jobs in a final state; returns how many went. */
  async clearFinished(): Promise<number> {
    const keys = [...this.records.values()].filter(isFinalRecord).map((record) => record.key);
    if (keys.length === 0) return 0;
    await this.commit(this.forget(keys));
    return keys.length;
  }

  /**
   * Has a pending job checked now (within rate-limit pauses and the in-flight cap): here when this window polls
   * its gateway, otherwise by the window that does. False if the job is not pending.
   */
  refresh(key: string): boolean {
    const record = this.records.get(key);
    if (!record || !isPollable(record)) return false;
    const scheduler = this.polling.peek()?.scheduler;
    if (scheduler?.isTracked(key)) return scheduler.pollNow(key);
    this.sync.requestRefresh({ origin: laneOf(record), keys: [key] });
    return true;
  }

  refreshAll(): void {
    this.polling.peek()?.scheduler.pollAllNow();
    const origins = new Set([...this.records.values()].filter(isPollable).map(laneOf));
    for (const origin of origins) if (!this.isPolling(origin)) this.sync.requestRefresh({ origin });
  }

  /** Whether this window is the one polling `origin` now. */
  isPolling(origin: string): boolean {
    return this.polling.peek()?.roles.isPolling(origin) ?? false;
  }

  /** Holds the leases of these origins too while they have finished results to keep (one window keeps them). */
  wantLeasesFor(origins: ReadonlySet<string>): void {
    if (!this.disposed) this.polling().roles.wantAlso(origins);
  }

  setFocused(focused: boolean): void {
    this.focused = focused;
    const polling = this.polling.peek();
    polling?.scheduler.setFocused(focused);
    polling?.roles.setFocused(focused);
  }

  /** The poll settings changed: the live scheduler takes the new bounds (nothing is rebuilt). */
  setPollIntervals(bounds: { minIntervalMs: number; maxIntervalMs: number }): void {
    this.schedulerOptions = { ...this.schedulerOptions, ...bounds };
    this.polling.peek()?.scheduler.setIntervals(bounds);
  }

  pausedUntil(origin: string): number | undefined {
    return this.polling.peek()?.scheduler.pausedUntil(origin);
  }

  isAuthBlocked(origin: string): boolean {
    return this.polling.peek()?.scheduler.isAuthBlocked(origin) ?? false;
  }

  authFailure(origin: string): ErrorFields | undefined {
    return this.polling.peek()?.scheduler.authFailure(origin);
  }

  /** Call when the API key of an origin changed: polling that waited for it resumes. */
  resumeAuth(origin: string): void {
    // Before polling is built, no origin waits for a key.
    const polling = this.polling.peek();
    polling?.scheduler.resumeAuth(origin);
    polling?.roles.unpark(origin);
  }

  /** Reads what other windows changed now (a watch and a timer do it anyway). */
  rescan(): Promise<void> {
    return this.sync.rescan();
  }

  /** Resolves once everything changed so far is written to the folder. */
  flush(): Promise<void> {
    return this.sync.flush();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    endOwner(this.owner);
    this.sync.dispose();
    this.polling.peek()?.dispose();
    for (const emitter of [this.pauseEmitter, this.authEmitter, this.leaseEmitter, this.changeEmitter, this.finishEmitter, this.setAsideEmitter]) emitter.dispose();
  }

  /** Keeps leases and polling in step with these records (see WindowRoles.follow); builds the polling on first need. */
  private follow(keys: Iterable<string>): void {
    if (!this.disposed) this.polling().roles.follow(keys);
  }

  private submitReplacing(origin: string, request: VideoRequest, replaces: string | undefined, profile: string | undefined, surface?: 'tool'): Promise<VideoJobRecord> {
    const submitAs = (speaks: { dialect: DialectName; baseUrl: string } | undefined) => {
      const record = jobPolling().recordFromRequest(this.newKey(), origin, request, this.clock.now(), profile);
      if (speaks) Object.assign(record, speaks);
      return jobPolling().submitRecord(this.submission, record, request, replaces, surface);
    };
    // A known dialect is the record's at once (it is listed as the call returns); `auto` waits for its detection.
    const speaks = this.dialectFor?.(profile);
    return speaks && 'then' in speaks ? Promise.resolve(speaks).then(submitAs) : submitAs(speaks);
  }

  /** What a submission may use of this store. */
  private get submission(): SubmissionHost {
    return {
      records: this.records,
      clock: this.clock,
      owner: this.owner,
      jobsDir: this.files.jobsDir,
      apiFor: this.apiFor,
      submitOptions: (record, request) => (isSpecJob(record) ? {} : jobWire().submitOptions(record, request, this.clock.now())),
      pollOptions: (record, id) => this.pollOptions(record, id),
      follow: (keys) => this.follow(keys),
      persistOrThrow: (key) => this.sync.persistOrThrow(key),
      discard: (key) => this.sync.discard(key),
      forget: (keys) => this.forget(keys),
      commit: (keys, finished) => this.commit(keys, finished),
      publish: (keys, finished) => this.publish(keys, finished),
    };
  }

  /** A poll in the job's own dialect (the spec's needs no wire). */
  private pollOptions(record: VideoJobRecord | undefined, id: string): VideoCallOptions {
    return !record || isSpecJob(record) ? {} : jobWire().pollOptions(record, id, this.clock.now());
  }

  private onPolled(event: PollEvent): void {
    const record = this.records.get(event.target.key);
    if (!record) return;
    const { outcome, polledAt } = event;
    const wasFinal = isFinalRecord(record);
    let changed = false;
    if (outcome.kind === 'status') {
      changed = applyGatewayJob(record, outcome.job, polledAt);
    } else if (outcome.kind === 'not_found') {
      record.localState = 'not_found';
      record.completedAt ??= polledAt;
      record.error = errorFromGateway(outcome.error);
      record.updatedAt = polledAt;
      changed = true;
    }
    // Otherwise (auth, rate limit, transient failure) the job itself is unchanged; the scheduler waits.
    if (!changed) return;
    this.follow([record.key]);
    void this.sync.persist(record.key);
    this.publish([record.key], !wasFinal && isFinalRecord(record) ? [record.key] : []);
  }

  /** What other windows wrote: their records replace ours, except that a job that ended here never un-ends. */
  private applyFromDisk(incoming: VideoJobRecord[], gone: string[]): void {
    const changed: string[] = [];
    const finished: string[] = [];
    for (const record of incoming) {
      const current = this.records.get(record.key);
      if (current && recordText(current) === recordText(record)) continue;
      if (current && isFinalRecord(current) && !isFinalRecord(record) && current.id === record.id) {
        void this.sync.persist(record.key); // a late write of a window that polled too: ours is the later truth
        continue;
      }
      this.records.set(record.key, record);
      changed.push(record.key);
      if (current && !isFinalRecord(current) && isFinalRecord(record)) finished.push(record.key);
    }
    changed.push(...this.forget(gone));
    changed.push(...this.settleOrphanedSubmissions());
    if (changed.length === 0) return;
    this.follow(changed);
    this.publish(changed, finished);
  }

  private refreshRequested(request: RefreshRequest): boolean {
    const scheduler = this.polling.peek()?.scheduler;
    if (!scheduler || !this.isPolling(request.origin)) return false;
    const keys = request.keys ?? [...this.records.values()].filter((r) => laneOf(r) === request.origin).map((r) => r.key);
    for (const key of keys) scheduler.pollNow(key);
    return true;
  }

  /** A 'submitting' record whose window is gone will never get its answer: it becomes uncertain. */
  private settleOrphanedSubmissions(): string[] {
    const orphans = [...this.records.values()].filter((r) => r.localState === 'submitting' && r.submitter !== this.owner && !ownerAlive(r.submitter));
    for (const record of orphans) markUncertain(record, { message: 'The extension stopped before the gateway answered' }, this.clock.now());
    const keys = orphans.map((record) => record.key);
    if (keys.length > 0) void this.sync.persist(...keys);
    return keys;
  }

  /** Drops records from memory and polling; the caller persists the deletion, unless another window did. */
  private forget(keys: string[]): string[] {
    const gone = keys.filter((key) => this.records.delete(key));
    this.follow(gone);
    return gone;
  }

  /** Persists the changed records (deletes the removed ones), then tells listeners exactly those keys. */
  private async commit(keys: string[], finished: string[] = []): Promise<void> {
    if (keys.length === 0) return;
    this.follow(keys);
    await this.sync.persist(...keys);
    this.publish(keys, finished);
  }

  private publish(keys: string[], finished: string[]): void {
    if (this.disposed) return;
    this.changeEmitter.fire({ keys });
    for (const key of finished) this.polling().roles.finished(key);
  }
}
