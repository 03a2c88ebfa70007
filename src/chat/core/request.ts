// Turns a session into the chat completion request for its next reply.
import type { ChatMessage, ChatRequest } from '../../gateway/types';
import type { ChatSettings, Turn } from '../../chatProtocol/session';
import { attachmentTokens, estimateTextTokens, TOKENS_PER_MESSAGE } from '../../chatProtocol/attachments';
import { userContent } from './contextPrompt';
import { effortFields, type ReasoningEffortFormat } from '../../gateway/reasoningEffort';

/**
 * The conversation before a reply: the system prompt, the workspace's instructions (a system message of their own,
 * when the chat sends them), then every user turn and every assistant turn that has text.
 */
export function conversationBefore(turns: readonly Turn[], settings: ChatSettings, instructions?: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (settings.systemPrompt.trim() !== '') messages.push({ role: 'system', content: settings.systemPrompt });
  if (instructions) messages.push({ role: 'system', content: instructions });
  for (const turn of turns) {
    if (turn.role === 'user') messages.push({ role: 'user', content: userContent(turn) });
    // Media turns are the user's own tools: the model is not asked about them.
    else if (turn.role === 'assistant' && turn.content !== '') messages.push({ role: 'assistant', content: turn.content });
    // A reply that failed before producing text, or produced only a refusal or tool calls we never ran, is left out:
    // tool calls without their results would make the request invalid.
  }
  return messages;
}

/** What a request adds beyond the chat's own settings. */
export interface RequestExtras {
  /** The workspace's instructions, sent as a system message of their own. */
  instructions?: string;
  /** The form the chat's reasoning effort (when chosen) is sent in. */
  effortFormat?: ReasoningEffortFormat;
}

/** The request for the next reply. */
export function buildChatRequest(turns: readonly Turn[], settings: ChatSettings, model: string, { instructions, effortFormat }: RequestExtras = {}): ChatRequest {
  const request: ChatRequest = {
    model,
    messages: conversationBefore(turns, settings, instructions),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (settings.sampling.mode === 'temperature') request.temperature = settings.sampling.value;
  if (settings.sampling.mode === 'top_p') request.top_p = settings.sampling.value;
  if (settings.maxTokens !== null) request.max_tokens = settings.maxTokens;
  if (settings.stop.length > 0) request.stop = [...settings.stop];
  if (settings.jsonMode) request.response_format = { type: 'json_object' };
  return { ...request, ...effortFields(settings.reasoningEffort, effortFormat) };
}

/** Estimated tokens of what a turn adds to the request: 0 for the turns `conversationBefore` leaves out. */
export function turnTokens(turn: Turn): number {
  if (turn.role === 'user') return estimateTextTokens(turn.content) + TOKENS_PER_MESSAGE + (turn.attachments ?? []).reduce((sum, a) => sum + attachmentTokens(a), 0);
  if (turn.role === 'assistant' && turn.content !== '') return estimateTextTokens(turn.content) + TOKENS_PER_MESSAGE;
  return 0;
}

/** Estimated tokens every request of a chat costs whatever turns it carries: the system prompt and the reply's reserve. */
export function fixedTokens(settings: ChatSettings): number {
  const system = settings.systemPrompt.trim() !== '' ? estimateTextTokens(settings.systemPrompt) + TOKENS_PER_MESSAGE : 0;
  return (settings.maxTokens ?? 0) + system;
}

/** Estimated tokens of the request for the next reply, before new attachments and the draft: system prompt, history,
 * and the reply's reserve (max tokens when set). */
export function conversationTokens(turns: readonly Turn[], settings: ChatSettings): number {
  return turns.reduce((sum, turn) => sum + turnTokens(turn), fixedTokens(settings));
}
