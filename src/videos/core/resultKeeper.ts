// Finished videos kept on disk before their signed links expire. Only the window that polls a gateway (it holds
// that gateway's lease in the job store) downloads, so N windows sharing the folder download each result once. A
// download that fails is tried again well before the link's expiry (read from the link: urlExpiry); one past its
// expiry is not tried (it would only get a 403). The kept files live in one folder of the global storage, one per
// job (`<key>.<ext>`, and its thumbnail `<key>.thumb.<ext>` where the gateway offers one), and a disk quota evicts
// the least recently used (a play touches its file), never silently.
// Pure Node (no vscode).
import { join } from 'node:path';
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import { laneOf, type VideoJobRecord } from './jobRecord';
import type { JobsChange } from './jobStore';
import { promises as fs } from 'node:fs';
import { KeptFiles, keptStem, thumbnailStem } from './keptFiles';
import { urlExpiry } from './resultLinks';

/** What the keeper reads of the job store. */
export interface KeeperJobs {
  jobs(): VideoJobRecord[];
  get(key: string): VideoJobRecord | undefined;
  /** True when this window polls (holds the lease for) that lane (a profile on a gateway: laneOf). */
  isPolling(lane: string): boolean;
  onDidChange: Event<JobsChange>;
  /** Holds these gateways' leases while their results wait (the store wants a lease only while jobs run). */
  wantLeasesFor(origins: ReadonlySet<string>): void;
  onDidChangeLease: Event<string>;
}

export interface ResultKeeperOptions {
  folder: string;
  clock: Clock;
  jobs: KeeperJobs;
  /** Downloads the job's `url` into `directory` as `stem` plus the extension its type allows (videos/core/download.ts). */
  download(record: VideoJobRecord, url: string, directory: string, stem: string, signal: AbortSignal): Promise<{ file: string; bytes: number }>;
  /**
   * Downloads the job's thumbnail `url` (an image, bounded) into `directory` as `stem` plus its extension, under the
   * same key rules as the result. Without it no thumbnail is kept.
   */
  downloadThumbnail?(record: VideoJobRecord, url: string, directory: string, stem: string, signal: AbortSignal): Promise<{ file: string; bytes: number }>;
  /** Removes the least recently used kept files over the quota (keptQuota.ts). */
  evict(folder: string, keep: string, quotaBytes: number): Promise<{ count: number; bytes: number; removed: string[] }>;
  /** The most bytes the kept files may take; 0 keeps nothing. */
  quotaBytes(): number;
  /** Files removed to stay under the quota: the user is told. */
  onEvicted(evicted: { count: number; bytes: number; quotaBytes: number }): void;
  onError(message: string): void;
}

/** How a result stands: kept on disk, or only the link (with its expiry when the link says). */
export type KeptState = { kept: true; file: string } | { kept: false; expiresAt?: number };

/** Tries after a failed download: 30 s, 2 min, 8 min…, each at most a third of the time left before expiry. */
const FIRST_RETRY_MS = 30_000;
const MAX_ATTEMPTS = 6;
/** While a finished result is not kept, how often to look again (another window's lease may pass to this one). */
const SWEEP_MS = 60_000;
/** Downloads at once: a burst of finished jobs (or the first start of this version) does not flood the link's host. */
const MAX_RUNNING = 2;

/** When to try again after `attempts` failures: backoff, but always well before the link expires. */
export function retryDelay(attempts: number, now: number, expiresAt: number | undefined): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  const backoff = FIRST_RETRY_MS * 4 ** (attempts - 1);
  if (expiresAt === undefined) return backoff;
  const left = expiresAt - now;
  if (left <= 5_000) return undefined;
  return Math.max(1_000, Math.min(backoff, Math.floor(left / 3)));
}

export class ResultKeeper implements Disposable {
  private readonly running = new Map<string, { abort: AbortController; lane: string }>();
  private readonly failures = new Map<string, { attempts: number; nextAt: number }>();
  private timer: TimerHandle | undefined;
  private disposed = false;
  private readonly changed = new Emitter<string[]>();
  /** Fires with the keys of jobs whose result was kept (or whose kept file was evicted). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: Disposable;
  private readonly files: KeptFiles;
  /** The keeps under way, each until it has ended (and started what it starts after). */
  private readonly tasks = new Set<Promise<void>>();
  private readonly firstSweep: Promise<void>;

  constructor(private readonly options: ResultKeeperOptions) {
    this.files = new KeptFiles(options.folder);
    const subscriptions = [options.jobs.onDidChange(() => this.sweep()), options.jobs.onDidChangeLease(() => this.sweep())];
    this.subscription = { dispose: () => subscriptions.forEach((s) => s.dispose()) };
    this.firstSweep = Promise.resolve().then(() => this.sweep());
  }

  /**
   * Resolves once nothing is being kept: the first look and every download started so far (and those their ends
   * started) have ended. What was not started by then was decided against.
   */
  async whenIdle(): Promise<void> {
    await this.firstSweep;
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  get folder(): string {
    return this.options.folder;
  }

  /** The kept copy of the job's (first) result, if there is one. */
  keptFile(key: string): string | undefined {
    return this.files.keptFile(key);
  }

  /** The kept thumbnail of the job's result, if there is one. */
  thumbnailFile(key: string): string | undefined {
    return this.files.thumbnailFile(key);
  }

  state(record: VideoJobRecord): KeptState {
    const file = this.keptFile(record.key);
    if (file) return { kept: true, file };
    const url = record.resultUrls[0];
    const expiresAt = url === undefined ? undefined : (record.expiresAt ?? urlExpiry(url));
    return expiresAt === undefined ? { kept: false } : { kept: false, expiresAt };
  }

  /** Starts what may start now: finished results of the gateways this window polls, not yet kept. */
  sweep(): void {
    if (this.disposed) return;
    if (this.options.quotaBytes() <= 0) return this.waitFor(new Set());
    const now = this.options.clock.now();
    const waiting = new Set<string>();
    for (const record of this.options.jobs.jobs()) {
      const url = this.running.has(record.key) ? undefined : this.files.waits(record, now);
      if (!url) continue;
      const failure = this.failures.get(record.key);
      if (failure && failure.attempts >= MAX_ATTEMPTS) continue;
      waiting.add(laneOf(record));
      if (!this.options.jobs.isPolling(laneOf(record)) || (failure && failure.nextAt > now) || this.running.size >= MAX_RUNNING) continue;
      const task = this.keep(record, url).finally(() => this.tasks.delete(task));
      this.tasks.add(task);
    }
    this.waitFor(new Set([...waiting, ...[...this.running.values()].map((r) => r.lane)]));
  }

  /** Holds the leases of the origins with results to keep (or being kept), and looks again later while any waits. */
  private waitFor(origins: ReadonlySet<string>): void {
    this.options.jobs.wantLeasesFor(origins);
    this.arm(origins.size > 0);
  }

  private async keep(record: VideoJobRecord, url: string): Promise<void> {
    const key = record.key;
    const abort = new AbortController();
    this.running.set(key, { abort, lane: laneOf(record) });
    try {
      await fs.mkdir(this.options.folder, { recursive: true });
      const { file } = await this.options.download(record, url, this.options.folder, keptStem(key), abort.signal);
      this.failures.delete(key);
      if (this.disposed) return;
      await this.keepThumbnail(record, abort.signal);
      if (this.disposed) return;
      this.changed.fire([key]);
      await this.enforceQuota(file);
    } catch (error) {
      if (this.disposed) return;
      const attempts = (this.failures.get(key)?.attempts ?? 0) + 1;
      const now = this.options.clock.now();
      const delay = retryDelay(attempts, now, record.expiresAt ?? urlExpiry(url));
      this.failures.set(key, { attempts: delay === undefined ? MAX_ATTEMPTS : attempts, nextAt: now + (delay ?? 0) });
      this.options.onError(`Could not keep the result of video job ${key}: ${error instanceof Error ? error.message : String(error)}${delay === undefined ? ' (not trying again)' : ` (trying again in ${Math.round(delay / 1000)} s)`}`);
    } finally {
      this.running.delete(key);
      this.sweep();
    }
  }

  /** Keeps the result's thumbnail beside it, where the gateway offers one: once, a failure only said (the video is what counts). */
  private async keepThumbnail(record: VideoJobRecord, signal: AbortSignal): Promise<void> {
    const url = record.thumbnailUrl;
    if (!url || !this.options.downloadThumbnail || this.files.thumbnailFile(record.key)) return;
    try {
      await this.options.downloadThumbnail(record, url, this.options.folder, thumbnailStem(record.key), signal);
    } catch (error) {
      if (!this.disposed) this.options.onError(`Could not keep the thumbnail of video job ${record.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Keeps the folder under the quota (keptQuota.ts, loaded with the download), and says what went. */
  private async enforceQuota(keep: string): Promise<void> {
    const quotaBytes = this.options.quotaBytes();
    const { count, bytes, removed } = await this.options.evict(this.options.folder, keep, quotaBytes);
    if (count === 0) return;
    this.options.onEvicted({ count, bytes, quotaBytes });
    const keys = this.options.jobs.jobs().filter((r) => removed.some((path) => path.startsWith(join(this.options.folder, `${keptStem(r.key)}.`)))).map((r) => r.key);
    if (keys.length > 0) this.changed.fire(keys);
  }

  /** One timer: the earliest retry, or a slow look while a finished result is not kept; none when nothing waits. */
  private arm(waiting: boolean): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (!waiting || this.disposed) return;
    const now = this.options.clock.now();
    const retries = [...this.failures.values()].filter((f) => f.attempts < MAX_ATTEMPTS).map((f) => f.nextAt - now);
    const delay = Math.max(1_000, Math.min(SWEEP_MS, ...retries));
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.sweep();
    }, delay);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    for (const { abort } of this.running.values()) abort.abort();
    this.subscription.dispose();
    this.changed.dispose();
  }
}
