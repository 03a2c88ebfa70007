// Filtering the Chats view by words in titles and message text. Each session's searchable text is read once,
// lower-cased, and kept until the session changes (its updatedAt moves), so a query is a scan over strings in
// memory rather than a read of every session file. Pure: the loader is given.
import { turnText, type ChatSession } from '../../chatProtocol/session';
import type { SessionSummary } from './sessionStore';

/** What a query is matched against: the title and every message's text, lower-cased. */
export function searchTextOf(session: Readonly<ChatSession>): string {
  const parts = [session.title];
  for (const turn of session.turns) parts.push(turnText(turn));
  return parts.join('\n').toLowerCase();
}

/** The words of a query, lower-cased; a session matches when it holds all of them. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter((w) => w !== '').slice(0, 32);
}

export function matchesAll(text: string, words: readonly string[]): boolean {
  return words.every((w) => text.includes(w));
}

interface Entry {
  updatedAt: number;
  text: string;
}

/** Reads at most this many session files at once. */
const PARALLEL_READS = 8;

export class SessionSearchIndex {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly load: (id: string) => Promise<ChatSession | undefined>) {}

  /** The summaries whose title or messages hold every word of `query`, in their order; all of them for an empty query. */
  async filter(summaries: readonly SessionSummary[], query: string): Promise<SessionSummary[]> {
    const words = queryWords(query);
    if (words.length === 0) return [...summaries];
    const unknown = summaries.filter((s) => !matchesAll(s.title.toLowerCase(), words) && this.entries.get(s.id)?.updatedAt !== s.updatedAt);
    await this.readAll(unknown);
    this.forgetAllBut(summaries);
    return summaries.filter((s) => matchesAll(s.title.toLowerCase(), words) || matchesAll(this.entries.get(s.id)?.text ?? '', words));
  }

  /** Drops what is kept for sessions no longer listed. */
  private forgetAllBut(summaries: readonly SessionSummary[]): void {
    if (this.entries.size <= summaries.length) return;
    const listed = new Set(summaries.map((s) => s.id));
    for (const id of this.entries.keys()) if (!listed.has(id)) this.entries.delete(id);
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }

  private async readAll(summaries: readonly SessionSummary[]): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < summaries.length) {
        const summary = summaries[next++]!;
        const session = await this.load(summary.id).catch(() => undefined);
        // An unreadable session is searched by its title only, and read again once it changes.
        this.entries.set(summary.id, { updatedAt: summary.updatedAt, text: session ? searchTextOf(session) : '' });
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, summaries.length) }, worker));
  }
}
