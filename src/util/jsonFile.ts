// One JSON value in one file, replaced atomically (util/atomicFile.ts), for small caches that several extension
// hosts share. Readers merge what they load with what they hold, so a lost race costs a sample, never the file. A
// file that cannot be read is moved aside before anything can be saved over it, as LockedJsonFile does.
import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicFile';
import { realClock, type Clock } from './clock';

export class JsonFile {
  constructor(
    readonly path: string,
    /** Larger files are not read: a cache that grew past this is damaged. */
    private readonly maxBytes = 4 * 1024 * 1024,
    private readonly clock: Clock = realClock,
  ) {}

  /**
   * The stored value; undefined when there is no file. A file that is too large or not JSON is renamed to
   * `<name>.damaged-<ms>` and the load throws, saying where it went; the next save starts a new file.
   */
  async load(): Promise<unknown> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (bytes.byteLength > this.maxBytes) throw await this.setAside(`it is larger than ${this.maxBytes} bytes`);
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (error) {
      throw await this.setAside(`it is not JSON (${(error as Error).message})`);
    }
  }

  private async setAside(why: string): Promise<Error> {
    const aside = `${this.path}.damaged-${this.clock.now()}`;
    // Another window may have moved it first; either way the damaged bytes are kept, never written over.
    const moved = await rename(this.path, aside).then(
      () => true,
      () => false,
    );
    return new Error(`${this.path} could not be read: ${why}. ${moved ? `It was moved to ${aside}` : 'Another window moved it aside'}; a new one is started.`);
  }

  async save(value: unknown): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, JSON.stringify(value));
  }
}
