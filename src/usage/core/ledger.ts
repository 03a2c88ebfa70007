// The ledger on disk, in the global storage folder: `usage/<YYYY-MM>/<writer>.jsonl`, one append-only file per
// window (process and instance) per month. No two windows ever write one file, so N windows append at once without
// a lock and without interleaving; each line is written whole and synced. A line that was torn (a crash mid-write)
// or damaged is kept apart in `usage/damaged/` and skipped, and the lines around it still count.
// Reading is incremental: each file is read from where the last read stopped. A later fact about a record (its cost
// looked up afterwards) is an amendment line, folded over the record on reading (ledgerAmendment.ts).
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import { decodeAmendment, encodeAmendment, foldAmendments, type CostAmendment } from './ledgerAmendment';
import { decodeRecord, encodeRecord, MAX_LINE_CHARS } from './ledgerLine';
import type { UsageRecord } from './recordTypes';

const MONTH = /^[0-9]{4}-[0-9]{2}$/;
const FILE = /^[A-Za-z0-9-]{1,64}\.jsonl$/;
const CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
/** Most characters of one damaged line kept aside (the rest is cut: a damaged line can be anything). */
const ASIDE_LINE_CHARS = 4096;

export interface DamagedLine {
  /** `YYYY-MM/name.jsonl` */
  file: string;
  /** 1-based. */
  line: number;
}

interface FileState {
  offset: number;
  lineNumber: number;
  records: UsageRecord[];
  amendments: CostAmendment[];
  damaged: DamagedLine[];
  asideText: string[];
}

/** The file an append goes to, opened for appending (a test puts a full disk here). */
export type OpenForAppend = (path: string) => Promise<{ write(text: string): Promise<unknown>; datasync(): Promise<void>; close(): Promise<void> }>;

/** What a retention clean-up removed. */
export interface Pruned {
  /** `YYYY-MM`, oldest first. */
  months: string[];
  records: number;
}

const DAY_MS = 86_400_000;

export interface LedgerSnapshot {
  records: readonly UsageRecord[];
  damaged: readonly DamagedLine[];
}

/** `YYYY-MM` of an epoch-ms time, in UTC (one bucket per month; days are counted in local time where shown). */
export function monthOf(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

export class Ledger {
  readonly folder: string;
  readonly #writer: string;
  readonly #files = new Map<string, FileState>();
  #appending: Promise<void> = Promise.resolve();
  /** The last append may have left a partial line: the next one starts on a new line. */
  #torn = false;
  readonly #reading = new Map<string, Promise<LedgerSnapshot>>();
  /** Reads of different ranges take turns: two at once would both take in a file's new lines from one offset. */
  #readingTurn: Promise<unknown> = Promise.resolve();

  readonly #openForAppend: OpenForAppend;

  constructor(storageFolder: string, writer = `${process.pid}-${randomBytes(4).toString('hex')}`, openForAppend: OpenForAppend = (path) => open(path, 'a')) {
    this.folder = join(storageFolder, 'usage');
    this.#writer = writer;
    this.#openForAppend = openForAppend;
  }

  /** Appends one record to this window's file for the record's month; appends from one window keep their order. */
  append(record: UsageRecord): Promise<void> {
    return this.#queue(record.time, encodeRecord(record));
  }

  /**
   * Appends an amendment of a record (by its id) to this window's file for the record's month: the record itself is
   * never rewritten (it may be in another window's file), and every reader folds the amendment over it.
   */
  amend(amendment: CostAmendment): Promise<void> {
    return this.#queue(amendment.time, encodeAmendment(amendment));
  }

  #queue(time: number, line: string): Promise<void> {
    const run = this.#appending.then(() => this.#write(time, line));
    this.#appending = run.catch(() => undefined);
    return run;
  }

  async #write(time: number, line: string): Promise<void> {
    const dir = join(this.folder, monthOf(time));
    await mkdir(dir, { recursive: true });
    const text = `${this.#torn ? '\n' : ''}${line}\n`;
    this.#torn = true;
    const handle = await this.#openForAppend(join(dir, `${this.#writer}.jsonl`));
    try {
      await handle.write(text);
      await handle.datasync();
      this.#torn = false;
    } finally {
      await handle.close();
    }
  }

  /**
   * Every record on disk, from every window; with `since` (epoch ms), only the months that can hold records from
   * then on are read and returned (the dashboard's and the status bar's periods), so a year of records costs a
   * month's reading. Concurrent reads of the same range share one pass.
   */
  read(since = 0): Promise<LedgerSnapshot> {
    const first = since > 0 ? monthOf(since - 2 * 86_400_000) : '';
    const shared = this.#reading.get(first);
    if (shared) return shared;
    const run = this.#readingTurn.then(() => this.#readMonths(first)).finally(() => this.#reading.delete(first));
    this.#readingTurn = run.catch(() => undefined);
    this.#reading.set(first, run);
    return run;
  }

  async #readMonths(first: string): Promise<LedgerSnapshot> {
    await this.#appending;
    const months = (await this.#months()).filter((month) => month >= first);
    const seen = new Set<string>();
    for (const month of months) {
      for (const name of await listNames(join(this.folder, month), FILE)) {
        const key = `${month}/${name}`;
        seen.add(key);
        await this.#readFile(key);
      }
    }
    for (const key of [...this.#files.keys()]) if (key >= first && !seen.has(key)) this.#files.delete(key);
    const records: UsageRecord[] = [];
    const amendments: CostAmendment[] = [];
    const damaged: DamagedLine[] = [];
    for (const [key, state] of this.#files) {
      if (key < first) continue;
      for (const r of state.records) records.push(r);
      for (const a of state.amendments) amendments.push(a);
      damaged.push(...state.damaged);
    }
    return { records: foldAmendments(records, amendments), damaged };
  }

  async #months(): Promise<string[]> {
    return (await listNames(this.folder, MONTH)).sort();
  }

  /** Reads what was appended to one file since the last read; a file that shrank was replaced and is read again. */
  async #readFile(key: string): Promise<void> {
    const path = join(this.folder, key);
    const info = await lstat(path).catch(() => undefined);
    let state = this.#files.get(key);
    if (!info?.isFile()) {
      this.#files.delete(key);
      return;
    }
    if (!state || info.size < state.offset) {
      state = { offset: 0, lineNumber: 0, records: [], amendments: [], damaged: [], asideText: [] };
      this.#files.set(key, state);
    }
    if (info.size === state.offset) return;
    const damagedBefore = state.damaged.length;
    await readLines(path, info, state, (line) => {
      state.lineNumber++;
      const record = line.length === 0 ? undefined : decodeRecord(line);
      const amendment = record || line.length === 0 ? undefined : decodeAmendment(line);
      if (record) state.records.push(record);
      else if (amendment) state.amendments.push(amendment);
      else if (line.length > 0) {
        state.damaged.push({ file: key, line: state.lineNumber });
        state.asideText.push(`${state.lineNumber}\t${line.slice(0, ASIDE_LINE_CHARS)}`);
      }
    });
    if (state.damaged.length > damagedBefore) await this.#setAside(key, state);
  }

  /** Copies a file's damaged lines (with their line numbers) to `usage/damaged/`, where nothing deletes them. */
  async #setAside(key: string, state: FileState): Promise<void> {
    const dir = join(this.folder, 'damaged');
    await mkdir(dir, { recursive: true });
    await writeFileAtomic(join(dir, `${key.replace('/', '-')}.txt`), `${state.asideText.join('\n')}\n`);
  }

  /** Where damaged lines are kept. */
  get damagedFolder(): string {
    return join(this.folder, 'damaged');
  }

  /**
   * Removes the months that ended more than `days` days before `now` (the retention setting; 0 keeps all), after
   * reading them so their damaged lines are set aside first. `now` counts at most a day past the newest record: a
   * wall clock that jumped ahead (a wrong date, a dead battery) must not age months of history out at once.
   * Returns the months removed and how many records they held.
   */
  async prune(now: number, days: number): Promise<Pruned> {
    if (!(days > 0)) return { months: [], records: 0 };
    let newest = Number.NEGATIVE_INFINITY;
    for (const record of (await this.read()).records) if (record.time > newest) newest = record.time;
    const trusted = Math.min(now, newest + DAY_MS);
    if (!Number.isFinite(trusted)) return { months: [], records: 0 };
    const cutoff = trusted - days * DAY_MS;
    const old = (await this.#months()).filter((month) => monthEnd(month) < cutoff);
    let records = 0;
    for (const [key, state] of this.#files) if (old.includes(key.slice(0, 7))) records += state.records.length;
    return { months: await this.#remove(old), records };
  }

  /** Removes every record (Clear Usage; the caller asks first). Damaged lines stay set aside. */
  async clear(): Promise<void> {
    await this.#appending;
    await this.#remove(await this.#months());
  }

  async #remove(months: string[]): Promise<string[]> {
    if (months.length === 0) return [];
    await this.read();
    for (const month of months) {
      await rm(join(this.folder, month), { recursive: true, force: true });
      for (const key of [...this.#files.keys()]) if (key.startsWith(`${month}/`)) this.#files.delete(key);
    }
    return months;
  }
}

function monthEnd(month: string): number {
  const [year, m] = month.split('-').map(Number);
  return Date.UTC(year!, m!, 1);
}

async function listNames(dir: string, pattern: RegExp): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => pattern.test(name));
  } catch {
    return [];
  }
}

/**
 * Calls `onLine` for each complete line from `state.offset` to the file's size, in bounded chunks; a last line
 * without its newline is left for a later read (its writer may still be writing it). A line longer than the
 * longest record is passed on cut short (it is damage either way) without buffering the rest of it.
 */
async function readLines(path: string, info: Stats, state: FileState, onLine: (line: string) => void): Promise<void> {
  const handle = await open(path, 'r');
  try {
    let position = state.offset;
    // Bytes of a line that began in an earlier chunk (at most a line's worth: past that it is damage).
    let carry: Buffer | undefined;
    let overlong = false;
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, info.size - position)));
    while (position < info.size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, info.size - position), position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      const last = chunk.lastIndexOf(NEWLINE);
      if (last === -1) {
        if (!overlong) carry = carry ? Buffer.concat([carry, chunk]) : Buffer.from(chunk);
        if (carry && carry.length > MAX_LINE_CHARS * 4) (overlong = true), (carry = carry.subarray(0, MAX_LINE_CHARS * 4));
        position += bytesRead;
        continue;
      }
      // One decode per chunk: a newline byte never occurs inside a UTF-8 sequence, so the split is safe.
      const first = chunk.indexOf(NEWLINE);
      const head = carry ? Buffer.concat([carry, chunk.subarray(0, first)]) : chunk.subarray(0, first);
      onLine(head.toString('utf8'));
      if (last > first) {
        const lines = chunk.toString('utf8', first + 1, last).split('\n');
        for (const line of lines) onLine(line);
      }
      carry = undefined;
      overlong = false;
      position += last + 1;
      state.offset = position;
      if (last + 1 < bytesRead) {
        carry = Buffer.from(chunk.subarray(last + 1));
        position += bytesRead - (last + 1);
      }
    }
  } finally {
    await handle.close();
  }
}
