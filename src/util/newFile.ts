// Creating a file that must be new, for everything the extension saves into a user's folders (downloads, generated
// media): each try is an exclusive create (O_EXCL), so neither an existing file nor a dangling link is ever written
// through, and two writers can never end up in the same file. Pure Node.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

export class NewFileError extends Error {
  override readonly name = 'NewFileError';
}

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Opens `file` for writing if nothing has its name yet; 'exists' when something does. */
export async function openNewFile(file: string): Promise<FileHandle | 'exists'> {
  try {
    return await open(file, EXCLUSIVE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw new NewFileError(`Could not create ${file}: ${(error as Error).message}`);
  }
}

/** Creates `stem + extension` in `directory`, or `stem (2)…`, `stem (3)…` when taken (from `stem (first)` on). */
export async function createNewFile(directory: string, stem: string, extension: string, first = 1): Promise<{ file: string; handle: FileHandle }> {
  for (let n = first; n < 10_000; n++) {
    const file = join(directory, n === 1 ? `${stem}${extension}` : `${stem} (${n})${extension}`);
    const handle = await openNewFile(file);
    if (handle !== 'exists') return { file, handle };
  }
  throw new NewFileError(`Too many files named like ${stem}${extension} in ${directory}.`);
}
