// How a reply's reasoning is summed up where it is shown collapsed (the chat panel, an exported chat): how long the
// model thought and how many tokens it spent on it. Pure and browser-safe.
import type { AssistantTurn } from './session';

/** "Thinking…" while it streams, then "Thought for 12 s · 340 reasoning tokens" (each part only when known). */
export function thinkingSummary(turn: Pick<AssistantTurn, 'status' | 'content' | 'thoughtMs' | 'usage'>): string {
  if (turn.status === 'streaming' && turn.content === '') return 'Thinking…';
  const parts: string[] = [];
  if (turn.thoughtMs !== undefined) parts.push(`Thought for ${formatSeconds(turn.thoughtMs)}`);
  const tokens = turn.usage?.reasoning;
  if (tokens !== undefined && tokens > 0) parts.push(`${tokens.toLocaleString('en-US')} reasoning token${tokens === 1 ? '' : 's'}`);
  if (parts.length === 0) return 'Reasoning';
  if (parts.length === 1 && parts[0].endsWith('tokens')) parts.unshift('Reasoning');
  return parts.join(' · ');
}

/** Whole seconds ("12 s"), one decimal below ten ("2.4 s"), "under 0.1 s" for less. */
export function formatSeconds(ms: number): string {
  if (ms < 100) return 'under 0.1 s';
  if (ms < 10_000) return `${(Math.round(ms / 100) / 10).toLocaleString('en-US')} s`;
  return `${Math.round(ms / 1000).toLocaleString('en-US')} s`;
}

/**
 * Measures `thoughtMs` from the deltas of a reply as they arrive: from the first reasoning to the first answer text
 * or tool call (or the end, for a reply that only reasoned).
 */
export class ThinkingTimer {
  #startedAt: number | undefined;
  #endedAt: number | undefined;

  note(delta: { content?: string; reasoning?: string; toolCalls?: readonly unknown[] }, now: number): void {
    if (this.#endedAt !== undefined) return;
    if (this.#startedAt === undefined) {
      if (!delta.reasoning) return;
      this.#startedAt = now;
    }
    if (delta.content || (delta.toolCalls && delta.toolCalls.length > 0)) this.#endedAt = now;
  }

  /** The time spent reasoning, or undefined when the reply had none. */
  elapsed(now: number): number | undefined {
    if (this.#startedAt === undefined) return undefined;
    return Math.max(0, (this.#endedAt ?? now) - this.#startedAt);
  }
}
