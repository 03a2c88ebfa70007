// The kept copies of finished videos, as activation sees them: where a job's copy (and its thumbnail) is, and whether
// a job still waits for one (then the keeper, resultKeeper.ts, loads with the video commands). Pure Node.
import { existsSync, lstatSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { VideoJobRecord } from './jobRecord';
import { urlExpiry } from './resultLinks';
import { isSuccessStatus } from './dialects/status';

/** The kept files' extensions (download.ts names a video by its Content-Type). */
export const KEPT_EXTENSIONS = ['.mp4', '.webm', '.mov'];
/** Results finished longer ago than this without saying when their link expires are not waited for. */
const UNDATED_LINK_MS = 24 * 3_600_000;

/** The kept thumbnails' extensions (download.ts names an image by its Content-Type). */
export const THUMBNAIL_EXTENSIONS = ['.png', '.jpg', '.webp'];
/** The most bytes a thumbnail may take: a still, not a video. */
export const MAX_THUMBNAIL_BYTES = 5 * 1024 * 1024;
const THUMBNAIL_MARK = '.thumb';

export function keptStem(key: string): string {
  return key.replace(/[^\w-]/g, '_').slice(0, 120);
}

/** A job's thumbnail is named after its video: the same stem, then `.thumb` and an image's extension. */
export function thumbnailStem(key: string): string {
  return keptStem(key) + THUMBNAIL_MARK;
}

/** The stem of the job a kept file's name belongs to, and whether it is the thumbnail; undefined for any other file. */
export function keptFileOwner(name: string): { stem: string; thumbnail: boolean } | undefined {
  const video = KEPT_EXTENSIONS.find((extension) => name.endsWith(extension));
  if (video) return { stem: name.slice(0, -video.length), thumbnail: false };
  const image = THUMBNAIL_EXTENSIONS.find((extension) => name.endsWith(THUMBNAIL_MARK + extension));
  return image ? { stem: name.slice(0, -(THUMBNAIL_MARK + image).length), thumbnail: true } : undefined;
}

export class KeptFiles {
  constructor(readonly folder: string) {}

  /** The kept copy of the job's (first) result, if there is one. */
  keptFile(key: string): string | undefined {
    const stem = join(this.folder, keptStem(key));
    for (const extension of KEPT_EXTENSIONS) if (existsSync(stem + extension)) return stem + extension;
    return undefined;
  }

  /** The kept thumbnail of the job's result: a file of ours (never a link planted in its place), if there is one. */
  thumbnailFile(key: string): string | undefined {
    const stem = join(this.folder, thumbnailStem(key));
    for (const extension of THUMBNAIL_EXTENSIONS) {
      const file = stem + extension;
      if (lstatSync(file, { throwIfNoEntry: false })?.isFile()) return file;
    }
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
