// Keeps chat sessions on disk: one JSON file per session and an index, each replaced atomically (temp file, then
// rename), plus a journal per streaming reply that receives every delta before the webview sees it. Loading a
// session replays its journal, so a reply cut short by a reload or crash comes back with its text, as interrupted.
//
// Every VS Code window writes this folder from its own extension host. So each read-merge-write of a file holds
// that file's lock (fileLock.ts); a session another window wrote since this one last read it is merged turn by turn
// (sessionMerge.ts), never overwritten; the index is re-read under its lock before each change; a temp file is
// removed only when it is stale (its writer, named in it, is gone, and it is old). A session file that cannot be
// read at all is moved aside as `<name>.corrupt-<time>` and reported; one with bad turns loses only those turns.
//
// A file a newer version wrote is read as far as this version understands it; what it does not know (fields, kinds
// of turn, the file's own fields) is written back unchanged (sessionUnknown.ts), and before the first rewrite of a
// file with a newer format number its original is copied beside it as `<id>.v<format>.bak.json`. The format number
// says what a file may hold, so an older version knows to keep such a copy: see FORMAT.
import { adviceFor } from '../../ui/core/errorAdvice';
import { applyDelta, LIMITS, type AssistantTurn, type ChatSession, type TurnDelta } from '../../chatProtocol/session';
import { isTurnDelta, repairSession } from '../../chatProtocol/sessionData';
import { hasOnlyKeys, isCount, isId, isRecord, isText, type Fields } from '../../chatProtocol/validate';
import { withUnknownFields } from '../../chatProtocol/sessionUnknown';
import { realClock, type Clock } from '../../util/clock';
import { Emitter, type Event } from '../../util/events';
import { withFileLock, type LockOptions } from '../../util/fileLock';
import { processIsAlive, type StoreFileSystem } from '../../util/storeFileSystem';
import { baseOf, mergeSessions, type SessionBase } from './sessionMerge';

export type { RemovedSession, SessionSummary, StoreOptions, StoreReporter } from './sessionStoreTypes';
import { FORMAT, INDEX_FORMAT, OLDEST_FORMAT, type RemovedSession, type SessionSummary, type StoreOptions, type StoreReporter } from './sessionStoreTypes';
export { FORMAT };

const INDEX = 'index.json';
/** A temp file younger than this may be another window's write in progress. */
export const STALE_TEMP_MS = 60_000;
/** A temp file this old is removed even if a process with its writer's pid runs (pids are reused). */
export const ABANDONED_TEMP_MS = 60 * 60_000;
const REV = /^\{"format":\d{1,6},"rev":"([A-Za-z0-9-]{1,80})"/;
/** The envelope's own fields; a newer version's others are kept. */
const ENVELOPE_KEYS = ['format', 'rev', 'session'];

/** The revision a session file names at its start; files written before revisions are told apart by length. */
function revisionOf(text: string): string {
  return REV.exec(text)?.[1] ?? `legacy-${text.length}`;
}
const TEMP = /\.(\d{1,10})-\d+\.tmp$/;

const sessionFile = (id: string) => `${id}.json`;
/** The copy of a newer version's file kept before this version first rewrites it (no session id holds a dot). */
export const backupFile = (id: string, format: number) => `${id}.v${format}.bak.json`;
const journalFile = (sessionId: string, turnId: string) => `${sessionId}.${turnId}.journal`;

/** Entries an earlier version wrote (without model and turns) fail this, so list() reads their files again. */
function isSummary(value: unknown): value is SessionSummary {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['id', 'title', 'createdAt', 'updatedAt', 'model', 'turns']) &&
    isId(value.id) &&
    isText(value.title, LIMITS.title) &&
    isCount(value.createdAt) &&
    isCount(value.updatedAt) &&
    isText(value.model, LIMITS.model) &&
    isCount(value.turns)
  );
}

function summaryOf(session: Pick<ChatSession, 'id' | 'title' | 'createdAt' | 'updatedAt' | 'settings' | 'turns'>): SessionSummary {
  const turns = session.turns.filter((t) => t.role === 'user').length;
  return { id: session.id, title: session.title, createdAt: session.createdAt, updatedAt: session.updatedAt, model: session.settings.model, turns };
}

/** The names of a session's own files (its snapshot and its journals) among a folder listing. */
function filesOf(id: string, names: readonly string[]): string[] {
  return names.filter((name) => name === sessionFile(id) || (name.startsWith(`${id}.`) && name.endsWith('.journal')));
}

/** Runs writes one after another, so a later snapshot never lands before an earlier one. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** A session as it was when a save was asked for (the controller goes on changing the live one). */
interface Snapshot {
  session: ChatSession;
  base: SessionBase;
  summary: SessionSummary;
}

/** A readable session file: the session, and the file as parsed (what this version does not know is kept from it). */
interface ReadableFile {
  session: ChatSession;
  repaired: boolean;
  format: number;
  envelope: Fields;
}

type Stored = ReadableFile | { unreadable: string };

/** The session as this version writes it: a newer version's turn goes back exactly as it was read. */
function plainSession(session: ChatSession): Fields {
  return JSON.parse(JSON.stringify(session, (_key, value: unknown) => (isRecord(value) && value.role === 'newer' && isRecord(value.stored) ? value.stored : value))) as Fields;
}

export class ChatSessionStore {
  private readonly queue = new SerialQueue();
  /** Per session: the revision this window last read or wrote, what it held, and the file as parsed. */
  private readonly known = new Map<string, { rev: string; base: SessionBase; file: Pick<ReadableFile, 'format' | 'envelope'> }>();
  private readonly clock: Clock;
  private readonly pid: number;
  private readonly lock: LockOptions;
  private readonly report: StoreReporter;
  private counter = 0;
  private tempsChecked = false;
  private readonly changed = new Emitter<void>();
  /** Fires after this window changed the index (another window's changes are seen by watching the folder). */
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(
    private readonly fs: StoreFileSystem,
    options: StoreOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.pid = options.pid ?? process.pid;
    this.lock = { clock: this.clock, pid: this.pid, isAlive: options.isAlive ?? processIsAlive, staleMs: options.lockStaleMs };
    this.report = { error: () => undefined, corrupt: () => undefined, repaired: () => undefined, notSaved: () => undefined, ...options.report };
  }

  /** The session with its journals replayed; a reply that was streaming comes back interrupted. */
  load(id: string): Promise<ChatSession | undefined> {
    if (!isId(id)) return Promise.resolve(undefined);
    return this.queue
      .run(async () => {
        const text = await this.fs.read(sessionFile(id));
        if (text === undefined) return undefined;
        const stored = this.parse(text, id);
        if ('unreadable' in stored) {
          await withFileLock(this.fs, sessionFile(id), this.lock, () => this.moveAsideIfUnchanged(id, text, stored.unreadable));
          return undefined;
        }
        let session = stored.session;
        this.known.set(id, { rev: revisionOf(text), base: baseOf(session), file: stored });
        const streaming = session.turns.filter((t): t is AssistantTurn => t.role === 'assistant' && t.status === 'streaming');
        const journals = (await this.fs.list()).filter((name) => name.startsWith(`${id}.`) && name.endsWith('.journal'));
        for (const turn of streaming) await this.recover(session.id, turn);
        if (streaming.length > 0 || stored.repaired) {
          session = (await this.writeSession(this.snapshot(session))) ?? session;
        }
        // Journals of finished replies are leftovers of a crash between the final snapshot and the clean-up.
        for (const name of journals) await this.fs.remove(name);
        return session;
      })
      .catch((error: unknown) => {
        this.report.error(error, `loading chat ${id}`);
        return undefined;
      });
  }

  /**
   * Writes the session's snapshot and updates the index. Resolves with the merged session when another window
   * had written turns this one did not have (the caller adopts them), else undefined. Failures are reported.
   */
  save(session: ChatSession): Promise<ChatSession | undefined> {
    const snapshot = this.snapshot(session);
    return this.queue.run(() => this.writeSession(snapshot)).catch((error: unknown) => {
      this.report.error(error, `saving chat ${session.id}`);
      return undefined;
    });
  }

  /**
   * Saves the session before a request that depends on it leaves: like save(), but a failure rejects with the
   * error `explain` makes of it (for this folder), reported as `notSaved`, so the caller sends nothing.
   */
  saveBeforeSend(session: ChatSession, explain: (error: unknown, folder: string) => Error): Promise<ChatSession | undefined> {
    const snapshot = this.snapshot(session);
    return this.queue.run(() => this.writeSession(snapshot)).catch((error: unknown) => {
      this.report.error(error, `saving chat ${session.id}`);
      const failure = explain(error, this.fs.location);
      this.report.notSaved(failure);
      throw failure;
    });
  }

  /** Appends a delta of a streaming reply to its journal, synchronously (it is on disk when this returns). */
  appendJournal(sessionId: string, delta: TurnDelta): void {
    try {
      this.fs.appendSync(journalFile(sessionId, delta.turnId), `${JSON.stringify(delta)}\n`);
    } catch (error) {
      this.report.error(error, `journaling chat ${sessionId}`);
    }
  }

  /** Drops a reply's journal, once a snapshot holding the whole reply has been queued. */
  removeJournal(sessionId: string, turnId: string): Promise<void> {
    return this.queue.run(() => this.fs.remove(journalFile(sessionId, turnId))).catch((error: unknown) => this.report.error(error, `removing a journal of chat ${sessionId}`));
  }

  /** Saved sessions (every window's), newest first. Sessions missing from the index are found too. */
  list(): Promise<SessionSummary[]> {
    return this.queue.run(async () => {
      await this.removeStaleTemps();
      const summaries = await this.readIndex();
      const onDisk = new Set<string>();
      for (const name of await this.fs.list()) {
        const id = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(name)?.[1];
        if (id && id !== 'index') onDisk.add(id);
      }
      const found: SessionSummary[] = [];
      for (const id of onDisk) {
        if (summaries.has(id)) continue;
        const stored = this.parse((await this.fs.read(sessionFile(id))) ?? '', id);
        if (!('unreadable' in stored)) found.push(summaryOf(stored.session));
      }
      const gone = [...summaries.keys()].filter((id) => !onDisk.has(id));
      let current = summaries;
      if (found.length > 0 || gone.length > 0) {
        current = await this.updateIndex((index) => {
          for (const summary of found) if (!index.has(summary.id)) index.set(summary.id, summary);
          for (const id of gone) index.delete(id);
          return true;
        });
      }
      return [...current.values()].sort((a, b) => b.updatedAt - a.updatedAt);
    });
  }

  delete(id: string): Promise<void> {
    return this.remove(id).then(() => undefined);
  }

  /** Deletes the session's files and returns them as they were, for restore(); undefined if there was none. */
  remove(id: string): Promise<RemovedSession | undefined> {
    if (!isId(id)) return Promise.resolve(undefined);
    return this.queue
      .run(async () => {
        const files = new Map<string, string>();
        await withFileLock(this.fs, sessionFile(id), this.lock, async () => {
          for (const name of filesOf(id, await this.fs.list())) {
            const text = await this.fs.read(name);
            if (text !== undefined) files.set(name, text);
          }
          for (const name of [...files.keys()].filter((n) => n !== sessionFile(id))) await this.fs.remove(name);
          await this.fs.remove(sessionFile(id));
        });
        this.known.delete(id);
        let summary: SessionSummary | undefined;
        await this.updateIndex((index) => {
          summary = index.get(id);
          return index.delete(id);
        });
        const text = files.get(sessionFile(id));
        const stored = text === undefined ? undefined : this.parse(text, id);
        if (stored && !('unreadable' in stored)) summary = summaryOf(stored.session);
        return summary ? { summary, files } : undefined;
      })
      .catch((error: unknown) => {
        this.report.error(error, `deleting chat ${id}`);
        return undefined;
      });
  }

  /** Puts a removed session's files back byte for byte; false when a session with its id exists again. */
  restore(removed: RemovedSession): Promise<boolean> {
    const id = removed.summary.id;
    return this.queue
      .run(async () => {
        const restored = await withFileLock(this.fs, sessionFile(id), this.lock, async () => {
          if ((await this.fs.read(sessionFile(id))) !== undefined) return false;
          for (const [name, text] of removed.files) if (filesOf(id, [name]).length === 1) await this.writeAtomic(name, text);
          return true;
        });
        if (restored) await this.putSummary(removed.summary);
        return restored;
      })
      .catch((error: unknown) => {
        this.report.error(error, `restoring chat ${id}`);
        return false;
      });
  }

  /** The session as saved, without replaying journals or changing any file (for search and export). */
  peek(id: string): Promise<ChatSession | undefined> {
    if (!isId(id)) return Promise.resolve(undefined);
    return this.fs.read(sessionFile(id)).then(
      (text) => {
        const stored = text === undefined ? undefined : this.parse(text, id);
        return stored && !('unreadable' in stored) ? stored.session : undefined;
      },
      () => undefined,
    );
  }

  /** Resolves when every write queued so far has finished. */
  flush(): Promise<void> {
    return this.queue.run(() => Promise.resolve());
  }

  /** The stored session, repaired turn by turn, or why the file cannot be read at all. */
  private parse(text: string, id: string): Stored {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { unreadable: 'it is not valid JSON' };
    }
    // A newer format is read as far as this version understands it; nothing it holds is dropped on writing.
    if (!isRecord(parsed) || !Number.isSafeInteger(parsed.format) || (parsed.format as number) < OLDEST_FORMAT) return { unreadable: 'it is not a chat session file this version can read' };
    const repair = repairSession(parsed.session, id);
    if (!repair) return { unreadable: 'it holds no chat session' };
    const repaired = repair.repaired > 0 || repair.dropped > 0;
    if (repaired) this.report.repaired(id, repair.repaired, repair.dropped);
    return { session: repair.session, repaired, format: parsed.format as number, envelope: parsed };
  }

  private snapshot(session: ChatSession): Snapshot {
    return { session: structuredClone(session), base: baseOf(session), summary: summaryOf(session) };
  }

  /** Writes a snapshot under the session's lock, merging in what another window wrote since this one read it. */
  private async writeSession(snapshot: Snapshot): Promise<ChatSession | undefined> {
    const { id } = snapshot.summary;
    const file = sessionFile(id);
    let merged: ChatSession | undefined;
    await withFileLock(this.fs, file, this.lock, async () => {
      const known = this.known.get(id);
      const text = await this.fs.read(file);
      let previous: Pick<ReadableFile, 'format' | 'envelope'> | undefined;
      if (text !== undefined && revisionOf(text) === known?.rev) previous = known.file;
      else if (text !== undefined) {
        const stored = this.parse(text, id);
        if ('unreadable' in stored) await this.moveAside(id, stored.unreadable);
        else {
          previous = stored;
          merged = mergeSessions(known?.base ?? { turnIds: new Set(), settings: '', title: stored.session.title }, snapshot.session, stored.session);
        }
      }
      if (text !== undefined && previous && previous.format > FORMAT) await this.keepBackup(backupFile(id, previous.format), text);
      const session = withUnknownFields(plainSession(merged ?? snapshot.session), previous?.envelope.session);
      const extra = Object.fromEntries(Object.entries(previous?.envelope ?? {}).filter(([key]) => !ENVELOPE_KEYS.includes(key)));
      const next = `${this.pid}-${++this.counter}-${this.clock.now()}`;
      const format = Math.max(FORMAT, previous?.format ?? FORMAT);
      const envelope = { format, rev: next, session, ...extra };
      await this.writeAtomic(file, JSON.stringify(envelope));
      this.known.set(id, { rev: next, base: merged ? baseOf(merged) : snapshot.base, file: { format, envelope } });
    });
    await this.putSummary(merged ? summaryOf(merged) : snapshot.summary);
    return merged;
  }

  private async recover(sessionId: string, turn: AssistantTurn): Promise<void> {
    const journal = (await this.fs.read(journalFile(sessionId, turn.id))) ?? '';
    for (const line of journal.split('\n')) {
      if (line.trim() === '') continue;
      let delta: unknown;
      try {
        delta = JSON.parse(line);
      } catch {
        continue; // a line torn by the crash; everything before it is intact
      }
      if (isTurnDelta(delta) && delta.turnId === turn.id) applyDelta(turn, delta);
    }
    turn.status = 'interrupted';
    const advice = adviceFor({ code: 'stream_interrupted', message: 'VS Code closed while the reply was streaming' });
    turn.error = { message: advice.message, kind: advice.kind, actions: advice.actions };
  }

  /** Under the lock: moves the file aside unless another window has replaced it since it was read. */
  private async moveAsideIfUnchanged(id: string, text: string, reason: string): Promise<void> {
    if ((await this.fs.read(sessionFile(id))) === text) await this.moveAside(id, reason);
  }

  private async moveAside(id: string, reason: string): Promise<void> {
    const file = sessionFile(id);
    const movedTo = `${file}.corrupt-${new Date(this.clock.now()).toISOString().replace(/[:.]/g, '-')}`;
    await this.fs.rename(file, movedTo);
    this.known.delete(id);
    this.report.corrupt(file, movedTo, reason);
  }

  /** Copies a newer version's file before its first rewrite; an existing copy (the original) is never replaced. */
  private async keepBackup(name: string, text: string): Promise<void> {
    if ((await this.fs.modifiedAt(name)) === undefined) await this.writeAtomic(name, text);
  }

  private async writeAtomic(name: string, data: string): Promise<void> {
    const temp = `${name}.${this.pid}-${++this.counter}.tmp`;
    try {
      await this.fs.write(temp, data);
      await this.fs.rename(temp, name);
    } catch (error) {
      await this.fs.remove(temp).catch(() => undefined);
      throw error;
    }
  }

  private async readIndex(): Promise<Map<string, SessionSummary>> {
    const summaries = new Map<string, SessionSummary>();
    try {
      const text = await this.fs.read(INDEX);
      const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
      if (isRecord(parsed) && Array.isArray(parsed.sessions)) for (const s of parsed.sessions) if (isSummary(s)) summaries.set(s.id, s);
    } catch {
      // An unreadable index is rebuilt from the session files by list().
    }
    return summaries;
  }

  /** Re-reads the index under its lock, applies `change`, and writes it back if `change` says it changed it. */
  private async updateIndex(change: (index: Map<string, SessionSummary>) => boolean): Promise<Map<string, SessionSummary>> {
    await this.removeStaleTemps();
    return withFileLock(this.fs, INDEX, this.lock, async () => {
      const index = await this.readIndex();
      if (change(index)) {
        await this.writeAtomic(INDEX, JSON.stringify({ format: INDEX_FORMAT, sessions: [...index.values()] }));
        this.changed.fire();
      }
      return index;
    });
  }

  /** Another window may have put a newer summary of the same session meanwhile; the newest stays. */
  private putSummary(summary: SessionSummary): Promise<unknown> {
    return this.updateIndex((index) => {
      const old = index.get(summary.id);
      if (old && (old.updatedAt > summary.updatedAt || JSON.stringify(old) === JSON.stringify(summary))) return false;
      index.set(summary.id, summary);
      return true;
    });
  }

  /** Once per store: temp files left by a crash. A write in progress in another window is never touched. */
  private async removeStaleTemps(): Promise<void> {
    if (this.tempsChecked) return;
    this.tempsChecked = true;
    const now = this.clock.now();
    for (const name of await this.fs.list()) {
      const pid = TEMP.exec(name)?.[1];
      if (pid === undefined) continue;
      const modifiedAt = await this.fs.modifiedAt(name);
      if (modifiedAt === undefined) continue;
      const age = now - modifiedAt;
      if (age >= ABANDONED_TEMP_MS || (age >= STALE_TEMP_MS && !this.lock.isAlive(Number(pid)))) await this.fs.remove(name);
    }
  }
}
