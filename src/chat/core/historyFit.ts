// Long chats: which of a conversation's newest turns fit the model's context window, and how many of the oldest
// would be left out. Pure. Nothing is cut silently: this only says what would fit; the user chooses, and a reply
// sent without the oldest turns says so (AssistantTurn.omittedTurns).
import type { ChatSettings, Turn } from '../../chatProtocol/session';
import { fixedTokens, turnTokens } from './request';

/** How a request is sent when the chat no longer fits the model's context window (the user chose it). */
export interface FitOptions {
  /** Send only the newest turns that fit this many tokens; the reply records how many were left out. */
  fitWindow?: number;
}

export interface HistoryFit {
  /** The first turn to send: 0 when everything fits, else always a user turn (an exchange is never split). */
  fromIndex: number;
  /** Turns before `fromIndex` that would have gone to the model (media turns and empty replies never do). */
  omittedTurns: number;
  /** Estimated tokens of the request sent from `fromIndex`, the reply's reserve included. */
  total: number;
  /** Estimated tokens of the request with every turn. */
  whole: number;
  window: number;
  /** False when even the last question alone, with its context, does not fit. */
  fits: boolean;
}

/**
 * The newest turns of `turns` (the conversation up to and including the question being asked) that fit `window`.
 * The last user turn is always sent; older turns are dropped oldest first, whole exchanges at a time.
 */
export function fitHistory(turns: readonly Turn[], settings: ChatSettings, window: number): HistoryFit {
  const costs = turns.map(turnTokens);
  const whole = costs.reduce((sum, cost) => sum + cost, fixedTokens(settings));
  if (whole <= window) return { fromIndex: 0, omittedTurns: 0, total: whole, whole, window, fits: true };
  const lastQuestion = turns.findLastIndex((t) => t.role === 'user');
  const last = Math.max(0, lastQuestion);
  let total = whole;
  let fromIndex = last;
  let fits = false;
  for (let i = 0; i <= last; i++) {
    if (i > 0) total -= costs[i - 1];
    if (turns[i]?.role === 'user' && total <= window) {
      fromIndex = i;
      fits = true;
      break;
    }
  }
  if (!fits) total = costs.slice(last).reduce((sum, cost) => sum + cost, fixedTokens(settings));
  const omittedTurns = costs.slice(0, fromIndex).filter((cost) => cost > 0).length;
  return { fromIndex, omittedTurns, total, whole, window, fits };
}
