// Which budget alerts were given, shared by every window: `usage/alerts.json` in the global storage folder, changed
// under its lock (util/lockedJsonFile.ts). A window alerts only for the marks it claims itself, so when two windows
// see the same threshold passed at once, exactly one of them says so. Marks older than two periods are dropped;
// fields this version does not know round-trip; an unreadable file is set aside.
import { join } from 'node:path';
import type { Clock } from '../../util/clock';
import { LockedJsonFile } from '../../util/lockedJsonFile';
import { isRecord } from '../../util/records';

export const ALERTS_FILE = 'alerts.json';
/** Marks are kept this long (a period is a month; the one before may still be read at its end). */
const KEEP_MS = 70 * 86_400_000;
const MAX_MARKS = 2000;
const MAX_BYTES = 512 * 1024;

/** Who remembers the alerts given. */
export interface AlertMarks {
  /** Marks the keys as given; resolves with those this call marked (the others were given before, anywhere). */
  claim(keys: readonly string[]): Promise<string[]>;
}

export class BudgetMarks implements AlertMarks {
  private readonly file: LockedJsonFile;

  constructor(
    usageFolder: string,
    private readonly clock: Clock,
  ) {
    this.file = LockedJsonFile.at(join(usageFolder, ALERTS_FILE), clock, MAX_BYTES);
  }

  claim(keys: readonly string[]): Promise<string[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.file.update((raw) => {
      const now = this.clock.now();
      const given = marksOf(raw);
      const fresh = keys.filter((key) => !given.has(key));
      if (fresh.length === 0) return { result: [] };
      for (const key of fresh) given.set(key, now);
      const kept = [...given].filter(([, at]) => Math.abs(now - at) <= KEEP_MS).sort((a, b) => b[1] - a[1]).slice(0, MAX_MARKS);
      return { next: { ...(isRecord(raw) && raw), version: 1, given: Object.fromEntries(kept) }, result: fresh };
    });
  }
}

function marksOf(raw: unknown): Map<string, number> {
  const marks = new Map<string, number>();
  if (!isRecord(raw) || !isRecord(raw.given)) return marks;
  for (const [key, at] of Object.entries(raw.given)) {
    if (key.length <= 300 && typeof at === 'number' && Number.isFinite(at)) marks.set(key, at);
  }
  return marks;
}
