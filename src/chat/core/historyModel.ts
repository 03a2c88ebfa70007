// The Chats view as data: saved sessions grouped by when they were last used (Today, Yesterday, Last 7 days,
// Older, in the user's local time), newest first, and the helpers behind its actions (titles, branching). Pure:
// the UI adapter (chatHistoryView.ts) turns this model into tree items.
import { LIMITS, NEW_CHAT_TITLE, turnText, type ChatSession, type Turn } from '../../chatProtocol/session';
import type { Clock, TimerHandle } from '../../util/clock';
import type { SessionSummary } from './sessionStore';

export type HistoryGroupName = 'Today' | 'Yesterday' | 'Last 7 days' | 'Older';

export interface HistoryGroup {
  name: HistoryGroupName;
  sessions: SessionSummary[];
}

const GROUPS: readonly HistoryGroupName[] = ['Today', 'Yesterday', 'Last 7 days', 'Older'];

/** Local midnight `daysBack` days before the day of `now`. */
function startOfDay(now: number, daysBack: number): number {
  const day = new Date(now);
  return new Date(day.getFullYear(), day.getMonth(), day.getDate() - daysBack).getTime();
}

export function groupOf(updatedAt: number, now: number): HistoryGroupName {
  if (updatedAt >= startOfDay(now, 0)) return 'Today';
  if (updatedAt >= startOfDay(now, 1)) return 'Yesterday';
  if (updatedAt >= startOfDay(now, 7)) return 'Last 7 days';
  return 'Older';
}

/** Non-empty groups in order, each newest first (ties broken by id, so the order is stable). */
export function groupSessions(sessions: readonly SessionSummary[], now: number): HistoryGroup[] {
  const sorted = [...sessions].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const groups = new Map<HistoryGroupName, SessionSummary[]>(GROUPS.map((name) => [name, []]));
  for (const session of sorted) groups.get(groupOf(session.updatedAt, now))!.push(session);
  return GROUPS.flatMap((name) => {
    const list = groups.get(name)!;
    return list.length > 0 ? [{ name, sessions: list }] : [];
  });
}

/** "model-x · 3 turns": what the view shows next to a title. */
export function sessionDescription(summary: Pick<SessionSummary, 'model' | 'turns'>): string {
  const turns = `${summary.turns} ${summary.turns === 1 ? 'turn' : 'turns'}`;
  return summary.model === '' ? turns : `${summary.model} · ${turns}`;
}

/**
 * A title from what a user typed or a model proposed: one line, no surrounding quotes or markdown emphasis, spaces
 * collapsed, at most LIMITS.title characters. Undefined when nothing is left.
 */
export function cleanTitle(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const spaced = line
    // Control and bidi-override characters from a model must not reach the tree or the panel title.
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/^\s*(?:title\s*:\s*)?/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  // Quotes and emphasis around the title go by a scan: `[…]+$` tried from every character of a long run of spaces
  // inside a model's title, quadratic (9 s for 64 KB).
  const cleaned = trimEnd(trimStart(spaced, TITLE_LEAD), TITLE_TAIL);
  if (cleaned === '') return undefined;
  return cleaned.length > LIMITS.title ? `${cleaned.slice(0, LIMITS.title - 1)}…` : cleaned;
}

const TITLE_LEAD = new Set(' "\'`*_#“”‘’');
const TITLE_TAIL = new Set(' "\'`*_“”‘’.');

function trimStart(text: string, chars: ReadonlySet<string>): string {
  let start = 0;
  while (start < text.length && chars.has(text[start])) start++;
  return text.slice(start);
}

function trimEnd(text: string, chars: ReadonlySet<string>): string {
  let end = text.length;
  while (end > 0 && chars.has(text[end - 1])) end--;
  return text.slice(0, end);
}

/** The turns a branch keeps: every turn up to and including `turnId`'s; undefined when the turn is not there. */
export function turnsUpTo(turns: readonly Turn[], turnId: string): Turn[] | undefined {
  const index = turns.findIndex((t) => t.id === turnId);
  return index < 0 ? undefined : turns.slice(0, index + 1);
}

/**
 * A new session holding a copy of `source` up to `turnId`. A reply that was still streaming is kept as
 * interrupted (the copy has no journal to finish it from).
 */
export function branchSession(source: Readonly<ChatSession>, turnId: string, newId: string, now: number): ChatSession | undefined {
  const kept = turnsUpTo(source.turns, turnId);
  if (!kept) return undefined;
  const turns = structuredClone(kept).map((turn): Turn => (turn.role === 'assistant' && turn.status === 'streaming' ? { ...turn, status: 'interrupted' } : turn));
  const base = source.title === NEW_CHAT_TITLE ? NEW_CHAT_TITLE : source.title;
  const title = cleanTitle(`${base} (branch)`) ?? NEW_CHAT_TITLE;
  return { id: newId, title, createdAt: now, updatedAt: now, settings: structuredClone(source.settings), turns };
}

/** How a turn is offered in "Branch Here…": who spoke, and the start of what was said. */
export function turnLabel(turn: Turn, index: number): string {
  const who = turn.role === 'user' ? 'You' : turn.role === 'newer' ? 'A newer version' : turn.model || 'Model';
  const text = (turn.role === 'assistant' ? turn.content || turn.refusal || turn.reasoning : turnText(turn)).replace(/\s+/g, ' ').trim();
  return `${index + 1}. ${who}: ${text.length > 80 ? `${text.slice(0, 79)}…` : text || '(no text)'}`;
}

/** The conversation a "Generate Title" request summarizes: the first exchanges, bounded. */
export function titlePromptText(turns: readonly Turn[], maxChars = 4000): string {
  let text = '';
  for (const turn of turns) {
    if (turn.role === 'media') continue;
    const said = turn.content;
    if (said.trim() === '') continue;
    text += `${turn.role === 'user' ? 'User' : 'Assistant'}: ${said.trim()}\n\n`;
    if (text.length >= maxChars) break;
  }
  return text.slice(0, maxChars);
}

/** Deleted sessions that can still be brought back; each is forgotten `windowMs` after its deletion. */
export class UndoableDeletes<T> {
  private readonly entries = new Map<number, { value: T; timer: TimerHandle }>();
  private next = 0;

  constructor(
    private readonly clock: Clock,
    readonly windowMs: number,
  ) {}

  remember(value: T): number {
    const token = ++this.next;
    this.entries.set(token, { value, timer: this.clock.setTimeout(() => this.entries.delete(token), this.windowMs) });
    return token;
  }

  /** The value, once; undefined after the window has passed or once taken. */
  take(token: number): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.clock.clearTimeout(entry.timer);
    this.entries.delete(token);
    return entry.value;
  }

  dispose(): void {
    for (const entry of this.entries.values()) this.clock.clearTimeout(entry.timer);
    this.entries.clear();
  }
}

export const TITLE_INSTRUCTION =
  'Write a short title (at most 6 words) for the conversation below. Reply with the title only: no quotes, no punctuation at the end.';
