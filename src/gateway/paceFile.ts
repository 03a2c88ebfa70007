// The pacing state windows share: one small JSON file in the global storage folder, one entry per gateway origin
// and key (named by a hash of the two, never the key). Each write takes the file's lock, reads it afresh and replaces
// it with the one atomic write (util/lockedJsonFile.ts), so N windows writing at once never lose one another's entry.
// Wall times are stored (monotonic clocks differ per process), each with the span it was stated as, and a wait
// read back is never longer than that span: a wall clock that stepped cannot turn 20 s into a day.
// An entry keeps the budgets stated about one model under `models`, and says so (`byModel`): the key-wide budgets
// of an entry without it were written by a version that took any answer's budgets for the whole key, so they are
// not believed (its 429 waits and learned pace were key-wide then too, and still hold).
import { stat } from 'node:fs/promises';
import type { Clock } from '../util/clock';
import { LockedJsonFile } from '../util/lockedJsonFile';
import { isRecord } from '../util/records';
import { MAX_RESET_MS } from './rateLimitHeaders';
import { MAX_MODEL_NAME, MAX_PACED_MODELS, type Budget, type PaceState } from './paceState';

interface StoredSpan {
  /** Wall ms. */
  at: number;
  /** The span it was stated as, from `observedAt`. */
  ms: number;
}

interface StoredBudget {
  limit?: number;
  remaining: number;
  reset: StoredSpan;
}

export interface PaceEntry {
  origin: string;
  /** Wall ms of the answer these figures came from. */
  observedAt: number;
  requests?: StoredBudget;
  tokens?: StoredBudget;
  blocked?: StoredSpan;
  learned?: { limit: number; windowMs: number; expires: StoredSpan };
  /** Budgets stated about one model, by model. */
  models?: Record<string, StoredModel>;
  /** Written by a version that keeps a model's budgets apart: `requests` and `tokens` are the whole key's. */
  byModel?: true;
  [unknown: string]: unknown;
}

interface StoredModel {
  requests?: StoredBudget;
  tokens?: StoredBudget;
}

const MAX_ENTRIES = 200;
const MAX_FILE_BYTES = 256 * 1024;

/** The shareable part of a state, in wall time (`now` wall, `mono` monotonic, read together). */
export function entryOf(origin: string, state: PaceState, now: number, mono: number): PaceEntry {
  const span = (atMono: number): StoredSpan => ({ at: now + (atMono - mono), ms: Math.max(0, atMono - mono) });
  const budget = (b: Budget | undefined): StoredBudget | undefined =>
    b && b.resetAt > mono ? { ...(b.limit !== undefined && { limit: b.limit }), remaining: Math.max(0, b.remaining - b.spent), reset: span(b.resetAt) } : undefined;
  const entry: PaceEntry = { origin, observedAt: now, byModel: true };
  const requests = budget(state.requests);
  const tokens = budget(state.tokens);
  if (requests) entry.requests = requests;
  if (tokens) entry.tokens = tokens;
  const models: Array<[string, StoredModel]> = [];
  for (const [name, own] of state.models) {
    const stored: StoredModel = { ...(budget(own.requests) && { requests: budget(own.requests) }), ...(budget(own.tokens) && { tokens: budget(own.tokens) }) };
    if (stored.requests || stored.tokens) models.push([name, stored]);
  }
  if (models.length > 0) entry.models = Object.fromEntries(models);
  if (state.blockedUntil !== undefined && state.blockedUntil > mono) entry.blocked = span(state.blockedUntil);
  if (state.learned && state.learned.expiresAt > mono) entry.learned = { limit: state.learned.limit, windowMs: state.learned.windowMs, expires: span(state.learned.expiresAt) };
  return entry;
}

/** Whether an entry asks anything of other windows (a healthy one need not be written). */
export function entryMatters(entry: PaceEntry): boolean {
  return entry.requests !== undefined || entry.tokens !== undefined || entry.blocked !== undefined || entry.learned !== undefined || entry.models !== undefined;
}

/** Takes a stored entry's figures into a state (monotonic), each wait at most what it was stated as. */
export function applyEntry(state: PaceState, entry: PaceEntry, now: number, mono: number): void {
  const until = (s: StoredSpan): number => mono + Math.min(Math.max(0, s.at - now), s.ms);
  const budget = (b: StoredBudget | undefined): Budget | undefined => (b ? { ...(b.limit !== undefined && { limit: b.limit }), remaining: b.remaining, resetAt: until(b.reset), spent: 0 } : undefined);
  // Key-wide budgets from a version that did not keep models apart may be one model's: not believed.
  state.requests = entry.byModel ? budget(entry.requests) : undefined;
  state.tokens = entry.byModel ? budget(entry.tokens) : undefined;
  state.models = new Map();
  for (const [name, stored] of Object.entries(entry.models ?? {})) {
    const own = { requests: budget(stored.requests), tokens: budget(stored.tokens) };
    if (own.requests || own.tokens) state.models.set(name, own);
  }
  state.blockedUntil = entry.blocked ? until(entry.blocked) : undefined;
  state.learned = entry.learned ? { limit: entry.learned.limit, windowMs: entry.learned.windowMs, expiresAt: until(entry.learned.expires) } : undefined;
}

export class PaceFile {
  private readonly file: LockedJsonFile;
  private lastMtime = -1;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly clock: Clock,
    /**
     * The file lock's clock. The lock judges staleness against the file system's times and waits for another
     * window's lock by it, so it must be real time: a pacing clock that is virtual (a test's windows) would take a
     * live lock for stale and break it, or wait on a retry that never comes.
     */
    lockClock: Clock = clock,
  ) {
    this.file = LockedJsonFile.at(path, lockClock, MAX_FILE_BYTES);
  }

  /** The entries, when the file changed since the last look (undefined: unchanged, missing or unreadable). */
  async readIfChanged(): Promise<Map<string, PaceEntry> | undefined> {
    let mtime: number;
    try {
      mtime = (await stat(this.path)).mtimeMs;
    } catch {
      return undefined;
    }
    if (mtime === this.lastMtime) return undefined;
    this.lastMtime = mtime;
    return this.read();
  }

  /**
   * Puts one entry (or removes it) under the file's lock, keeping the other windows' entries and the file's other
   * fields; this window's writes run one at a time.
   */
  write(id: string, entry: PaceEntry | undefined): Promise<void> {
    this.writing = this.writing
      .then(() =>
        this.file.update((raw) => {
          const entries = entriesOf(raw);
          if (entry) entries.set(id, entry);
          else entries.delete(id);
          const now = this.clock.now();
          const kept = [...entries].filter(([, e]) => Math.abs(now - e.observedAt) <= MAX_RESET_MS).sort((a, b) => b[1].observedAt - a[1].observedAt).slice(0, MAX_ENTRIES);
          return { next: { ...(isRecord(raw) && raw), version: 1, entries: Object.fromEntries(kept) }, result: undefined };
        }),
      )
      .then(() => void (this.lastMtime = -1))
      .catch(() => undefined);
    return this.writing;
  }

  /** Settles when the writes asked for so far are done. */
  idle(): Promise<void> {
    return this.writing;
  }

  /** The entries; undefined when the file is missing or damaged (pacing starts afresh from the next answer). */
  private async read(): Promise<Map<string, PaceEntry> | undefined> {
    const raw = await this.file.read();
    return raw === undefined ? undefined : entriesOf(raw);
  }
}

function entriesOf(raw: unknown): Map<string, PaceEntry> {
  const entries = new Map<string, PaceEntry>();
  if (!isRecord(raw) || !isRecord(raw.entries)) return entries;
  for (const [id, value] of Object.entries(raw.entries)) {
    const entry = cleanEntry(value);
    if (entry && /^[0-9a-f]{16,64}$/.test(id)) entries.set(id, entry);
  }
  return entries;
}

function cleanEntry(value: unknown): PaceEntry | undefined {
  if (!isRecord(value) || typeof value.origin !== 'string' || value.origin.length > 2048 || !isTime(value.observedAt)) return undefined;
  const entry: PaceEntry = { ...value, origin: value.origin, observedAt: value.observedAt };
  for (const unit of ['requests', 'tokens'] as const) {
    const budget = cleanBudget(value[unit]);
    if (budget) entry[unit] = budget;
    else delete entry[unit];
  }
  const blocked = cleanSpan(value.blocked);
  if (blocked) entry.blocked = blocked;
  else delete entry.blocked;
  const learned = value.learned;
  if (isRecord(learned) && isCount(learned.limit) && learned.limit > 0 && isCount(learned.windowMs) && learned.windowMs <= MAX_RESET_MS && cleanSpan(learned.expires)) {
    entry.learned = { limit: learned.limit, windowMs: learned.windowMs, expires: cleanSpan(learned.expires)! };
  } else delete entry.learned;
  if (value.byModel === true) entry.byModel = true;
  else delete entry.byModel;
  const models = cleanModels(value.models);
  if (models) entry.models = models;
  else delete entry.models;
  return entry;
}

function cleanModels(value: unknown): Record<string, StoredModel> | undefined {
  if (!isRecord(value)) return undefined;
  const models: Array<[string, StoredModel]> = [];
  for (const [name, stored] of Object.entries(value)) {
    if (models.length >= MAX_PACED_MODELS) break;
    if (name.length === 0 || name.length > MAX_MODEL_NAME || !isRecord(stored)) continue;
    const requests = cleanBudget(stored.requests);
    const tokens = cleanBudget(stored.tokens);
    if (requests || tokens) models.push([name, { ...(requests && { requests }), ...(tokens && { tokens }) }]);
  }
  return models.length > 0 ? Object.fromEntries(models) : undefined;
}

function cleanBudget(value: unknown): StoredBudget | undefined {
  if (!isRecord(value) || !isCount(value.remaining)) return undefined;
  const reset = cleanSpan(value.reset);
  if (!reset) return undefined;
  const budget: StoredBudget = { remaining: value.remaining, reset };
  if (isCount(value.limit) && value.limit > 0 && value.limit >= value.remaining) budget.limit = value.limit;
  return budget;
}

function cleanSpan(value: unknown): StoredSpan | undefined {
  if (!isRecord(value) || !isTime(value.at) || !isCount(value.ms) || value.ms > MAX_RESET_MS) return undefined;
  return { at: value.at, ms: value.ms };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1e12;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value < 1e15;
}
