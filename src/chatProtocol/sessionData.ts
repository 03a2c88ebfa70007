// The one normaliser for chat session data, wherever it comes from: gateway replies (before a turn is stored or
// shown), session files (turn by turn, so one bad field costs at most that field), and the messages between host
// and webview (which derive their strict checks from these; see validate.ts).
import {
  LIMITS,
  NEW_CHAT_TITLE,
  defaultSettings,
  type AssistantStatus,
  type AssistantTurn,
  type ChatSession,
  type ChatSettings,
  type Sampling,
  type TextPiece,
  type TokenUsage,
  type ToolCallPiece,
  type ToolCallRecord,
  type Turn,
  type TurnDelta,
  type TurnError,
  type NewerTurn,
  type UserTurn,
} from './session';
import { isNewerTurn, knownTurnFields } from './sessionUnknown';
import { cleanAttachments } from './attachments';
import { cleanArray, cleanCount, cleanText, conforms, isCount, isId, isRecord, type Cleaner, type Fields } from './validate';
import { cleanMediaModels, cleanMediaTurn } from './mediaTurn';
import { cleanErrorActions } from './errorActions';
import { cleanCodeApplies } from './codeApply';
import { cleanEffortLevel } from './effortLevel';

const STATUSES: readonly AssistantStatus[] = ['streaming', 'complete', 'stopped', 'interrupted', 'failed'];
export const FINAL_STATUSES: readonly AssistantStatus[] = ['complete', 'stopped', 'interrupted', 'failed'];

function cleanSampling(value: unknown): Sampling {
  if (!isRecord(value)) return { mode: 'default' };
  const number = typeof value.value === 'number' && Number.isFinite(value.value) ? value.value : undefined;
  if (value.mode === 'temperature' && number !== undefined) return { mode: 'temperature', value: Math.min(2, Math.max(0, number)) };
  if (value.mode === 'top_p' && number !== undefined) return { mode: 'top_p', value: Math.min(1, Math.max(0, number)) };
  return { mode: 'default' };
}

function cleanStopSequence(value: unknown): string | undefined {
  const text = cleanText(value, LIMITS.stopLength);
  return text === '' ? undefined : text;
}

/** Settings with every field usable: what is missing or malformed takes the default. */
export function cleanSettings(value: unknown): ChatSettings {
  const fields: Fields = isRecord(value) ? value : {};
  const defaults = defaultSettings();
  const maxTokens = cleanCount(fields.maxTokens);
  const settings: ChatSettings = {
    model: cleanText(fields.model, LIMITS.model) ?? defaults.model,
    systemPrompt: cleanText(fields.systemPrompt, LIMITS.storedText) ?? defaults.systemPrompt,
    sampling: cleanSampling(fields.sampling),
    maxTokens: maxTokens !== undefined && maxTokens >= 1 ? maxTokens : null,
    stop: cleanArray(fields.stop, LIMITS.stopSequences, cleanStopSequence),
    jsonMode: typeof fields.jsonMode === 'boolean' ? fields.jsonMode : defaults.jsonMode,
  };
  if (fields.mediaModels !== undefined) settings.mediaModels = cleanMediaModels(fields.mediaModels);
  const effort = cleanEffortLevel(fields.reasoningEffort);
  if (effort !== undefined) settings.reasoningEffort = effort;
  if (isId(fields.profile)) settings.profile = fields.profile;
  return settings;
}

/** Token counts; a missing total is the sum of the other two. Null when no count is usable. */
export function cleanUsage(value: unknown, names: { prompt: string; completion: string; total: string } = { prompt: 'prompt', completion: 'completion', total: 'total' }, reasoning: unknown = isRecord(value) ? value.reasoning : undefined): TokenUsage | null {
  if (!isRecord(value)) return null;
  const prompt = cleanCount(value[names.prompt]);
  const completion = cleanCount(value[names.completion]);
  const total = cleanCount(value[names.total]);
  if (prompt === undefined && completion === undefined && total === undefined) return null;
  const usage: TokenUsage = { prompt: prompt ?? 0, completion: completion ?? 0, total: total ?? Math.min((prompt ?? 0) + (completion ?? 0), Number.MAX_SAFE_INTEGER) };
  const reasoningTokens = cleanCount(reasoning);
  if (reasoningTokens !== undefined) usage.reasoning = reasoningTokens;
  const cost = cleanCost(value.cost);
  if (cost !== undefined) usage.cost = cost;
  return usage;
}

/** USD beside the tokens; anything odd is left out (an unknown cost is absent, never 0). */
export function cleanCost(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1e4 ? value : undefined;
}

/**
 * The usage with the cost the usage ledger knows for the call (asked after the answer): the gateway's own figure
 * in the answer (`usage.cost`, as OpenRouter sends it) stays when it gave one.
 */
export function withLedgerCost(usage: TokenUsage | null, cost: unknown): TokenUsage | null {
  const known = cleanCost(cost);
  return usage && usage.cost === undefined && known !== undefined ? { ...usage, cost: known } : usage;
}

/** The gateway's `usage` object (OpenAI field names; reasoning tokens in `completion_tokens_details`). */
export function usageFromGateway(value: unknown): TokenUsage | null {
  const details = isRecord(value) && isRecord(value.completion_tokens_details) ? value.completion_tokens_details : undefined;
  return cleanUsage(value, { prompt: 'prompt_tokens', completion: 'completion_tokens', total: 'total_tokens' }, details?.reasoning_tokens);
}

export function cleanModelId(value: unknown): string {
  return cleanText(value, LIMITS.model) ?? '';
}

export function cleanFinishReason(value: unknown): string | null {
  return cleanText(value, LIMITS.finishReason) || null;
}

export function cleanToolCallId(value: unknown): string {
  return cleanText(value, LIMITS.toolCallId) ?? '';
}

export function cleanToolName(value: unknown): string {
  return cleanText(value, LIMITS.toolName) ?? '';
}

function cleanToolCall(value: unknown): ToolCallRecord | undefined {
  if (!isRecord(value)) return undefined;
  return { id: cleanToolCallId(value.id), name: cleanToolName(value.name), arguments: cleanText(value.arguments, LIMITS.storedText) ?? '' };
}

export function cleanErrorMessage(value: unknown): string {
  return cleanText(value, LIMITS.errorMessage) || 'The reply failed.';
}

export function cleanErrorKind(value: unknown): string {
  return cleanText(value, LIMITS.errorKind) || 'unknown';
}

/** A reply's error from its parts (an error advice, or a stored error). */
export function turnErrorFrom(fields: Fields): TurnError {
  const error: TurnError = { message: cleanErrorMessage(fields.message), kind: cleanErrorKind(fields.kind), actions: cleanErrorActions(fields.actions) };
  const retryAt = cleanCount(fields.retryAt);
  if (retryAt !== undefined) error.retryAt = retryAt;
  return error;
}

export function cleanTurnError(value: unknown): TurnError | undefined {
  return isRecord(value) ? turnErrorFrom(value) : undefined;
}

function cleanUserTurn(value: Fields): UserTurn | undefined {
  const content = cleanText(value.content, LIMITS.storedText);
  if (!isId(value.id) || content === undefined) return undefined;
  const turn: UserTurn = { id: value.id, role: 'user', createdAt: cleanCount(value.createdAt) ?? 0, content };
  const attachments = cleanAttachments(value.attachments);
  if (attachments.length > 0) turn.attachments = attachments;
  return turn;
}

/** An assistant turn with a given kind of error (stored turns keep commands; the webview gets titles only). */
export type AssistantTurnWith<E> = Omit<AssistantTurn, 'error'> & { error?: E };

function cleanAssistantTurn<E>(value: unknown, cleanError: Cleaner<E>): AssistantTurnWith<E> | undefined {
  if (!isRecord(value) || value.role !== 'assistant' || !isId(value.id)) return undefined;
  const turn: AssistantTurnWith<E> = {
    id: value.id,
    role: 'assistant',
    createdAt: cleanCount(value.createdAt) ?? 0,
    model: cleanModelId(value.model),
    content: cleanText(value.content, LIMITS.storedText) ?? '',
    reasoning: cleanText(value.reasoning, LIMITS.storedText) ?? '',
    refusal: cleanText(value.refusal, LIMITS.storedText) ?? '',
    toolCalls: cleanArray(value.toolCalls, LIMITS.toolCalls, cleanToolCall),
    // A turn whose state is unknown still shows its text, as a reply that did not finish.
    status: STATUSES.includes(value.status as AssistantStatus) ? (value.status as AssistantStatus) : 'interrupted',
    finishReason: cleanFinishReason(value.finishReason),
    usage: cleanUsage(value.usage),
  };
  const error = value.error === undefined ? undefined : cleanError(value.error);
  if (error !== undefined) turn.error = error;
  const omittedTurns = cleanCount(value.omittedTurns);
  if (omittedTurns !== undefined && omittedTurns > 0) turn.omittedTurns = Math.min(omittedTurns, LIMITS.turns);
  const applies = cleanCodeApplies(value.applies);
  if (applies.length > 0) turn.applies = applies;
  const thoughtMs = cleanCount(value.thoughtMs);
  if (thoughtMs !== undefined) turn.thoughtMs = thoughtMs;
  return turn;
}

/** A user turn, or an assistant turn whose error is cleaned by `cleanError`. */
export function cleanTurnWith<E>(value: unknown, cleanError: Cleaner<E>): UserTurn | AssistantTurnWith<E> | undefined {
  if (!isRecord(value)) return undefined;
  if (value.role === 'user') return cleanUserTurn(value);
  return cleanAssistantTurn(value, cleanError);
}

/**
 * A turn of a kind this version does not know (a newer version's: an unknown role, or a media turn of an unknown
 * kind), kept whole; undefined for a known kind.
 */
export function newerTurn(value: unknown): NewerTurn | undefined {
  if (!isRecord(value) || !isNewerTurn(value) || !isId(value.id)) return undefined;
  const kind = cleanText(value.role === 'media' ? `${String(value.kind)} media` : value.role, 100) ?? '';
  return { id: value.id, role: 'newer', createdAt: cleanCount(value.createdAt) ?? 0, kind, content: '', stored: value };
}

export function cleanTurn(value: unknown): Turn | undefined {
  const newer = newerTurn(value);
  if (newer) return newer;
  if (isRecord(value) && value.role === 'media') return cleanMediaTurn(value);
  return cleanTurnWith(value, cleanTurnError);
}

export interface SessionRepair {
  session: ChatSession;
  /** Turns kept with something fixed. */
  repaired: number;
  /** Turns that had nothing usable (or repeated an earlier turn's id). */
  dropped: number;
}

/** A stored session, repaired turn by turn. Undefined only when the value is not a session at all. */
export function repairSession(value: unknown, id: string): SessionRepair | undefined {
  if (!isRecord(value) || !Array.isArray(value.turns)) return undefined;
  const turns: Turn[] = [];
  const seen = new Set<string>();
  let repaired = 0;
  let dropped = 0;
  for (const raw of value.turns) {
    const turn = turns.length < LIMITS.turns ? cleanTurn(raw) : undefined;
    if (!turn || seen.has(turn.id)) {
      dropped++;
      continue;
    }
    seen.add(turn.id);
    // Fields a newer version added are not repairs: they are kept as they are (sessionUnknown.ts).
    if (turn.role !== 'newer' && !conforms(knownTurnFields(raw), cleanTurn)) repaired++;
    turns.push(turn);
  }
  const createdAt = cleanCount(value.createdAt) ?? 0;
  const session: ChatSession = {
    id,
    title: cleanText(value.title, LIMITS.title) || NEW_CHAT_TITLE,
    createdAt,
    updatedAt: cleanCount(value.updatedAt) ?? createdAt,
    settings: cleanSettings(value.settings),
    turns,
  };
  return { session, repaired, dropped };
}

function cleanTextPiece(value: unknown): TextPiece | undefined {
  if (!isRecord(value)) return undefined;
  const at = cleanCount(value.at);
  const text = cleanText(value.text, LIMITS.storedText);
  return at === undefined || text === undefined ? undefined : { at, text };
}

function cleanToolCallPiece(value: unknown): ToolCallPiece | undefined {
  if (!isRecord(value) || !isCount(value.index) || value.index >= LIMITS.toolCalls) return undefined;
  const at = cleanCount(value.at);
  const args = cleanText(value.arguments, LIMITS.storedText);
  if (at === undefined || args === undefined) return undefined;
  const piece: ToolCallPiece = { index: value.index, at, arguments: args };
  if (value.id !== undefined) piece.id = cleanToolCallId(value.id);
  if (value.name !== undefined) piece.name = cleanToolName(value.name);
  return piece;
}

export function cleanTurnDelta(value: unknown): TurnDelta | undefined {
  if (!isRecord(value) || !isId(value.turnId)) return undefined;
  const delta: TurnDelta = { turnId: value.turnId };
  for (const field of ['content', 'reasoning', 'refusal'] as const) {
    const piece = cleanTextPiece(value[field]);
    if (piece) delta[field] = piece;
  }
  if (value.toolCalls !== undefined) delta.toolCalls = cleanArray(value.toolCalls, LIMITS.toolCalls, cleanToolCallPiece);
  return delta;
}

export function isChatSettings(value: unknown): value is ChatSettings {
  return conforms(value, cleanSettings);
}

export function isTurnDelta(value: unknown): value is TurnDelta {
  return conforms(value, cleanTurnDelta);
}
