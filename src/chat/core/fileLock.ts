// Lock files, as git uses them: `<name>.lock` created exclusively, holding the writer's pid, removed when the
// write is done. Every VS Code window runs its own extension host, so windows sharing the chat folder take the lock
// around each read-merge-write. A lock whose writer has died, or that is very old, is broken; one that a live
// window holds is waited for.
import type { Clock } from '../../util/clock';
import { sleeperFor } from '../../util/clock';
import type { StoreFileSystem } from './fileSystem';

export interface LockOptions {
  clock: Clock;
  pid: number;
  isAlive(pid: number): boolean;
}

/** A lock this old is broken even if its pid runs (the pid may have been reused, or be another machine's). */
export const LOCK_STALE_MS = 60_000;
/** An empty lock file (a crash between create and write) is broken after this long. */
const EMPTY_LOCK_STALE_MS = 5_000;
const RETRY_MS = 20;
const GIVE_UP_MS = LOCK_STALE_MS + 10_000;

export class LockTimeoutError extends Error {
  constructor(name: string) {
    super(`${name} stayed locked by another VS Code window for over ${Math.round(GIVE_UP_MS / 1000)} s`);
  }
}

/** Runs `task` while holding `<name>.lock`. */
export async function withFileLock<T>(fs: StoreFileSystem, name: string, options: LockOptions, task: () => Promise<T>): Promise<T> {
  const lock = `${name}.lock`;
  const sleep = sleeperFor(options.clock);
  const started = options.clock.now();
  while (!(await fs.createExclusive(lock, `${options.pid}\n`))) {
    if (await isStale(fs, lock, options)) {
      await fs.remove(lock);
      continue;
    }
    if (options.clock.now() - started > GIVE_UP_MS) throw new LockTimeoutError(name);
    await sleep(RETRY_MS);
  }
  try {
    return await task();
  } finally {
    await fs.remove(lock);
  }
}

async function isStale(fs: StoreFileSystem, lock: string, options: LockOptions): Promise<boolean> {
  const [text, modifiedAt] = await Promise.all([fs.read(lock), fs.modifiedAt(lock)]);
  if (text === undefined || modifiedAt === undefined) return false; // released meanwhile: try again at once
  const age = options.clock.now() - modifiedAt;
  if (age >= LOCK_STALE_MS) return true;
  const pid = Number.parseInt(text, 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return age >= EMPTY_LOCK_STALE_MS;
  return !options.isAlive(pid);
}
