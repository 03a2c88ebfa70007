// Lock files, as git and proper-lockfile use them: `<name>.lock` created exclusively, holding a token unique to this
// acquisition (`<pid>-<random>`), refreshed while held and removed when the write is done. Every VS Code window runs
// its own extension host, so windows sharing the chat folder take the lock around each read-merge-write.
//
// A lock is stale when its holder's process is gone, or when the holder stopped refreshing it for `staleMs`. Breaking
// a stale lock has a single winner: several windows see the same dead lock at once, and a plain "remove it and take
// it" lets a late remover delete the lock a faster window has just taken, so both write and one loses the other's
// turns (proper-lockfile's own stale check has this race too). Here the breaker must first create
// `<name>.lock.<token>.break` exclusively, then removes the lock only if it still holds that token; a lock taken
// meanwhile has another token and is left alone.
import { randomBytes } from 'node:crypto';
import type { Clock, TimerHandle } from './clock';
import { sleeperFor } from './clock';
import type { StoreFileSystem } from './storeFileSystem';

export interface LockOptions {
  clock: Clock;
  pid: number;
  isAlive(pid: number): boolean;
  /** A held lock is refreshed a few times within this; one not refreshed for this long is broken. */
  staleMs?: number;
}

/** How long a lock may go unrefreshed before it is broken, even if a process with its pid runs (pids are reused). */
export const LOCK_STALE_MS = 10_000;
/** An empty lock file (a crash between create and write) is broken after this long. */
const EMPTY_LOCK_STALE_MS = 5_000;
const RETRY_MS = 20;
/** Waiting longer than this for a lock that is refreshed by a live window is given up with an error. */
const GIVE_UP_AFTER_STALE_MS = 20_000;

export class LockTimeoutError extends Error {
  constructor(name: string, waitedMs: number) {
    super(`${name} stayed locked by another VS Code window for over ${Math.round(waitedMs / 1000)} s`);
  }
}

/** Runs `task` while holding `<name>.lock`. */
export async function withFileLock<T>(fs: StoreFileSystem, name: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
  const lock = `${name}.lock`;
  const staleMs = options.staleMs ?? LOCK_STALE_MS;
  const giveUpMs = staleMs + GIVE_UP_AFTER_STALE_MS;
  const content = `${options.pid}-${randomBytes(6).toString('hex')}\n`;
  const sleep = sleeperFor(options.clock);
  const started = options.clock.now();
  while (!(await fs.createExclusive(lock, content))) {
    const seen = await fs.read(lock);
    if (seen === undefined) continue; // released meanwhile: try again at once
    if (await isStale(fs, lock, seen, options, staleMs)) {
      await breakLock(fs, lock, seen, options, staleMs);
      continue;
    }
    if (options.clock.now() - started > giveUpMs) throw new LockTimeoutError(name, giveUpMs);
    await sleep(RETRY_MS);
  }
  const heartbeat = refreshWhileHeld(fs, lock, options.clock, staleMs);
  try {
    return await task();
  } finally {
    heartbeat.stop();
    // Only our own lock is removed: one broken while this window was frozen now belongs to another.
    if ((await fs.read(lock)) === content) await fs.remove(lock);
  }
}

/** Removes the lock whose content was `seen`, unless another window is breaking it or it was replaced meanwhile. */
async function breakLock(fs: StoreFileSystem, lock: string, seen: string, options: LockOptions, staleMs: number): Promise<void> {
  const marker = `${lock}.${instanceKey(seen)}.break`;
  if (!(await fs.createExclusive(marker, `${options.pid}\n`))) {
    // Another window is breaking it; a marker left by a breaker that died is removed so the lock can be broken.
    const markerText = await fs.read(marker);
    if (markerText !== undefined && (await isStale(fs, marker, markerText, options, staleMs))) await fs.remove(marker);
    return;
  }
  try {
    if ((await fs.read(lock)) === seen) await fs.remove(lock);
  } finally {
    await fs.remove(marker);
  }
}

/** The acquisition a lock's content names (its token), as a plain file name part. */
function instanceKey(content: string): string {
  const token = /^[A-Za-z0-9-]{1,80}/.exec(content)?.[0];
  return token ?? 'empty';
}

async function isStale(fs: StoreFileSystem, file: string, text: string, options: LockOptions, staleMs: number): Promise<boolean> {
  const modifiedAt = await fs.modifiedAt(file);
  if (modifiedAt === undefined) return false; // released meanwhile: try again at once
  const age = options.clock.now() - modifiedAt;
  if (age >= staleMs) return true;
  const pid = Number.parseInt(text, 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return age >= Math.min(EMPTY_LOCK_STALE_MS, staleMs);
  return pid !== options.pid && !options.isAlive(pid);
}

/** Touches the lock a few times per stale period, so a window that is slow (not dead) keeps it. */
function refreshWhileHeld(fs: StoreFileSystem, lock: string, clock: Clock, staleMs: number): { stop(): void } {
  let timer: TimerHandle | undefined;
  let stopped = false;
  const arm = () => {
    timer = clock.setTimeout(() => {
      void fs
        .touch(lock)
        .catch(() => undefined)
        .then(() => {
          if (!stopped) arm();
        });
    }, Math.max(1, Math.floor(staleMs / 3)));
  };
  arm();
  return {
    stop: () => {
      stopped = true;
      if (timer !== undefined) clock.clearTimeout(timer);
    },
  };
}
