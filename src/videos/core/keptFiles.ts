// The kept copies of finished videos, as activation sees them: where a job's copy is, and whether a job still waits
// for one (then the keeper, resultKeeper.ts, loads with the video commands). Pure Node.
import { existsSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { VideoJobRecord } from './jobRecord';
import { urlExpiry } from './resultLinks';
import { isSuccessStatus } from './dialects/status';

/** The kept files' extensions (download.ts names a video by its Content-Type). */
export const KEPT_EXTENSIONS = ['.mp4', '.webm', '.mov'];
/** Results finished longer ago than this without saying when their link expires are not waited for. */
const UNDATED_LINK_MS = 24 * 3_600_000;

export function keptStem(key: string): string {
  return key.replace(/[^\w-]/g, '_').slice(0, 120);
}

export class KeptFiles {
  constructor(readonly folder: string) {}

  /** The kept copy of the job's (first) result, if there is one. */
  keptFile(key: string): string | undefined {
    const stem = join(this.folder, keptStem(key));
    for (const extension of KEPT_EXTENSIONS) if (existsSync(stem + extension)) return stem + extension;
    return undefined;
  }

  /** Marks a kept file as just used (playing it), so the quota evicts others first. */
  async touch(file: string, now: number): Promise<void> {
    await fs.utimes(file, new Date(now), new Date(now)).catch(() => undefined);
  }

  /** A finished result not kept yet whose link still works (or may: an undated link of the last day). */
  waits(record: VideoJobRecord, now: number): string | undefined {
    const url = record.resultUrls[0];
    if (!url || !isSuccessStatus(record.status) || this.keptFile(record.key)) return undefined;
    const expiresAt = record.expiresAt ?? urlExpiry(url);
    return (expiresAt === undefined ? now - (record.completedAt ?? record.updatedAt) <= UNDATED_LINK_MS : expiresAt > now) ? url : undefined;
  }
}
