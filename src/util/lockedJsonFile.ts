// A small JSON file that several windows change: each change takes the file's lock (fileLock.ts), reads the file
// afresh, applies the change and replaces the file with the one atomic write, so N windows changing it at once never
// lose an update (a read-modify-write without the lock lets two windows each write what they read before the
// other's change). A file that cannot be read is moved aside, never overwritten.
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import type { Clock } from './clock';
import { withFileLock, type LockOptions } from './fileLock';
import { NodeFileSystem, processIsAlive, type StoreFileSystem } from './storeFileSystem';

/** What a change decides: the value to write (undefined: leave the file as it is) and what the caller gets back. */
export interface JsonChange<T> {
  next?: unknown;
  result: T;
}

export class LockedJsonFile {
  private readonly lock: LockOptions;

  constructor(
    private readonly fs: StoreFileSystem,
    readonly name: string,
    clock: Clock,
    /** A larger file is damage. */
    private readonly maxBytes = 1024 * 1024,
  ) {
    this.lock = { clock, pid: process.pid, isAlive: processIsAlive };
  }

  /** The file at `path` on the local disk. */
  static at(path: string, clock: Clock, maxBytes?: number): LockedJsonFile {
    return new LockedJsonFile(new NodeFileSystem(dirname(path)), basename(path), clock, maxBytes);
  }

  get path(): string {
    return join(this.fs.location, this.name);
  }

  /**
   * Under the lock: `change` gets the stored value (undefined when there is no file, or it was damaged and has just
   * been moved aside) and decides what to write.
   */
  update<T>(change: (value: unknown) => JsonChange<T>): Promise<T> {
    return withFileLock(this.fs, this.name, this.lock, async () => {
      const value = await this.readOrSetAside();
      const { next, result } = change(value);
      if (next !== undefined) await writeFileAtomic(this.path, JSON.stringify(next));
      return result;
    });
  }

  /** The stored value without the lock (a reader sees the old file or the new one); undefined when absent or damaged. */
  async read(): Promise<unknown> {
    const text = await this.fs.read(this.name).catch(() => undefined);
    return text === undefined ? undefined : parse(text, this.maxBytes);
  }

  private async readOrSetAside(): Promise<unknown> {
    const text = await this.fs.read(this.name);
    if (text === undefined) return undefined;
    const value = parse(text, this.maxBytes);
    if (value === undefined) await this.fs.rename(this.name, `${this.name}.damaged-${this.lock.clock.now()}`);
    return value;
  }
}

function parse(text: string, maxBytes: number): unknown {
  if (text.length > maxBytes) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
