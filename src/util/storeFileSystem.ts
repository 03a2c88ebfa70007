// The few file operations the session store needs, on names inside one folder. The store builds atomic writes
// (temp file, then rename) out of them; tests substitute an in-memory folder that can fail on demand.
import { appendFileSync, mkdirSync, watch } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';

export interface StoreFileSystem {
  /** Where the files are, for messages (the folder's path). */
  readonly location: string;
  /** The file's text, or undefined when it does not exist. */
  read(name: string): Promise<string | undefined>;
  /** Creates or replaces the file, flushed to disk before it resolves. */
  write(name: string, data: string): Promise<void>;
  /** Moves `from` over `to`, replacing it in one step. */
  rename(from: string, to: string): Promise<void>;
  /** Deletes the file; a missing file is not an error. */
  remove(name: string): Promise<void>;
  list(): Promise<string[]>;
  /** Appends before returning, so a crash right after keeps the data. */
  appendSync(name: string, data: string): void;
  /** Creates the file with `data` only if no file has that name (one step, as lock files need); false if one has. */
  createExclusive(name: string, data: string): Promise<boolean>;
  /** When the file was last written (ms since the epoch), or undefined when it does not exist. */
  modifiedAt(name: string): Promise<number | undefined>;
  /** Sets the file's modification time to now (a held lock's heartbeat). */
  touch(name: string): Promise<void>;
}

/** Whether a process with this id runs on this machine (a process we may not signal still runs). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Calls `onChange` when a file in the folder is written, renamed or removed (by any window). Best effort: where the
 * platform cannot watch, nothing is reported and the view refreshes on this window's own changes only.
 */
export function watchFolder(folder: string, onChange: (name: string) => void): { dispose(): void } {
  try {
    mkdirSync(folder, { recursive: true });
    const watcher = watch(folder, { persistent: false }, (_event, name) => onChange(typeof name === 'string' ? name : ''));
    watcher.on('error', () => watcher.close());
    return { dispose: () => watcher.close() };
  } catch {
    return { dispose: () => undefined };
  }
}

/** Names in the store are plain file names, never paths. */
export function assertPlainName(name: string): void {
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(name) || name.startsWith('.')) throw new Error(`Not a plain file name: ${name}`);
}

/** The store's folder on the local disk (the extension host's `globalStorageUri` is always a local path). */
export class NodeFileSystem implements StoreFileSystem {
  private created = false;

  constructor(private readonly folder: string) {}

  get location(): string {
    return this.folder;
  }

  async read(name: string): Promise<string | undefined> {
    assertPlainName(name);
    try {
      return await readFile(join(this.folder, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(name: string, data: string): Promise<void> {
    assertPlainName(name);
    await this.ensureFolder();
    const handle = await open(join(this.folder, name), 'w');
    try {
      await handle.writeFile(data, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  async rename(from: string, to: string): Promise<void> {
    assertPlainName(from);
    assertPlainName(to);
    await rename(join(this.folder, from), join(this.folder, to));
  }

  async remove(name: string): Promise<void> {
    assertPlainName(name);
    await rm(join(this.folder, name), { force: true });
  }

  async list(): Promise<string[]> {
    try {
      return await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async createExclusive(name: string, data: string): Promise<boolean> {
    assertPlainName(name);
    await this.ensureFolder();
    let handle;
    try {
      handle = await open(join(this.folder, name), 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      await handle.writeFile(data, 'utf8');
    } finally {
      await handle.close();
    }
    return true;
  }

  async modifiedAt(name: string): Promise<number | undefined> {
    assertPlainName(name);
    try {
      return (await stat(join(this.folder, name))).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async touch(name: string): Promise<void> {
    assertPlainName(name);
    const now = new Date();
    await utimes(join(this.folder, name), now, now);
  }

  appendSync(name: string, data: string): void {
    assertPlainName(name);
    if (!this.created) {
      mkdirSync(this.folder, { recursive: true });
      this.created = true;
    }
    appendFileSync(join(this.folder, name), data, 'utf8');
  }

  private async ensureFolder(): Promise<void> {
    if (this.created) return;
    await mkdir(this.folder, { recursive: true });
    this.created = true;
  }
}
