// Writing generated media into the workspace. Pure Node (no `vscode`). The extension chooses everything about the
// file: its folder stays inside the workspace folder (symbolic links that lead out are refused), its name comes from
// the entry (kind, time, prompt words), its extension from the allowlist by the bytes' type, and it is created
// exclusively, so an existing file is only ever replaced when the caller asked the user first.
import { mkdir, realpath, rm, type FileHandle } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { MEDIA_EXTENSIONS } from '../../gateway/mediaTypes';
import { writeFileAtomic } from '../../util/atomicFile';
import { createNewFile, NewFileError, openNewFile } from '../../util/newFile';
import type { MediaEntry } from './mediaEntry';

export class SaveError extends Error {
  override readonly name = 'SaveError';
  constructor(
    readonly code: 'outside' | 'file',
    message: string,
  ) {
    super(message);
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** "image-20250101-093000-a-paper-boat-at-dusk.png" (whole words, at most 40 characters), "-2"… when the entry holds several files. */
export function mediaFileName(entry: MediaEntry, index: number): string {
  const file = entry.files[index];
  const d = new Date(entry.createdAt);
  const time = `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
  let words = '';
  for (const word of entry.prompt.normalize('NFKD').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) {
    const next = words ? `${words}-${word}` : word.slice(0, 40);
    if (next.length > 40) break;
    words = next;
  }
  const suffix = entry.files.length > 1 ? `-${index + 1}` : '';
  return `${entry.kind}-${time}${words ? `-${words}` : ''}${suffix}.${MEDIA_EXTENSIONS[file.contentType]}`;
}

/**
 * The folder `subfolder` ('a/b', already checked to have no '..' or root) inside `workspaceFolder`, created as
 * needed one segment at a time; refused when any segment resolves outside the workspace folder.
 */
export async function folderInside(workspaceFolder: string, subfolder: string): Promise<string> {
  const root = await realpath(workspaceFolder);
  let dir = root;
  for (const segment of subfolder.split('/').filter((s) => s !== '' && s !== '.')) {
    if (segment === '..') throw new SaveError('outside', `The save folder "${subfolder}" leaves the workspace.`);
    const next = join(dir, segment);
    await mkdir(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw new SaveError('file', `Could not create the folder ${next}: ${error.message}`);
    });
    const real = await realpath(next);
    if (real !== root && !real.startsWith(root + sep)) throw new SaveError('outside', `The save folder "${subfolder}" leads outside the workspace (through a link to ${real}); nothing was saved.`);
    dir = real;
  }
  return dir;
}

/** Creates `dir/name` with `data` only if nothing has that name (not even a dangling link); 'exists' otherwise. */
export async function writeNewFile(dir: string, name: string, data: Uint8Array): Promise<string | 'exists'> {
  const file = join(dir, name);
  const handle = await openNewFile(file).catch(asSaveError);
  if (handle === 'exists') return 'exists';
  await fill({ file, handle }, data);
  return file;
}

/** Creates `name`, else `stem (2).ext`, `stem (3).ext` …, each try exclusive. */
export async function writeUnderFreeName(dir: string, name: string, data: Uint8Array): Promise<string> {
  const dot = name.lastIndexOf('.');
  const created = await createNewFile(dir, dot > 0 ? name.slice(0, dot) : name, dot > 0 ? name.slice(dot) : '').catch(asSaveError);
  await fill(created, data);
  return created.file;
}

/** Replaces `dir/name` (the user agreed) in one step: a temp file beside it, renamed over it. */
export async function replaceFile(dir: string, name: string, data: Uint8Array): Promise<string> {
  const file = join(dir, name);
  try {
    await writeFileAtomic(file, data);
    return file;
  } catch (error) {
    throw new SaveError('file', `Could not replace ${file}: ${(error as Error).message}`);
  }
}

/** Writes the whole of `data` into a file just created; on failure the file is removed. */
async function fill(created: { file: string; handle: FileHandle }, data: Uint8Array): Promise<void> {
  try {
    await created.handle.writeFile(data);
    await created.handle.close();
  } catch (error) {
    await created.handle.close().catch(() => undefined);
    await rm(created.file, { force: true });
    throw new SaveError('file', `Could not write ${created.file}: ${(error as Error).message}`);
  }
}

function asSaveError(error: unknown): never {
  throw error instanceof NewFileError ? new SaveError('file', error.message) : error;
}
