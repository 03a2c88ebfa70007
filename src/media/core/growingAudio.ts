// Speech that streams (a chunked body, or `stream_format: "sse"`): its bytes are written to a file in the history's
// files folder as they arrive, and `onStart` hears of the file once its first bytes are on disk, so a player can
// begin before the whole answer is there. The file is named `stream-<random>.<ext>.part`: no entry names it, so a
// window that crashes mid-stream leaves it for the history's sweep (files of no entry, an hour old). When the answer
// is complete the history keeps its own copy (written atomically, as every entry's file) and this one is removed; a
// reader that has it open keeps reading it. Bounded: no more than `maxBytes` is written. Pure Node.
import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_EXTENSIONS, type AudioType } from '../../gateway/mediaTypes';

export interface AudioStart {
  /** The growing file. */
  path: string;
  contentType: AudioType;
}

export class GrowingAudioFile {
  #handle: Promise<FileHandle> | undefined;
  #path: string | undefined;
  /** Writes in arrival order; the first failure stops the rest (the answer is still kept whole at the end). */
  #writing: Promise<void> = Promise.resolve();
  #failed: unknown;
  #written = 0;
  #closed = false;

  constructor(
    private readonly folder: string,
    private readonly maxBytes: number,
    private readonly onStart: (start: AudioStart) => void,
  ) {}

  /** The file, once the first bytes arrived. */
  get path(): string | undefined {
    return this.#path;
  }

  /** Appends a piece of audio (in order); the first piece creates the file and, once written, tells `onStart`. */
  push(chunk: Uint8Array, contentType: AudioType): void {
    if (this.#closed || this.#failed !== undefined || this.#written + chunk.length > this.maxBytes) return;
    this.#written += chunk.length;
    const first = this.#handle === undefined;
    if (first) {
      this.#path = join(this.folder, `stream-${randomBytes(8).toString('hex')}.${MEDIA_EXTENSIONS[contentType]}.part`);
      // Exclusive: never written through an existing file or link.
      this.#handle = open(this.#path, 'wx');
    }
    const handle = this.#handle!;
    const piece = Buffer.from(chunk);
    this.#writing = this.#writing.then(async () => {
      if (this.#failed !== undefined) return;
      try {
        await (await handle).write(piece);
      } catch (error) {
        this.#failed = error;
        return;
      }
      if (first) this.onStart({ path: this.#path!, contentType });
    });
  }

  /** Waits for every write, then closes the file (it stays until `remove`). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#writing;
    const handle = await this.#handle?.catch(() => undefined);
    this.#handle = undefined;
    await handle?.close().catch(() => undefined);
  }

  /** Closes and deletes the growing file (the history has its own copy, or the answer failed). */
  async remove(): Promise<void> {
    await this.close();
    if (this.#path) await rm(this.#path, { force: true });
  }
}
