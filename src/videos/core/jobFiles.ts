// The video jobs' folder, shared by every window (extension host) of the profile:
//   jobs/<key>.json        one file per job, replaced atomically (a temp file named after the writer's pid, then
//                          rename), so no write can drop another window's job;
//   jobs/<name>.refresh    a window that does not poll asks the polling window to check jobs now;
//   removed/<key>          a tombstone: a window that was still writing the job deletes its file again;
//   finished/<key>         created exclusively by the one window that announces the job's end;
//   leases/<origin>.lock   which window polls a gateway (see pollLease.ts);
//   jobs/<key>.v<N>.bak.json  a file of a newer schema version N as it was before this version first rewrote it;
//   set-aside/<key>.<time>.json  a job file that could not be read (damaged), moved out of the way, never deleted.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { copyFile, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createExclusiveSync, writeFileAtomic } from '../../util/atomicFile';
import type { Disposable } from '../../util/events';

/** Keys become file names: plain, short, no dots. */
export function isJobKey(key: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(key);
}

/** What identifies a version of a file without reading it. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

export function sameStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  return a !== undefined && b !== undefined && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

export interface RefreshRequest {
  origin: string;
  /** The jobs to check; all of the origin's when absent. */
  keys?: string[];
}

const TEMP_MAX_AGE_MS = 60 * 60_000;
const TOMBSTONE_MAX_AGE_MS = 7 * 24 * 60 * 60_000;
const REQUEST_MAX_AGE_MS = 60_000;

export class JobFiles {
  readonly jobsDir: string;
  readonly removedDir: string;
  readonly finishedDir: string;
  readonly leasesDir: string;
  readonly setAsideDir: string;

  constructor(readonly root: string) {
    this.setAsideDir = join(root, 'set-aside');
    this.jobsDir = join(root, 'jobs');
    this.removedDir = join(root, 'removed');
    this.finishedDir = join(root, 'finished');
    this.leasesDir = join(root, 'leases');
    for (const dir of [this.jobsDir, this.removedDir, this.finishedDir, this.leasesDir]) {
      try {
        mkdirSync(dir, { recursive: true });
      } catch {
        // Storage that cannot be written: the jobs that are there are still shown, and each write says why it failed.
      }
    }
  }

  private jobPath(key: string): string {
    return join(this.jobsDir, `${key}.json`);
  }

  /**
   * Writes a job file only if none exists (and the job was not removed), atomically: the text is complete in a
   * temp file, which is then linked to the final name (a link fails when the name is taken). For migration.
   */
  createIfAbsentSync(key: string, text: string): boolean {
    return !this.isRemoved(key) && createExclusiveSync(this.jobPath(key), text);
  }

  /** Stamps of the job files now on disk (removed jobs left out), and refresh requests. */
  async scan(): Promise<{ stamps: Map<string, FileStamp>; requests: string[] }> {
    const [names, removedNames] = await Promise.all([readdir(this.jobsDir), readdir(this.removedDir)]);
    const removed = new Set(removedNames);
    const stamps = new Map<string, FileStamp>();
    const requests: string[] = [];
    await Promise.all(
      names.map(async (name) => {
        if (name.endsWith('.refresh')) requests.push(name);
        const key = keyOf(name);
        if (key === undefined || removed.has(key)) return;
        const stamp = await stampOf(join(this.jobsDir, name));
        if (stamp) stamps.set(key, stamp);
      }),
    );
    return { stamps, requests };
  }

  async read(key: string): Promise<{ text: string; stamp: FileStamp } | undefined> {
    const path = this.jobPath(key);
    try {
      const stamp = await stampOf(path);
      const text = await readFile(path, 'utf8');
      return stamp && { text, stamp };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * Replaces the job's file atomically and durably. Resolves 'removed' when another window removed the job (before
   * or during the write): the file is then deleted again, so a removed job never comes back. With `backupOf` (the
   * file's newer schema version), the file as it is is first copied beside it: no backup, no rewrite.
   */
  async write(key: string, text: string, backupOf?: number): Promise<'written' | 'removed'> {
    if (this.isRemoved(key)) return 'removed';
    const path = this.jobPath(key);
    if (backupOf !== undefined) await backUp(path, join(this.jobsDir, `${key}.v${backupOf}.bak.json`));
    await writeFileAtomic(path, text);
    // The remover creates the tombstone before deleting the file, so checking after the rename cannot miss it.
    if (!this.isRemoved(key)) return 'written';
    await rm(path, { force: true });
    return 'removed';
  }

  /** Removes the job for every window: tombstone first, then the file and its announcement claim. */
  async remove(key: string): Promise<void> {
    writeFileSync(join(this.removedDir, key), '');
    await rm(this.jobPath(key), { force: true });
    await rm(join(this.finishedDir, key), { force: true });
  }

  /**
   * Moves a job file that cannot be read out of the jobs folder, to `set-aside/<key>.<time>.json`, if it still
   * holds `text` (a window may have replaced it meanwhile). The new path, or undefined when another window moved
   * or replaced it first.
   */
  setAsideSync(key: string, text: string, now: number): string | undefined {
    const path = this.jobPath(key);
    try {
      if (readFileSync(path, 'utf8') !== text) return undefined;
      mkdirSync(this.setAsideDir, { recursive: true });
      const target = join(this.setAsideDir, `${key}.${now}-${randomBytes(3).toString('hex')}.json`);
      renameSync(path, target);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Keeps `text` that no job file can hold (an old entry this version cannot read) in set-aside/, under a new name. */
  keepAsideSync(name: string, text: string, now: number): string {
    mkdirSync(this.setAsideDir, { recursive: true });
    const target = join(this.setAsideDir, `${name}.${now}-${randomBytes(3).toString('hex')}.json`);
    createExclusiveSync(target, text);
    return target;
  }

  isRemoved(key: string): boolean {
    return existsSync(join(this.removedDir, key));
  }

  /** True for exactly one caller per job, across windows: the one that announces the job's end. */
  claimFinish(key: string): boolean {
    try {
      closeSync(openSync(join(this.finishedDir, key), 'wx'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
  }

  /** Asks whichever window polls `request.origin` to check the jobs now. */
  requestRefresh(request: RefreshRequest): void {
    createExclusiveSync(join(this.jobsDir, `${randomBytes(6).toString('hex')}.refresh`), JSON.stringify(request));
  }

  /** A refresh request's content; undefined when it is gone (another window took it) or unreadable. */
  readRefreshRequest(name: string): RefreshRequest | undefined {
    try {
      const value = JSON.parse(readFileSync(join(this.jobsDir, name), 'utf8')) as Partial<RefreshRequest>;
      if (typeof value.origin !== 'string') return undefined;
      const keys = Array.isArray(value.keys) ? value.keys.filter((k): k is string => typeof k === 'string') : undefined;
      return { origin: value.origin, ...(keys && { keys }) };
    } catch {
      return undefined;
    }
  }

  dropRefreshRequest(name: string): void {
    try {
      unlinkSync(join(this.jobsDir, name));
    } catch {
      // Taken by another window.
    }
  }

  /**
   * Calls `onChange` when something in the jobs folder changes; undefined when the platform cannot watch (the
   * store's periodic re-scan then does the work alone).
   */
  watch(onChange: () => void): Disposable | undefined {
    let watcher: FSWatcher;
    try {
      watcher = watch(this.jobsDir, { persistent: false }, () => onChange());
    } catch {
      return undefined;
    }
    watcher.on('error', () => watcher.close());
    return { dispose: () => watcher.close() };
  }

  /**
   * Deletes what crashed or old writers left behind: temp files older than an hour (a write in progress in another
   * window is never that old), tombstones and announcement claims older than a week, refresh requests nobody took.
   */
  async sweep(now: number): Promise<void> {
    const old = async (dir: string, name: string, maxAgeMs: number) => {
      const stamp = await stampOf(join(dir, name));
      if (stamp && now - stamp.mtimeMs > maxAgeMs) await rm(join(dir, name), { force: true });
    };
    for (const name of await readdir(this.jobsDir)) {
      if (name.endsWith('.tmp')) await old(this.jobsDir, name, TEMP_MAX_AGE_MS);
      else if (name.endsWith('.refresh')) await old(this.jobsDir, name, REQUEST_MAX_AGE_MS);
    }
    for (const name of await readdir(this.leasesDir)) if (name.endsWith('.tmp')) await old(this.leasesDir, name, TEMP_MAX_AGE_MS);
    for (const name of await readdir(this.removedDir)) await old(this.removedDir, name, TOMBSTONE_MAX_AGE_MS);
    for (const name of await readdir(this.finishedDir)) if (!existsSync(this.jobPath(name))) await old(this.finishedDir, name, TOMBSTONE_MAX_AGE_MS);
  }
}

/** Copies `path` to `backup` (replacing an older backup: the text being replaced is the newer version's latest). */
async function backUp(path: string, backup: string): Promise<void> {
  try {
    await copyFile(path, backup);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function keyOf(name: string): string | undefined {
  if (!name.endsWith('.json')) return undefined;
  const key = name.slice(0, -'.json'.length);
  return isJobKey(key) ? key : undefined;
}

async function stampOf(path: string): Promise<FileStamp | undefined> {
  try {
    const s = await stat(path);
    return { mtimeMs: s.mtimeMs, size: s.size, ino: s.ino };
  } catch {
    return undefined;
  }
}
