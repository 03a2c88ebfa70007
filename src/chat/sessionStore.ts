// Keeps chat sessions on disk: one JSON file per session and an index, each replaced atomically (temp file, then
// rename), plus a journal per streaming reply that receives every delta before the webview sees it. Loading a
// session replays its journal, so a reply cut short by a reload or crash comes back with its text, as interrupted.
import { adviceFor } from '../gateway/errorAdvice';
import type { StoreFileSystem } from './fileSystem';
import { applyDelta, isChatSession, isTurnDelta, type AssistantTurn, type ChatSession, type TurnDelta } from './model';
import { hasOnlyKeys, isCount, isId, isRecord, isText } from './validate';

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
}

const FORMAT = 1;
const INDEX = 'index.json';

const sessionFile = (id: string) => `${id}.json`;
const journalFile = (sessionId: string, turnId: string) => `${sessionId}.${turnId}.journal`;

function isSummary(value: unknown): value is SessionSummary {
  return isRecord(value) && hasOnlyKeys(value, ['id', 'title', 'createdAt', 'updatedAt']) && isId(value.id) && isText(value.title, 200) && isCount(value.createdAt) && isCount(value.updatedAt);
}

function summaryOf(session: ChatSession): SessionSummary {
  return { id: session.id, title: session.title, createdAt: session.createdAt, updatedAt: session.updatedAt };
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

export type StoreErrorReporter = (error: unknown, what: string) => void;

export class ChatSessionStore {
  private readonly queue = new SerialQueue();
  private summaries: Map<string, SessionSummary> | undefined;
  private tempCounter = 0;

  constructor(
    private readonly fs: StoreFileSystem,
    private readonly reportError: StoreErrorReporter = () => undefined,
  ) {}

  /** The session with its journals replayed; a reply that was streaming comes back interrupted. */
  load(id: string): Promise<ChatSession | undefined> {
    if (!isId(id)) return Promise.resolve(undefined);
    return this.queue.run(async () => {
      const session = await this.readSession(id);
      if (!session) return undefined;
      const streaming = session.turns.filter((t): t is AssistantTurn => t.role === 'assistant' && t.status === 'streaming');
      const journals = (await this.fs.list()).filter((name) => name.startsWith(`${id}.`) && name.endsWith('.journal'));
      for (const turn of streaming) await this.recover(session.id, turn);
      if (streaming.length > 0) await this.writeSnapshot(session);
      // Journals of finished replies are leftovers of a crash between the final snapshot and the clean-up.
      for (const name of journals) await this.fs.remove(name);
      return session;
    }).catch((error: unknown) => {
      this.reportError(error, `loading chat ${id}`);
      return undefined;
    });
  }

  /** Writes the session's snapshot and updates the index. Failures are reported, not thrown. */
  save(session: ChatSession): Promise<void> {
    const data = serialize(session);
    const summary = summaryOf(session);
    return this.queue
      .run(async () => {
        await this.writeAtomic(sessionFile(session.id), data);
        await this.putSummary(summary);
      })
      .catch((error: unknown) => this.reportError(error, `saving chat ${session.id}`));
  }

  /** Appends a delta of a streaming reply to its journal, synchronously (it is on disk when this returns). */
  appendJournal(sessionId: string, delta: TurnDelta): void {
    try {
      this.fs.appendSync(journalFile(sessionId, delta.turnId), `${JSON.stringify(delta)}\n`);
    } catch (error) {
      this.reportError(error, `journaling chat ${sessionId}`);
    }
  }

  /** Drops a reply's journal, once a snapshot holding the whole reply has been queued. */
  removeJournal(sessionId: string, turnId: string): Promise<void> {
    return this.queue.run(() => this.fs.remove(journalFile(sessionId, turnId))).catch((error: unknown) => this.reportError(error, `removing a journal of chat ${sessionId}`));
  }

  /** Saved sessions, newest first. Sessions missing from the index (a crash between two writes) are found too. */
  list(): Promise<SessionSummary[]> {
    return this.queue.run(async () => {
      const summaries = await this.index();
      return [...summaries.values()].sort((a, b) => b.updatedAt - a.updatedAt);
    });
  }

  delete(id: string): Promise<void> {
    if (!isId(id)) return Promise.resolve();
    return this.queue
      .run(async () => {
        const prefix = `${id}.`;
        for (const name of await this.fs.list()) if (name.startsWith(prefix) && name.endsWith('.journal')) await this.fs.remove(name);
        await this.fs.remove(sessionFile(id));
        const summaries = await this.index();
        if (summaries.delete(id)) await this.writeIndex(summaries);
      })
      .catch((error: unknown) => this.reportError(error, `deleting chat ${id}`));
  }

  /** Resolves when every write queued so far has finished. */
  flush(): Promise<void> {
    return this.queue.run(() => Promise.resolve());
  }

  private async readSession(id: string): Promise<ChatSession | undefined> {
    const text = await this.fs.read(sessionFile(id));
    if (text === undefined) return undefined;
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || parsed.format !== FORMAT || !isChatSession(parsed.session) || parsed.session.id !== id) {
      throw new Error(`${sessionFile(id)} is not a chat session this version can read`);
    }
    return parsed.session;
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

  private async writeSnapshot(session: ChatSession): Promise<void> {
    await this.writeAtomic(sessionFile(session.id), serialize(session));
    await this.putSummary(summaryOf(session));
  }

  private async writeAtomic(name: string, data: string): Promise<void> {
    const temp = `${name}.${process.pid}-${++this.tempCounter}.tmp`;
    try {
      await this.fs.write(temp, data);
      await this.fs.rename(temp, name);
    } catch (error) {
      await this.fs.remove(temp).catch(() => undefined);
      throw error;
    }
  }

  private async putSummary(summary: SessionSummary): Promise<void> {
    const summaries = await this.index();
    const old = summaries.get(summary.id);
    if (old && JSON.stringify(old) === JSON.stringify(summary)) return;
    summaries.set(summary.id, summary);
    await this.writeIndex(summaries);
  }

  private async writeIndex(summaries: Map<string, SessionSummary>): Promise<void> {
    await this.writeAtomic(INDEX, JSON.stringify({ format: FORMAT, sessions: [...summaries.values()] }));
  }

  /** The index, read once; repaired from the session files and cleared of temp files left by a crash. */
  private async index(): Promise<Map<string, SessionSummary>> {
    if (this.summaries) return this.summaries;
    const summaries = new Map<string, SessionSummary>();
    const text = await this.fs.read(INDEX).catch(() => undefined);
    try {
      const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
      if (isRecord(parsed) && Array.isArray(parsed.sessions)) for (const s of parsed.sessions) if (isSummary(s)) summaries.set(s.id, s);
    } catch {
      // An unreadable index is rebuilt from the session files below.
    }
    let repaired = false;
    const onDisk = new Set<string>();
    for (const name of await this.fs.list()) {
      if (name.endsWith('.tmp')) {
        await this.fs.remove(name);
        continue;
      }
      const id = /^([A-Za-z0-9_-]{1,64})\.json$/.exec(name)?.[1];
      if (id && id !== 'index') onDisk.add(id);
    }
    for (const id of onDisk) {
      if (summaries.has(id)) continue;
      const session = await this.readSession(id).catch(() => undefined);
      if (session) {
        summaries.set(id, summaryOf(session));
        repaired = true;
      }
    }
    for (const id of [...summaries.keys()]) {
      if (onDisk.has(id)) continue;
      summaries.delete(id);
      repaired = true;
    }
    this.summaries = summaries;
    if (repaired) await this.writeIndex(summaries);
    return summaries;
  }
}

function serialize(session: ChatSession): string {
  return JSON.stringify({ format: FORMAT, session });
}
