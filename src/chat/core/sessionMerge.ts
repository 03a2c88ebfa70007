// Merges two copies of one chat session, as two VS Code windows with the same chat open write it. Turns are matched
// by id against the copy both started from (the base): a turn one side added is kept, a turn one side removed
// (regenerate, edit and resend) stays removed, and a turn both hold is taken from the side that got further with
// it. A turn only grows while it streams and then finishes, so "further" is well defined.
import type { ChatSession, Turn } from '../../chatProtocol/session';

/** What a window last read or wrote of a session: the starting point of both sides of a merge. */
export interface SessionBase {
  turnIds: ReadonlySet<string>;
  /** The settings as JSON. */
  settings: string;
  title: string;
}

export function baseOf(session: Readonly<ChatSession>): SessionBase {
  return { turnIds: new Set(session.turns.map((t) => t.id)), settings: JSON.stringify(session.settings), title: session.title };
}

function progress(turn: Turn): [number, number] {
  if (turn.role === 'user') return [1, turn.content.length];
  if (turn.role === 'media') return [turn.state === 'pending' ? 0 : 1, turn.url?.length ?? 0];
  if (turn.role === 'newer') return [1, 0];
  // An Apply recorded on a finished reply is progress too (records are only ever added).
  const output = turn.content.length + turn.reasoning.length + turn.refusal.length + turn.toolCalls.reduce((n, c) => n + c.arguments.length, 0) + (turn.applies?.length ?? 0);
  return [turn.status === 'streaming' ? 0 : 1, output];
}

/** Theirs only when it is strictly further along; a tie keeps ours. */
function further(ours: Turn, theirs: Turn): Turn {
  const [a, b] = [progress(ours), progress(theirs)];
  return b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]) ? theirs : ours;
}

/**
 * The merged turn list. `pinned` (a reply this window is streaming) is always kept as ours. Turns the other side
 * added go right after the turn they followed there, so each question stays next to its answer.
 */
export function mergeTurns(base: ReadonlySet<string>, ours: readonly Turn[], theirs: readonly Turn[], pinned?: string): Turn[] {
  const theirsById = new Map(theirs.map((t) => [t.id, t]));
  const oursIds = new Set(ours.map((t) => t.id));
  const merged: Turn[] = [];
  for (const turn of ours) {
    const other = theirsById.get(turn.id);
    if (turn.id === pinned) merged.push(turn);
    else if (other) merged.push(further(turn, other));
    else if (!base.has(turn.id)) merged.push(turn); // added here
    // else: removed there
  }
  const keptIds = new Set(merged.map((t) => t.id));
  const added = new Map<string | undefined, Turn[]>();
  let anchor: string | undefined;
  for (const turn of theirs) {
    if (keptIds.has(turn.id)) anchor = turn.id;
    else if (!oursIds.has(turn.id) && !base.has(turn.id)) {
      // added there
      const group = added.get(anchor) ?? [];
      group.push(turn);
      added.set(anchor, group);
    }
  }
  if (added.size === 0) return merged;
  return [...(added.get(undefined) ?? []), ...merged.flatMap((t) => [t, ...(added.get(t.id) ?? [])])];
}

/** Session fields: a side that changed one since the base wins; ours wins when both did. */
export function mergeSessions(base: SessionBase, ours: ChatSession, theirs: ChatSession, pinned?: string): ChatSession {
  const oursChangedSettings = JSON.stringify(ours.settings) !== base.settings;
  return {
    id: ours.id,
    title: ours.title !== base.title ? ours.title : theirs.title,
    createdAt: Math.min(ours.createdAt, theirs.createdAt),
    updatedAt: Math.max(ours.updatedAt, theirs.updatedAt),
    settings: oursChangedSettings ? ours.settings : theirs.settings,
    turns: mergeTurns(base.turnIds, ours.turns, theirs.turns, pinned),
  };
}
