// Replacing a file in one step, safely with several extension hosts writing into the same folder: the data goes to a
// temp file named after the writer's pid plus a random part (two windows never share one), is flushed to disk, and
// is then renamed over the target. A reader sees the old file or the new one, never a part.
import { randomBytes } from 'node:crypto';
import { linkSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';

/** The temp name for a write of `file`: `<file>.<pid>-<random>.tmp`, in the same folder. */
export function tempPathFor(file: string): string {
  return `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

/** Writes `data` to `file` atomically and durably; on failure the temp file is removed and `file` is untouched. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = tempPathFor(file);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Creates the file only if nothing has that name yet, atomically: the text is complete in a temp file, which is then
 * linked to the name (a link fails when the name is taken). False when the name was taken.
 */
export function createExclusiveSync(path: string, text: string): boolean {
  const temp = tempPathFor(path);
  writeFileSync(temp, text, 'utf8');
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/** Replaces the file atomically (a temp file, then rename): a reader sees the old text or the new, never a mix. */
export function replaceSync(path: string, text: string): void {
  const temp = tempPathFor(path);
  writeFileSync(temp, text, 'utf8');
  renameSync(temp, path);
}
