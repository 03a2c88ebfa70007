// The disk quota of the kept video results: the least recently used files go first (a play touches its file, so
// the modification time is the last use). Loaded with the first download (videoCommands.ts). Pure Node.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { KEPT_EXTENSIONS } from './keptFiles';

/** Removes the least recently used kept files in `folder`, never `keep`, until they take at most `quotaBytes`. */
export async function evictOverQuota(folder: string, keep: string, quotaBytes: number): Promise<{ count: number; bytes: number; removed: string[] }> {
  const files: Array<{ path: string; bytes: number; usedAt: number }> = [];
  for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
    if (!KEPT_EXTENSIONS.some((extension) => name.endsWith(extension))) continue;
    const path = join(folder, name);
    const stat = await fs.lstat(path).catch(() => undefined);
    if (stat?.isFile()) files.push({ path, bytes: stat.size, usedAt: stat.mtimeMs });
  }
  let total = files.reduce((sum, f) => sum + f.bytes, 0);
  const evicted = { count: 0, bytes: 0, removed: [] as string[] };
  for (const file of files.sort((a, b) => a.usedAt - b.usedAt)) {
    if (total <= quotaBytes) break;
    if (file.path === keep) continue;
    await fs.rm(file.path, { force: true });
    total -= file.bytes;
    evicted.count++;
    evicted.bytes += file.bytes;
    evicted.removed.push(file.path);
  }
  return evicted;
}
