// The chat session as data: what is saved to disk, and (nearly unchanged) what the webview is sent. Pure and
// browser-safe; the webview bundle imports the types, validators and `applyDelta`.
import { hasOnlyKeys, isArrayOf, isCount, isFiniteIn, isId, isRecord, isText, type Fields } from './validate';

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
}

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
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

export interface UserTurn {
  id: string;
  role: 'user';
  createdAt: number;
  content: string;
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
}

export type Turn = UserTurn | AssistantTurn;

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
  actions: 8,
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

// ---- validation -------------------------------------------------------------------------------------------

function isSampling(value: unknown): value is Sampling {
  if (!isRecord(value)) return false;
  if (value.mode === 'default') return hasOnlyKeys(value, ['mode']);
  if (value.mode === 'temperature') return hasOnlyKeys(value, ['mode', 'value']) && isFiniteIn(value.value, 0, 2);
  if (value.mode === 'top_p') return hasOnlyKeys(value, ['mode', 'value']) && isFiniteIn(value.value, 0, 1);
  return false;
}

function isStopSequence(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= LIMITS.stopLength;
}

export function isChatSettings(value: unknown): value is ChatSettings {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['model', 'systemPrompt', 'sampling', 'maxTokens', 'stop', 'jsonMode']) &&
    isText(value.model, LIMITS.model) &&
    isText(value.systemPrompt, LIMITS.storedText) &&
    isSampling(value.sampling) &&
    (value.maxTokens === null || (isCount(value.maxTokens) && value.maxTokens >= 1)) &&
    isArrayOf(value.stop, LIMITS.stopSequences, isStopSequence) &&
    typeof value.jsonMode === 'boolean'
  );
}

function isUsage(value: unknown): value is TokenUsage {
  return isRecord(value) && hasOnlyKeys(value, ['prompt', 'completion', 'total']) && isCount(value.prompt) && isCount(value.completion) && isCount(value.total);
}

function isAction(value: unknown): value is TurnErrorAction {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['title', 'command', 'args']) &&
    isText(value.title, 200) &&
    isText(value.command, 200) &&
    (value.args === undefined || Array.isArray(value.args))
  );
}

function isTurnError(value: unknown): value is TurnError {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['message', 'kind', 'actions', 'retryAt']) &&
    isText(value.message, 10_000) &&
    isText(value.kind, 50) &&
    isArrayOf(value.actions, LIMITS.actions, isAction) &&
    (value.retryAt === undefined || isCount(value.retryAt))
  );
}

function isToolCallRecord(value: unknown): value is ToolCallRecord {
  return isRecord(value) && hasOnlyKeys(value, ['id', 'name', 'arguments']) && isText(value.id, 200) && isText(value.name, 200) && isText(value.arguments, LIMITS.storedText);
}

const STATUSES: readonly AssistantStatus[] = ['streaming', 'complete', 'stopped', 'interrupted', 'failed'];

function isUserTurn(value: Fields): boolean {
  return hasOnlyKeys(value, ['id', 'role', 'createdAt', 'content']) && isId(value.id) && isCount(value.createdAt) && isText(value.content, LIMITS.storedText);
}

function isAssistantTurn(value: Fields): boolean {
  return (
    hasOnlyKeys(value, ['id', 'role', 'createdAt', 'model', 'content', 'reasoning', 'refusal', 'toolCalls', 'status', 'finishReason', 'usage', 'error']) &&
    isId(value.id) &&
    isCount(value.createdAt) &&
    isText(value.model, LIMITS.model) &&
    isText(value.content, LIMITS.storedText) &&
    isText(value.reasoning, LIMITS.storedText) &&
    isText(value.refusal, LIMITS.storedText) &&
    isArrayOf(value.toolCalls, LIMITS.toolCalls, isToolCallRecord) &&
    STATUSES.includes(value.status as AssistantStatus) &&
    (value.finishReason === null || isText(value.finishReason, 100)) &&
    (value.usage === null || isUsage(value.usage)) &&
    (value.error === undefined || isTurnError(value.error))
  );
}

export function isTurn(value: unknown): value is Turn {
  if (!isRecord(value)) return false;
  if (value.role === 'user') return isUserTurn(value);
  if (value.role === 'assistant') return isAssistantTurn(value);
  return false;
}

export function isChatSession(value: unknown): value is ChatSession {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['id', 'title', 'createdAt', 'updatedAt', 'settings', 'turns']) &&
    isId(value.id) &&
    isText(value.title, LIMITS.title) &&
    isCount(value.createdAt) &&
    isCount(value.updatedAt) &&
    isChatSettings(value.settings) &&
    isArrayOf(value.turns, LIMITS.turns, isTurn)
  );
}

function isTextPiece(value: unknown): value is TextPiece {
  return isRecord(value) && hasOnlyKeys(value, ['at', 'text']) && isCount(value.at) && isText(value.text, LIMITS.storedText);
}

function isToolCallPiece(value: unknown): value is ToolCallPiece {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['index', 'id', 'name', 'at', 'arguments']) &&
    isCount(value.index) &&
    value.index < LIMITS.toolCalls &&
    (value.id === undefined || isText(value.id, 200)) &&
    (value.name === undefined || isText(value.name, 200)) &&
    isCount(value.at) &&
    isText(value.arguments, LIMITS.storedText)
  );
}

export function isTurnDelta(value: unknown): value is TurnDelta {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['turnId', 'content', 'reasoning', 'refusal', 'toolCalls']) &&
    isId(value.turnId) &&
    (value.content === undefined || isTextPiece(value.content)) &&
    (value.reasoning === undefined || isTextPiece(value.reasoning)) &&
    (value.refusal === undefined || isTextPiece(value.refusal)) &&
    (value.toolCalls === undefined || isArrayOf(value.toolCalls, LIMITS.toolCalls, isToolCallPiece))
  );
}
