// The one way an attachment is read from disk. A path may be a symlink to anything (`/dev/zero`, a FIFO, a key in
// ~/.ssh), and a size from `stat` proves nothing (a device says 0), so: the real path is resolved first (what the
// link leads to is what the user is asked about), only a regular file is opened, and the read stops at the limit
// whatever the file turns out to hold.
import { constants, promises as fs, type Stats } from 'node:fs';

export type FileKind = 'file' | 'folder' | 'device' | 'pipe' | 'socket' | 'other';

export function kindOf(stat: Stats): FileKind {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'device';
  if (stat.isFIFO()) return 'pipe';
  if (stat.isSocket()) return 'socket';
  return 'other';
}

const KIND_WORDS: Record<Exclude<FileKind, 'file'>, string> = { folder: 'a folder', device: 'a device', pipe: 'a named pipe', socket: 'a socket', other: 'not a regular file' };

/** Why something that is not a regular file cannot be attached; `realPath` is named when a link led there. */
export function notAFileRefusal(display: string, kind: Exclude<FileKind, 'file'>, realPath?: string): string {
  const via = realPath ? ` (it links to ${realPath})` : '';
  const what = kind === 'folder' ? 'a folder; attach the files in it instead' : `${KIND_WORDS[kind]}, not a regular file; only files can be attached`;
  return `${display}${via} is ${what}.`;
}

export interface ResolvedFile {
  /** The path with every symlink resolved. */
  realPath: string;
  kind: FileKind;
  /** What `stat` says; a device or a growing file may hold more. */
  size: number;
}

/** Where a path leads, without reading it. Rejects as fs does (ENOENT, a loop of links). */
export async function resolveFile(path: string): Promise<ResolvedFile> {
  const realPath = await fs.realpath(path);
  const stat = await fs.stat(realPath);
  return { realPath, kind: kindOf(stat), size: stat.size };
}

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; kind: Exclude<FileKind, 'file'> } | { ok: false; tooLarge: true; atLeast: number };

// O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever. O_NOFOLLOW: the real path was resolved, so a
// link in its place now means it was swapped since. Both are 0 where the platform has no such flag.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const CHUNK = 256 * 1024;

/**
 * Reads at most `maxBytes` of a regular file: opens it, checks what was opened is a regular file, and reads up to
 * `maxBytes + 1` bytes; one byte more than the limit means it is too large, whatever `stat` said.
 */
export async function readBounded(realPath: string, maxBytes: number): Promise<BoundedRead> {
  const handle = await fs.open(realPath, OPEN_FLAGS);
  try {
    const stat = await handle.stat();
    const kind = kindOf(stat);
    if (kind !== 'file') return { ok: false, kind };
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > maxBytes) return { ok: false, tooLarge: true, atLeast: Math.max(stat.size, total) };
    return { ok: true, bytes: Buffer.concat(chunks, total) };
  } finally {
    await handle.close();
  }
}

/**
 * The names in a folder that end with `suffix`, sorted, at most `max`; none when it is missing. The suffix is
 * checked before the cap, so other files in the folder never push a wanted one out.
 */
export async function listFolder(path: string, suffix: string, max: number): Promise<string[]> {
  const entries = await fs.readdir(path).catch(() => [] as string[]);
  return entries.filter((name) => name.endsWith(suffix)).sort().slice(0, max);
}
