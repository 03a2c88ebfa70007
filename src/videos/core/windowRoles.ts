// Who does what among the windows sharing the jobs folder: one window per gateway polls (the holder of that
// gateway's lease), and not a window whose browser tab is gone or that has no key for the gateway; one window
// announces each job's end. The store tells it what changed; it keeps the scheduler's tracking in step.
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable } from '../../util/events';
import { FinishAnnouncer } from './finishAnnouncer';
import type { JobFiles } from './jobFiles';
import { isPollable, laneOf, type VideoJobRecord } from './jobRecord';
import { OriginLeases, type LeaseTiming } from './pollLease';
import type { JobProfile, PollScheduler } from './pollScheduler';
import type { Presence } from './windowPresence';

export interface WindowRolesOptions {
  records: ReadonlyMap<string, VideoJobRecord>;
  scheduler: PollScheduler;
  files: JobFiles;
  owner: string;
  clock: Clock;
  leaseTiming: LeaseTiming;
  unfocusedAnnounceDelayMs: number;
  presence: Presence | undefined;
  /** This window won the claim to announce the job's end. */
  announce: (key: string) => void;
  onError: (error: unknown) => void;
}

export class WindowRoles implements Disposable {
  private readonly records: ReadonlyMap<string, VideoJobRecord>;
  private readonly scheduler: PollScheduler;
  private readonly leases: OriginLeases;
  private readonly announcer: FinishAnnouncer;
  /** Origins whose polling waits for a key here: their lease is left to a window that has one. */
  private readonly parked = new Set<string>();
  private readonly subscriptions: Disposable[] = [];
  private disposed = false;
  /** Origins whose lease is wanted for other work than polling: keeping finished results (resultKeeper). */
  private alsoWanted: ReadonlySet<string> = new Set();
  private readonly leaseEmitter = new Emitter<string>();
  /** Fires with an origin whose lease this window took or let go. */
  readonly onDidChangeLease = this.leaseEmitter.event;

  constructor(private readonly options: WindowRolesOptions) {
    this.records = options.records;
    this.scheduler = options.scheduler;
    this.leases = new OriginLeases({
      ...options.leaseTiming,
      folder: options.files.leasesDir,
      owner: options.owner,
      clock: options.clock,
      onError: options.onError,
      onDidChange: (origin, held) => this.pollHere(origin, held),
    });
    this.announcer = new FinishAnnouncer({
      clock: options.clock,
      claim: (key) => options.files.claimFinish(key),
      announce: options.announce,
      unfocusedDelayMs: options.unfocusedAnnounceDelayMs,
      attached: () => this.attached,
      onError: options.onError,
    });
    if (options.presence) {
      this.subscriptions.push(
        options.presence.onDidChange((attached) => {
          this.follow([]);
          if (attached) this.announcer.reattached();
        }),
      );
    }
  }

  private get attached(): boolean {
    return this.options.presence?.attached ?? true;
  }

  /** Whether this window polls `origin` now. */
  isPolling(origin: string): boolean {
    return this.leases.held(origin);
  }

  /**
   * After records changed (or went): tries for the lease of every origin with pending jobs (of none while the
   * window is gone, and not of an origin waiting for a key here), lets go of the others, and polls the given
   * records here only while this window holds their origin's lease.
   */
  follow(keys: Iterable<string>): void {
    if (this.disposed) return;
    const wanted = new Set<string>();
    if (this.attached) for (const record of this.records.values()) if (isPollable(record) && !this.parked.has(laneOf(record))) wanted.add(laneOf(record));
    if (this.attached) for (const lane of this.alsoWanted) if (!this.parked.has(lane)) wanted.add(lane);
    this.leases.want(wanted);
    for (const key of keys) {
      const record = this.records.get(key);
      if (record && isPollable(record) && this.isPolling(laneOf(record))) this.track(record);
      else {
        this.scheduler.untrack(key);
        if (!record) this.announcer.cancel(key);
      }
    }
  }

  /** Also wants the leases of these origins (finished results to keep), under the same rules as polling. */
  wantAlso(origins: ReadonlySet<string>): void {
    if (origins.size === this.alsoWanted.size && [...origins].every((o) => this.alsoWanted.has(o))) return;
    this.alsoWanted = new Set(origins);
    this.follow([]);
  }

  /** No key here for the origin (or it was refused): a window that has one polls it meanwhile. */
  park(origin: string): void {
    this.parked.add(origin);
    this.follow([]);
  }

  /** The key of the origin changed: this window may poll it again. */
  unpark(origin: string): void {
    if (this.parked.delete(origin)) this.follow([]);
  }

  /** The job ended: announce it, once across windows. */
  finished(key: string): void {
    this.announcer.finished(key);
  }

  setFocused(focused: boolean): void {
    this.announcer.setFocused(focused);
  }

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    this.announcer.dispose();
    this.leases.dispose();
    this.leaseEmitter.dispose();
  }

  /**
   * Polling starts from what the record says about the job (its age, model and size, from which the scheduler plans
   * the checks), whichever window submitted it and however long ago.
   */
  private track(record: VideoJobRecord): void {
    this.scheduler.track({ key: record.key, origin: laneOf(record), id: record.id! }, { job: jobProfile(record) });
  }

  /** This window starts or stops polling an origin's pending jobs. */
  private pollHere(origin: string, held: boolean): void {
    for (const record of this.records.values()) {
      if (laneOf(record) !== origin) continue;
      if (held && isPollable(record)) this.track(record);
      else this.scheduler.untrack(record.key);
    }
    if (!this.disposed) this.leaseEmitter.fire(origin);
  }
}

/** What the scheduler needs to learn this job's duration and plan from earlier ones. */
function jobProfile(record: VideoJobRecord): JobProfile {
  return { model: record.model, resolution: record.parameters.resolution, duration: record.parameters.duration, submittedAt: record.createdAt };
}
