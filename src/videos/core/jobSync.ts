// Keeps the store's records and the shared folder in step: writes changed records one file each, reads what other
// windows wrote (on a watch event and on a periodic re-scan), and moves the jobs older versions kept in
// `globalState` into the folder once.
import { createHash } from 'node:crypto';
import type { Clock, TimerHandle } from '../../util/clock';
import type { Disposable } from '../../util/events';
import type { Memento } from '../../util/memento';
import { isJobKey, sameStamp, type FileStamp, type JobFiles, type RefreshRequest } from './jobFiles';
import { isRecord } from '../../util/records';
import { JOB_SCHEMA_VERSION, recordFromStored, recordText, storedSchemaVersion, type VideoJobRecord } from './jobRecord';

/** Where versions before the shared folder kept every job, as one array. */
export const VIDEO_JOBS_STORAGE_KEY = 'modelGateway.videoJobs.v1';

export interface LegacyStorage {
  storage: Memento;
  key?: string;
}

/** What the sync needs from the store that owns the records. */
export interface JobSyncHost {
  readonly records: ReadonlyMap<string, VideoJobRecord>;
  /** After each re-scan: records another window wrote that differ from ours, keys whose file another window deleted. */
  applyFromDisk(incoming: VideoJobRecord[], gone: string[]): void;
  /** A write of ours found the job removed by another window. */
  dropRemoved(key: string): void;
  /** A window that does not poll asked for a check; true when this store handled it (it polls that origin). */
  refreshRequested(request: RefreshRequest): boolean;
  /** Job files that could not be read were moved to these paths (one call per load or re-scan that moved any). */
  setAside(paths: string[]): void;
  onError(error: unknown): void;
}

export interface JobSyncOptions {
  files: JobFiles;
  clock: Clock;
  host: JobSyncHost;
  /** Re-reads the folder this often even while watching it; 0: only on watch events and `rescan()`. */
  rescanMs: number;
  watch: boolean;
}

export class JobSync implements Disposable {
  private readonly files: JobFiles;
  private readonly host: JobSyncHost;
  /** The text of each job file as this window last wrote or read it; `ours` when this window wrote it. */
  private readonly disk = new Map<string, { text: string; stamp?: FileStamp; ours?: boolean }>();
  /** Files of a newer version that this one cannot read, already reported. */
  private readonly foreign = new Set<string>();
  /** Keys changed in memory and not written yet; what another window wrote does not replace them. */
  private readonly dirty = new Set<string>();
  /** Why the last write of a key failed (cleared when one succeeds). */
  private readonly failures = new Map<string, unknown>();
  private tail: Promise<void> = Promise.resolve();
  private queuedWrite: Promise<void> | undefined;
  private queuedRescan: Promise<void> | undefined;
  private readonly watcher: Disposable | undefined;
  private timer: TimerHandle | undefined;
  private disposed = false;

  constructor(private readonly options: JobSyncOptions) {
    this.files = options.files;
    this.host = options.host;
    this.watcher = options.watch ? this.files.watch(() => void this.rescan()) : undefined;
    this.armRescan();
  }

  /** The first read of the folder (asynchronous: see JobStore.ready), then the sweep of what is stale. */
  load(): Promise<void> {
    const loaded = this.rescan();
    void this.io(() => this.files.sweep(this.options.clock.now()));
    return loaded;
  }

  /**
   * Moves the jobs of `legacy` into the folder (a file that exists is kept: another window got there first), and
   * what it cannot read into set-aside/, then clears the old key, so it happens once. Nothing is cleared while a job
   * could not be written.
   */
  migrate(legacy: LegacyStorage): void {
    const key = legacy.key ?? VIDEO_JOBS_STORAGE_KEY;
    const list = legacy.storage.get<unknown>(key);
    if (list === undefined) return;
    let failed = false;
    const unreadable: unknown[] = [];
    for (const value of Array.isArray(list) ? list : [list]) {
      const record = recordFromStored(value);
      if (!record) {
        unreadable.push(value);
        continue;
      }
      if (!isJobKey(record.key)) record.key = `legacy-${createHash('sha256').update(record.key).digest('hex').slice(0, 24)}`;
      try {
        this.files.createIfAbsentSync(record.key, recordText(record));
      } catch (error) {
        failed = true;
        this.host.onError(error);
      }
    }
    // What this version cannot read is kept in set-aside/ before the old key is cleared, never dropped with it.
    if (unreadable.length > 0) {
      try {
        this.files.keepAsideSync('globalState-jobs', JSON.stringify(unreadable), this.options.clock.now());
      } catch (error) {
        failed = true;
        this.host.onError(error);
      }
    }
    if (!failed) void Promise.resolve(legacy.storage.update(key, undefined)).then(undefined, (error: unknown) => this.host.onError(error));
  }

  isDirty(key: string): boolean {
    return this.dirty.has(key);
  }

  /** Queues a write of the given records (a deletion for keys no longer in the store); resolves once written. */
  persist(...keys: string[]): Promise<void> {
    for (const key of keys) this.dirty.add(key);
    // A write that has not started yet takes the latest state anyway: share it.
    if (this.queuedWrite) return this.queuedWrite;
    const write = this.io(async () => {
      this.queuedWrite = undefined;
      await this.writeDirty();
    });
    this.queuedWrite = write;
    return write;
  }

  /** Like persist, but rejects with the write's error when the record could not be written. */
  async persistOrThrow(key: string): Promise<void> {
    await this.persist(key);
    if (this.failures.has(key)) throw this.failures.get(key);
  }

  /** Forgets a key whose record was never written (its first write failed): no retry, no deletion to write. */
  discard(key: string): void {
    this.dirty.delete(key);
    this.failures.delete(key);
  }

  /** Reads what other windows changed since the last look; runs by itself on watch events and on a timer. */
  rescan(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.queuedRescan) return this.queuedRescan;
    const scan = this.io(async () => {
      this.queuedRescan = undefined;
      if (!this.disposed) await this.readChanges();
    });
    this.queuedRescan = scan;
    return scan;
  }

  /** Resolves once every write and read queued so far is done. */
  flush(): Promise<void> {
    return this.io(async () => undefined);
  }

  requestRefresh(request: RefreshRequest): void {
    try {
      this.files.requestRefresh(request);
    } catch (error) {
      this.host.onError(error);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.watcher?.dispose();
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
  }

  /** One file operation at a time, in order: a later snapshot never lands before an earlier one. */
  private io(task: () => Promise<void>): Promise<void> {
    const run = this.tail.then(task).catch((error: unknown) => this.host.onError(error));
    this.tail = run;
    return run;
  }

  private armRescan(): void {
    if (this.options.rescanMs <= 0 || this.disposed) return;
    this.timer = this.options.clock.setTimeout(() => {
      void this.rescan();
      this.armRescan();
    }, this.options.rescanMs);
  }

  private async writeDirty(): Promise<void> {
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) {
      const record = this.host.records.get(key);
      try {
        if (!record) {
          await this.files.remove(key);
          this.disk.delete(key);
          continue;
        }
        const text = recordText(record);
        const known = this.disk.get(key);
        if (known?.text === text) continue;
        // A newer version's file is backed up before this version first rewrites it.
        const backupOf = record.schemaVersion !== undefined && known && !known.ours ? record.schemaVersion : undefined;
        if ((await this.files.write(key, text, backupOf)) === 'removed') {
          this.disk.delete(key);
          this.host.dropRemoved(key);
        } else this.disk.set(key, { text, ours: true });
        this.failures.delete(key);
      } catch (error) {
        // Kept in memory, and written with the next change.
        this.dirty.add(key);
        this.failures.set(key, error);
        this.host.onError(error);
      }
    }
  }

  private async readChanges(): Promise<void> {
    const { stamps, requests } = await this.files.scan();
    const incoming: VideoJobRecord[] = [];
    const setAside: string[] = [];
    for (const [key, stamp] of stamps) {
      const known = this.disk.get(key);
      if (known && sameStamp(known.stamp, stamp)) continue;
      const file = await this.files.read(key);
      if (!file) continue;
      this.disk.set(key, known?.text === file.text ? { ...known, stamp: file.stamp } : file);
      if (known?.text === file.text) continue;
      const record = this.readJob(key, file.text, setAside);
      if (record) incoming.push(record);
    }
    if (setAside.length > 0 && !this.disposed) this.host.setAside(setAside);
    const gone: string[] = [];
    for (const key of this.disk.keys()) {
      if (stamps.has(key)) continue;
      this.disk.delete(key);
      gone.push(key);
    }
    if (this.disposed) return;
    this.host.applyFromDisk(
      incoming.filter((record) => !this.dirty.has(record.key)),
      gone.filter((key) => !this.dirty.has(key)),
    );
    for (const name of requests) {
      const request = this.files.readRefreshRequest(name);
      if (!request || this.host.refreshRequested(request)) this.files.dropRefreshRequest(name);
    }
  }

  /**
   * The record a job file holds. A file this version cannot read is set aside (its new path joins `setAside`), unless
   * a newer version wrote it: that one stays where it is, for that version, and is reported once.
   */
  private readJob(key: string, text: string, setAside: string[]): VideoJobRecord | undefined {
    const parsed = parseJobFile(key, text);
    if (typeof parsed === 'object') return parsed;
    if (typeof parsed === 'number') {
      if (!this.foreign.has(key)) this.host.onError(new Error(`${key}.json is from a newer version (schema ${parsed}): left as is`));
      this.foreign.add(key);
      return undefined;
    }
    try {
      const moved = this.files.setAsideSync(key, text, this.options.clock.now());
      if (moved) setAside.push(moved);
      if (moved) this.disk.delete(key);
    } catch (error) {
      this.host.onError(error);
    }
    return undefined;
  }
}

/** The record; the schema version of a newer version's file this one cannot read; 'damaged' for anything else. */
function parseJobFile(key: string, text: string): VideoJobRecord | number | 'damaged' {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'damaged';
  }
  const record = recordFromStored(value);
  if (record?.key === key) return record;
  const version = isRecord(value) ? storedSchemaVersion(value) : 1;
  return version > JOB_SCHEMA_VERSION ? version : 'damaged';
}
