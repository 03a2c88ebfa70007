// The chat session as data: what is saved to disk, and (nearly unchanged) what the webview is sent. Pure and
// browser-safe; the webview bundle imports the types and `applyDelta`.
import type { Attachment } from './attachments';
import type { CodeApply } from './codeApply';

/** Temperature and top_p are alternatives (the spec: "use either this or temperature, not both"). */
export type Sampling = { mode: 'default' } | { mode: 'temperature'; value: number } | { mode: 'top_p'; value: number };

export interface ChatSettings {
  /** Empty until a model is chosen (the first chat model listed is taken on first send). */
  model: string;
  systemPrompt: string;
  sampling: Sampling;
  maxTokens: number | null;
  stop: string[];
  /** Sends `response_format: {type: "json_object"}`. */
  jsonMode: boolean;
  /**
   * The models for /image, /video and /speak; '' (or no entry) is the configured one, else the first the gateway
   * lists. Absent in sessions saved before the slash commands.
   */
  mediaModels?: MediaModels;
  /** The reasoning effort asked of the model (one of its levels); absent: nothing is sent (the model's default). */
  reasoningEffort?: string;
  /**
   * The profile the chat runs under (its gateway and key), kept from the chat's start whichever profile is active
   * later; absent: Default (chats saved before profiles).
   */
  profile?: string;
}

export type MediaKind = 'image' | 'video' | 'speech';
export type MediaModels = Record<MediaKind, string>;

export type AssistantStatus = 'streaming' | 'complete' | 'stopped' | 'interrupted' | 'failed';

export interface TurnErrorAction {
  title: string;
  command: string;
  args?: unknown[];
}

export interface TurnError {
  message: string;
  kind: string;
  actions: TurnErrorAction[];
  /** When the gateway allows the next try (epoch ms, host clock). */
  retryAt?: number;
}

export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
  /** Of the completion, the tokens spent reasoning (`completion_tokens_details.reasoning_tokens`), when given. */
  reasoning?: number;
  /** USD, when the gateway reported it or the usage ledger could estimate it; absent when unknown (never 0 for that). */
  cost?: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

/** A tool call's arguments as the chat shows and exports them: indented when they are JSON, as sent when not. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export interface UserTurn {
  id: string;
  role: 'user';
  createdAt: number;
  content: string;
  /** Context sent with the message (absent when there was none). */
  attachments?: Attachment[];
}

export interface AssistantTurn {
  id: string;
  role: 'assistant';
  createdAt: number;
  model: string;
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: ToolCallRecord[];
  status: AssistantStatus;
  finishReason: string | null;
  usage: TokenUsage | null;
  error?: TurnError;
  /**
   * The chat no longer fitted the model's context window and the user chose to send only the newest turns: how many
   * of the oldest were not sent with this reply's request. Absent when everything was sent.
   */
  omittedTurns?: number;
  /** The reply's code blocks the user chose to Apply, and whether each was applied or discarded in the review. */
  applies?: CodeApply[];
  /** How long the model reasoned, in ms: from its first reasoning to its first answer text (or the end). */
  thoughtMs?: number;
}

/** "the 12 oldest turns": how a reply (and the offer before it) names what was left out. */
export function oldestTurnsText(count: number): string {
  return count === 1 ? 'the oldest turn' : `the ${count.toLocaleString('en-US')} oldest turns`;
}

/**
 * A /image, /video or /speak turn. Only ids and links the extension itself received from the gateway are kept:
 * the history entry (images, speech), the video job's key, and the gateway's link to the result.
 */
export interface MediaTurn {
  id: string;
  role: 'media';
  createdAt: number;
  kind: MediaKind;
  /** The message as the user typed it (`/image …`); shown, searched and exported like any message. */
  content: string;
  /** The prompt, or the text spoken. */
  prompt: string;
  model: string;
  state: MediaState;
  /** Images and speech: the Media history entry holding the kept file. */
  entryId?: string;
  /** Which of the entry's files (images may come several to an entry). */
  fileName?: string;
  /** Videos: the job's key in the Video Jobs store. */
  jobKey?: string;
  /** The gateway's link to the result (may expire). */
  url?: string;
  contentType?: string;
  /** Why it failed, or what the job is doing. */
  detail?: string;
  /** A failed turn: what its failure's advice offers (Set API Key, Open Logs…), as the reply's error card offers it. */
  actions?: TurnErrorAction[];
}

export type MediaState = 'pending' | 'complete' | 'failed';

/**
 * A turn of a kind a newer version of the extension wrote (its `role` is `kind`). It is shown as "made by a newer
 * version", sent to no model, and written back exactly as it was read (`stored`).
 */
export interface NewerTurn {
  id: string;
  role: 'newer';
  createdAt: number;
  kind: string;
  content: '';
  stored: Record<string, unknown>;
}

export type Turn = UserTurn | AssistantTurn | MediaTurn | NewerTurn;

/** How a newer version's turn is shown and exported. */
export const NEWER_TURN_TEXT = 'Made by a newer version of Model Gateway';

export interface ChatSession {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  settings: ChatSettings;
  turns: Turn[];
}

/** A piece of streamed text and where it starts, so applying it twice (journal replay) changes nothing. */
export interface TextPiece {
  at: number;
  text: string;
}

export interface ToolCallPiece {
  index: number;
  id?: string;
  name?: string;
  /** Where `arguments` starts in the call's arguments. */
  at: number;
  arguments: string;
}

/** New output of one assistant turn. The same shape is journaled to disk and posted to the webview. */
export interface TurnDelta {
  turnId: string;
  content?: TextPiece;
  reasoning?: TextPiece;
  refusal?: TextPiece;
  toolCalls?: ToolCallPiece[];
}

export const LIMITS = {
  /** A message typed or pasted by the user. */
  text: 1_000_000,
  /** Any text of a stored turn, or a streamed piece of it: replies can be long, and must never make a session unreadable. */
  storedText: 100_000_000,
  title: 200,
  model: 200,
  stopSequences: 16,
  stopLength: 500,
  turns: 10_000,
  toolCalls: 128,
  toolCallId: 200,
  toolName: 200,
  finishReason: 100,
  errorMessage: 10_000,
  errorKind: 50,
  actions: 8,
  actionTitle: 200,
  command: 200,
  /** Chat models listed in the model picker. */
  models: 1000,
  mediaPrompt: 8000,
  url: 16 * 1024,
  mediaDetail: 1000,
  contentType: 100,
} as const;

export const NEW_CHAT_TITLE = 'New Chat';

export function defaultSettings(): ChatSettings {
  return { model: '', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
}

export function emptyAssistantTurn(id: string, model: string, createdAt: number): AssistantTurn {
  return { id, role: 'assistant', createdAt, model, content: '', reasoning: '', refusal: '', toolCalls: [], status: 'streaming', finishReason: null, usage: null };
}

/** A title from the first line of the first message. */
export function titleFrom(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.trim().startsWith('```'))?.trim() ?? '';
  if (line === '') return NEW_CHAT_TITLE;
  return line.length > 48 ? `${line.slice(0, 47)}…` : line;
}

export function sessionUsage(session: { turns: Turn[] }): TokenUsage {
  const sum: TokenUsage = { prompt: 0, completion: 0, total: 0 };
  for (const turn of session.turns) {
    if (turn.role !== 'assistant' || !turn.usage) continue;
    sum.prompt += turn.usage.prompt;
    sum.completion += turn.usage.completion;
    sum.total += turn.usage.total;
  }
  return sum;
}

/** What a turn says, as text: the message, the reply, or a media turn's command and prompt. */
export function turnText(turn: Turn): string {
  return turn.content;
}

export function hasOutput(turn: AssistantTurn): boolean {
  return turn.content !== '' || turn.reasoning !== '' || turn.refusal !== '' || turn.toolCalls.length > 0;
}

export interface AppliedDelta {
  content: string;
  reasoning: string;
  refusal: string;
  toolCallsChanged: boolean;
  /** A piece started beyond the text we have: something was lost in between. */
  gap: boolean;
}

function applyPiece(current: string, piece: TextPiece | undefined): { text: string; added: string; gap: boolean } {
  if (!piece) return { text: current, added: '', gap: false };
  if (piece.at > current.length) return { text: current, added: '', gap: true };
  const added = piece.text.slice(current.length - piece.at);
  return { text: current + added, added, gap: false };
}

/** Applies a delta to a turn; idempotent, so the journal can be replayed over a snapshot that already has part of it. */
export function applyDelta(turn: AssistantTurn, delta: TurnDelta): AppliedDelta {
  const content = applyPiece(turn.content, delta.content);
  const reasoning = applyPiece(turn.reasoning, delta.reasoning);
  const refusal = applyPiece(turn.refusal, delta.refusal);
  turn.content = content.text;
  turn.reasoning = reasoning.text;
  turn.refusal = refusal.text;
  let gap = content.gap || reasoning.gap || refusal.gap;
  let toolCallsChanged = false;
  for (const piece of delta.toolCalls ?? []) {
    if (piece.index > turn.toolCalls.length) {
      gap = true;
      continue;
    }
    const call = (turn.toolCalls[piece.index] ??= { id: '', name: '', arguments: '' });
    if (piece.id && call.id !== piece.id) call.id = piece.id;
    if (piece.name && call.name !== piece.name) call.name = piece.name;
    const args = applyPiece(call.arguments, { at: piece.at, text: piece.arguments });
    call.arguments = args.text;
    gap ||= args.gap;
    toolCallsChanged = true;
  }
  return { content: content.added, reasoning: reasoning.added, refusal: refusal.added, toolCallsChanged, gap };
}
