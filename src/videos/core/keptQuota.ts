// The disk quota of the kept video results: the least recently used go first (a play touches its file, so the
// modification time is the last use). A job's thumbnail counts with its video and goes with it. Loaded with the
// first download (videoCommands.ts). Pure Node.
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { keptFileOwner } from './keptFiles';

/** One job's kept files: its video and its thumbnail (either may be missing). */
interface KeptGroup {
  paths: string[];
  bytes: number;
  /** The video's last use; a thumbnail alone counts by its own. */
  usedAt: number;
  hasVideo: boolean;
}

/**
 * Removes the least recently used kept results in `folder` (a video with its thumbnail), never `keep`'s, until they
 * take at most `quotaBytes`. `count` counts videos.
 */
export async function evictOverQuota(folder: string, keep: string, quotaBytes: number): Promise<{ count: number; bytes: number; removed: string[] }> {
  const groups = new Map<string, KeptGroup>();
  for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
    const owner = keptFileOwner(name);
    if (owner === undefined) continue;
    const path = join(folder, name);
    const stat = await fs.lstat(path).catch(() => undefined);
    if (!stat?.isFile()) continue;
    const group = groups.get(owner.stem) ?? { paths: [], bytes: 0, usedAt: 0, hasVideo: false };
    group.paths.push(path);
    group.bytes += stat.size;
    if (!owner.thumbnail) group.usedAt = stat.mtimeMs;
    else if (!group.hasVideo) group.usedAt = Math.max(group.usedAt, stat.mtimeMs);
    group.hasVideo ||= !owner.thumbnail;
    groups.set(owner.stem, group);
  }
  const kept = keptFileOwner(basename(keep))?.stem;
  let total = [...groups.values()].reduce((sum, g) => sum + g.bytes, 0);
  const evicted = { count: 0, bytes: 0, removed: [] as string[] };
  for (const [owner, group] of [...groups].sort((a, b) => a[1].usedAt - b[1].usedAt)) {
    if (total <= quotaBytes) break;
    if (owner === kept) continue;
    for (const path of group.paths) await fs.rm(path, { force: true });
    total -= group.bytes;
    if (group.hasVideo) evicted.count++;
    evicted.bytes += group.bytes;
    evicted.removed.push(...group.paths);
  }
  return evicted;
}
