// Branch with a Summary: the request that asks the chat model to summarize a chat too long for its context window,
// and the first message of the new chat built from the answer (put in its input for the user to read and edit; it
// is sent only when they send it). Pure.
import { CHARS_PER_TOKEN } from '../../chatProtocol/attachments';
import { defaultSettings, oldestTurnsText, type ChatSession } from '../../chatProtocol/session';
import type { ChatRequest } from '../../gateway/types';
import { textWithContext } from './contextPrompt';
import { fixedTokens } from './request';
import { fitHistory } from './historyFit';

export const SUMMARY_INSTRUCTION =
  'Summarize the conversation you are given so that it can continue in a new chat. Keep the facts, decisions, names, code identifiers and open questions; leave out pleasantries. Use short paragraphs or a list, at most about 300 words, and add nothing that is not in the conversation.';
/** The summary's reply reserve: at most this, and at most a quarter of the window (the transcript needs the rest). */
export const SUMMARY_MAX_TOKENS = 1024;

export interface SummaryRequest {
  request: ChatRequest;
  /** The oldest turns the summary does not cover (the transcript itself had to fit the window). */
  omittedTurns: number;
}

/** The request for a summary of `session` by `model`, its transcript cut to the newest turns that fit `window`. */
export function summaryRequest(session: Readonly<ChatSession>, model: string, window: number): SummaryRequest {
  const maxTokens = Math.max(1, Math.min(SUMMARY_MAX_TOKENS, Math.floor(window / 4)));
  const settings = { ...defaultSettings(), systemPrompt: SUMMARY_INSTRUCTION, maxTokens };
  const fit = fitHistory(session.turns, settings, window);
  const lines: string[] = [];
  for (const turn of session.turns.slice(fit.fromIndex)) {
    if (turn.role === 'user') lines.push(`User:\n${textWithContext(turn.content, turn.attachments ?? [])}`);
    else if (turn.role === 'assistant' && turn.content !== '') lines.push(`Assistant:\n${turn.content}`);
  }
  let transcript = lines.join('\n\n');
  // Even the last exchange is too long: its end is kept (the newest words), to the characters the window allows.
  const room = Math.max(0, (window - fixedTokens(settings)) * CHARS_PER_TOKEN - 100);
  if (!fit.fits && transcript.length > room) transcript = `…${transcript.slice(transcript.length - room)}`;
  return {
    request: { model, messages: [{ role: 'system', content: SUMMARY_INSTRUCTION }, { role: 'user', content: transcript }], stream: true, max_tokens: maxTokens },
    omittedTurns: fit.omittedTurns,
  };
}

/** The new chat's first message: the summary, said to be one, then the message that was held back (if any). */
export function summaryDraft(title: string, model: string, summary: string, omittedTurns: number, pending: string): string {
  const gap = omittedTurns > 0 ? ` It does not cover ${oldestTurnsText(omittedTurns)}, which did not fit.` : '';
  const head = `Summary of our earlier chat “${title}” (written by ${model}; read and edit it before sending).${gap}`;
  return [head, summary.trim(), pending.trim()].filter((part) => part !== '').join('\n\n');
}
