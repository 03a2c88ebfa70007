// One JSON value in one file, replaced atomically (util/atomicFile.ts), for small caches that several extension
// hosts share. Readers merge what they load with what they hold, so a lost race costs a sample, never the file.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from './atomicFile';

export class JsonFile {
  constructor(
    readonly path: string,
    /** Larger files are not read: a cache that grew past this is damaged. */
    private readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  /** The stored value; undefined when there is no file. A file that is too large or not JSON throws. */
  async load(): Promise<unknown> {
    let text: string;
    try {
      const bytes = await readFile(this.path);
      if (bytes.byteLength > this.maxBytes) throw new Error(`${this.path} is larger than ${this.maxBytes} bytes`);
      text = bytes.toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as unknown;
  }

  async save(value: unknown): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.path, JSON.stringify(value));
  }
}
