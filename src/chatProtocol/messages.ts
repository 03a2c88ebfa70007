// The one message protocol between the chat panel's host side and its webview, with the checks each side runs on
// what it receives. Anything that does not match exactly is dropped (and logged) by the receiver; the host also
// trims what it sends to what the webview accepts (`cleanHostMessage`), so one odd field never blanks a chat.
//
// The webview is sent the transcript once (`init`), then only changes: new turns, text deltas, final states.
// It never holds the API key or a command id: error actions are referred to by their position.
import { cleanChips, isImageData, isImageType, ATTACHMENT_LIMITS, type AttachmentChip, type ImageType } from './attachments';
import { LIMITS, type NewerTurn, type AssistantStatus, type MediaKind, type ChatSettings, type TokenUsage, type TurnDelta, type UserTurn } from './session';
import { cleanEffortLevel } from './effortLevel';
import {
  cleanErrorKind,
  cleanErrorMessage,
  cleanFinishReason,
  cleanModelId,
  cleanSettings,
  cleanTurnDelta,
  cleanTurnWith,
  cleanUsage,
  FINAL_STATUSES,
  type AssistantTurnWith,
} from './sessionData';
import { cleanActionTitles } from './errorActions';
import { cleanArray, cleanCount, cleanText, type Fields, isCount, isId, isNonEmptyText, isRecord, isText, type Cleaner } from './validate';
import { cleanWith, exactly, isRequestId, parseWith, replyShape, type Parsed, type ReplyMessage, type Shape as WebviewShape, type Shapes } from './webviewProtocol';
import { REPLIES, type ChatReply } from './chatReplies';
import { cleanWireMediaTurn, type WireMediaTurn } from './mediaTurn';
import { isPieceData, isStreamedAudioType, type StreamedAudioType } from './audioPieces';
import { cleanInstructionsState, INSTRUCTIONS_ACTIONS, INSTRUCTION_LIMITS, type InstructionsAction, type InstructionsState } from './instructions';

const MAX_EFFORT_LEVELS = 16;

export { CHAT_VIEW_TYPE } from './viewType';
export type { Parsed } from './webviewProtocol';
export { REPLIES, type ChatReplies, type ChatReply, type CompareReply, type OverflowReply, type SendReply } from './chatReplies';
export type { InstructionsState, PromptCommand } from './instructions';

export interface WireTurnError {
  message: string;
  kind: string;
  /** Titles of the actions; the webview answers with an `errorAction` giving the index. */
  actions: string[];
  /** Milliseconds until the gateway accepts another try (the webview counts down from when it receives this). */
  retryInMs?: number;
}

export type WireAssistantTurn = AssistantTurnWith<WireTurnError>;
/** A user turn as the webview sees it: its attachments as chips, never their content. */
export type WireUserTurn = Omit<UserTurn, 'attachments'> & { attachments?: AttachmentChip[] };
/** A newer version's turn as the webview sees it: only that it is one (its content stays in the host). */
export type WireNewerTurn = Omit<NewerTurn, 'stored'>;
export type WireTurn = WireUserTurn | WireAssistantTurn | WireMediaTurn | WireNewerTurn;
export type { WireMediaTurn };

/** Where the Add Context button (`menu`: the host asks) or a `#` completion takes context from. */
export type ContextSource = 'menu' | 'activeFile' | 'selection' | 'lines' | 'openEditors' | 'workspaceFile' | 'problems';
export const CONTEXT_SOURCES: readonly ContextSource[] = ['menu', 'activeFile', 'selection', 'lines', 'openEditors', 'workspaceFile', 'problems'];

/** The next message's attachments and what the request would cost against the model's context window. */
export interface ContextState {
  chips: AttachmentChip[];
  /** Estimated tokens besides the attachments and the draft: system prompt, conversation so far, reply reserve. */
  baseTokens: number;
  window: number;
  /** Whether the window is the model's own (from the model list) or the setting. */
  windowSource: 'model' | 'setting';
  /**
   * What the flat estimates (characters ÷ 4) are multiplied by for this model, learned from the tokens the gateway
   * reported for earlier requests; absent: 1 (not measured yet).
   */
  tokenScale?: number;
  /** Shown above the input until the context next changes (why a send was held back); '' for none. */
  warning: string;
  /** A message, Regenerate or Edit and resend held back because the chat does not fit; absent when nothing is held. */
  overflow?: HistoryOverflow;
}

/** What was held back because the chat no longer fits the model's context window, and the ways out there are. */
export interface HistoryOverflow {
  action: OverflowAction;
  /** How many of the oldest turns would not be sent so that the rest fits; 0 when the newest message alone is too large. */
  omittedTurns: number;
  /** Whether there are earlier turns a summary could stand for (Branch with a Summary). */
  canSummarize: boolean;
  /** Estimated tokens with every turn, and the window. */
  total: number;
  window: number;
}

export type OverflowAction = 'send' | 'regenerate' | 'edit';
const OVERFLOW_ACTIONS: readonly OverflowAction[] = ['send', 'regenerate', 'edit'];
/** The ways out of an overflow: send the newest turns that fit, branch a new chat from a summary, or neither. */
export type OverflowChoice = 'newest' | 'summary' | 'cancel';
const OVERFLOW_CHOICES: readonly OverflowChoice[] = ['newest', 'summary', 'cancel'];

export interface TurnFinish {
  turnId: string;
  status: Exclude<AssistantStatus, 'streaming'>;
  model: string;
  finishReason: string | null;
  usage: TokenUsage | null;
  /** How long the model reasoned (absent when it did not). */
  thoughtMs?: number;
  error?: WireTurnError;
}

export interface ModelsState {
  models: string[];
  loading: boolean;
  error?: string;
  /** The image, video and speech models listed, for the slash commands' per-chat choice. */
  media?: MediaModelLists;
  /** The reasoning effort levels each chat model offers (models without any are left out). */
  efforts?: Record<string, string[]>;
  /** Models that retire within 30 days, with the mark shown next to them ("retires 2026-12-01 (in 3 days)"). */
  retiring?: Record<string, string>;
}

export type MediaModelLists = Record<MediaKind, string[]>;
/** `interrupted`: the reply broke off (a dropped or stalled stream) after some text arrived; the text is kept. */
export type CompareStatus = 'streaming' | 'complete' | 'interrupted' | 'failed' | 'stopped';
const COMPARE_STATUSES: readonly CompareStatus[] = ['streaming', 'complete', 'interrupted', 'failed', 'stopped'];

/** One model's reply in a comparison. */
export interface CompareColumn {
  model: string;
  content: string;
  status: CompareStatus;
  /** Milliseconds from sending to the first text, and to the end. */
  firstTokenMs: number | null;
  totalMs: number | null;
  usage: TokenUsage | null;
  finishReason: string | null;
  /** Why it failed; '' otherwise. */
  error: string;
}

export interface CompareState {
  id: string;
  question: string;
  columns: CompareColumn[];
}

export type HostMessage =
  | { type: 'init'; sessionId: string; title: string; settings: ChatSettings; turns: WireTurn[]; models: ModelsState }
  | { type: 'turnAdded'; turn: WireTurn }
  /** A media turn changed (its job moved on, its result arrived): replaces the turn with that id. */
  | { type: 'turnUpdated'; turn: WireMediaTurn }
  /** A piece of a pending /speak turn's audio as it arrives (`at`: its first byte's offset), then its end. */
  | { type: 'mediaAudio'; turnId: string; contentType: StreamedAudioType; at: number; data: string }
  | { type: 'mediaAudioEnd'; turnId: string }
  | { type: 'turnDelta'; delta: TurnDelta }
  | { type: 'turnFinished'; finish: TurnFinish }
  /** The reply's request waits for the gateway's rate limit, `waitMs` more (null: it was sent). */
  /** `sendAnyway`: the wait is over a minute, and the user may send it now (the gateway answers for its limit). */
  | { type: 'turnWaiting'; turnId: string; waitMs: number | null; sendAnyway: boolean }
  | { type: 'turnsRemoved'; fromIndex: number }
  | { type: 'settings'; settings: ChatSettings }
  | { type: 'title'; title: string }
  | { type: 'models'; models: ModelsState }
  | { type: 'draft'; text: string }
  | { type: 'context'; context: ContextState }
  /** The comparison in progress (whole, a few times a second), or null when there is none. */
  | { type: 'compare'; compare: CompareState | null }
  /** The workspace's instruction files (the chip) and prompt files (slash commands), whenever they change. */
  | { type: 'instructions'; instructions: InstructionsState }
  /** The name of the profile the chat runs under, for its header; '' hides it (one profile, nothing to tell apart). */
  | { type: 'profile'; name: string }
  /** The answer to a request (`send`, `compare`, `resolveOverflow`): its typed reply, or an error. */
  | ReplyMessage<ChatReply>;

/** A /speak turn's audio as it arrives: a piece, or its end (from the hub, through the panel and bridge, to its card). */
export type MediaAudioMessage = Extract<HostMessage, { type: 'mediaAudio' | 'mediaAudioEnd' }>;

export type CodeActionKind = 'copy' | 'insert' | 'new-file';
/** What a media turn offers: make it again, save the kept file to the workspace, show its video job, check its link again. */
export type MediaActionKind = 'regenerate' | 'save' | 'reveal' | 'retry';
const MEDIA_ACTIONS: readonly string[] = ['regenerate', 'save', 'reveal', 'retry'];

export type WebviewMessage =
  | { type: 'ready' }
  /** A request: the host replies with a SendReply. */
  | { type: 'send'; requestId: number; text: string }
  /** A prompt file's text (with what was typed after its command): always a message, never read as a command. A request, as `send`. */
  | { type: 'sendPrompt'; requestId: number; text: string }
  | { type: 'stop' }
  /** Send the reply's request that waits for the gateway's rate limit now. */
  | { type: 'sendAnyway'; turnId: string }
  | { type: 'regenerate' }
  | { type: 'editResend'; turnId: string; text: string }
  | { type: 'updateSettings'; settings: ChatSettings }
  | { type: 'copyTurn'; turnId: string }
  | { type: 'codeAction'; action: CodeActionKind; code: string; lang: string }
  /** Apply a code block as a reviewed edit; `turnId` is the reply it is in ('' for a comparison's column). */
  | { type: 'applyCode'; turnId: string; code: string; lang: string }
  | { type: 'openLink'; href: string }
  | { type: 'errorAction'; turnId: string; index: number }
  | { type: 'exportSession' }
  | { type: 'refreshModels' }
  | { type: 'newChat' }
  /** The header's profile button: the host asks which profile this chat should run under. */
  | { type: 'changeProfile' }
  | { type: 'resync' }
  /** Speaks an assistant reply (the reply's "Read aloud"). */
  | { type: 'readAloud'; turnId: string }
  | { type: 'mediaAction'; turnId: string; action: MediaActionKind }
  | { type: 'addContext'; source: ContextSource }
  | { type: 'removeAttachment'; id: string }
  /** Cut the largest attachment so the message fits the context window. */
  | { type: 'trimContext' }
  /** Files dropped on the input (from the Explorer): their URIs. */
  | { type: 'dropUris'; uris: string[] }
  | { type: 'attachImage'; name: string; mimeType: ImageType; data: string }
  /** Ask 2 or 3 models the same question; no models: the host asks which. A request: the host replies with a CompareReply. */
  | { type: 'compare'; requestId: number; text: string; models: string[] }
  /** Keep one reply of the comparison in the thread. */
  | { type: 'keepCompare'; id: string; index: number }
  | { type: 'closeCompare' }
  /**
   * The user's way out of an overflow; `text` is what the input holds now (sent instead of the held text when not
   * empty). A request: the host replies with an OverflowReply.
   */
  | { type: 'resolveOverflow'; requestId: number; choice: OverflowChoice; text: string }
  /** The instructions chip: open the file at `index`, or turn the instructions on or off for this chat. */
  | { type: 'instructionsAction'; action: InstructionsAction; index: number }
  /** The webview refused a message from the host (the host logs why). */
  | { type: 'refused'; reason: string };

type Shape = WebviewShape;

/** The page's messages that need an answer (their replies: chatReplies.ts). */
export type ChatRequest = Extract<WebviewMessage, { requestId: number }>;
export type ChatReplyMessage = ReplyMessage<ChatReply>;

const nonEmpty = (max: number): Cleaner<string> => exactly((v): v is string => isNonEmptyText(v, max));
const text = (max: number): Cleaner<string> => (v) => cleanText(v, max);
const none: Shape = {};
const CODE_ACTIONS: readonly string[] = ['copy', 'insert', 'new-file'];

const WEBVIEW_SHAPES: Shapes<WebviewMessage> = {
  ready: none,
  send: { requestId: exactly(isRequestId), text: nonEmpty(LIMITS.text) },
  sendPrompt: { requestId: exactly(isRequestId), text: nonEmpty(LIMITS.text) },
  stop: none,
  sendAnyway: { turnId: exactly(isId) },
  regenerate: none,
  editResend: { turnId: exactly(isId), text: nonEmpty(LIMITS.text) },
  updateSettings: { settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined) },
  copyTurn: { turnId: exactly(isId) },
  codeAction: { action: exactly((v): v is CodeActionKind => typeof v === 'string' && CODE_ACTIONS.includes(v)), code: text(LIMITS.storedText), lang: exactly((v): v is string => isText(v, 100)) },
  applyCode: { turnId: exactly((v): v is string => v === '' || isId(v)), code: nonEmpty(LIMITS.storedText), lang: exactly((v): v is string => isText(v, 100)) },
  openLink: { href: nonEmpty(8192) },
  errorAction: { turnId: exactly(isId), index: exactly((v): v is number => isCount(v) && v < LIMITS.actions) },
  exportSession: none,
  refreshModels: none,
  newChat: none,
  changeProfile: none,
  resync: none,
  readAloud: { turnId: exactly(isId) },
  mediaAction: { turnId: exactly(isId), action: exactly((v): v is MediaActionKind => typeof v === 'string' && MEDIA_ACTIONS.includes(v)) },
  addContext: { source: exactly((v): v is ContextSource => CONTEXT_SOURCES.includes(v as ContextSource)) },
  removeAttachment: { id: exactly(isId) },
  trimContext: none,
  dropUris: { uris: exactly((v): v is string[] => Array.isArray(v) && v.length > 0 && v.length <= ATTACHMENT_LIMITS.perTurn && v.every((u) => isNonEmptyText(u, 8192))) },
  attachImage: { name: text(ATTACHMENT_LIMITS.imageName), mimeType: exactly(isImageType), data: exactly(isImageData) },
  compare: { requestId: exactly(isRequestId), text: nonEmpty(LIMITS.text), models: exactly((v): v is string[] => Array.isArray(v) && v.length <= 3 && v.every((m) => isNonEmptyText(m, LIMITS.model))) },
  keepCompare: { id: exactly(isId), index: exactly((v): v is number => isCount(v) && v < 3) },
  closeCompare: none,
  resolveOverflow: { requestId: exactly(isRequestId), choice: exactly((v): v is OverflowChoice => OVERFLOW_CHOICES.includes(v as OverflowChoice)), text: text(LIMITS.text) },
  instructionsAction: { action: exactly((v): v is InstructionsAction => INSTRUCTIONS_ACTIONS.includes(v as InstructionsAction)), index: exactly((v): v is number => isCount(v) && v < INSTRUCTION_LIMITS.files) },
  refused: { reason: text(500) },
};

export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith<WebviewMessage>(raw, WEBVIEW_SHAPES);
}

// ---- host → webview ---------------------------------------------------------------------------------------

function cleanWireError(value: unknown): WireTurnError | undefined {
  if (!isRecord(value)) return undefined;
  const error: WireTurnError = {
    message: cleanErrorMessage(value.message),
    kind: cleanErrorKind(value.kind),
    actions: cleanActionTitles(value.actions),
  };
  const retryInMs = cleanCount(value.retryInMs);
  if (retryInMs !== undefined) error.retryInMs = retryInMs;
  return error;
}

function cleanWireNewerTurn(value: Fields): WireNewerTurn | undefined {
  const kind = cleanText(value.kind, 100);
  return isId(value.id) && kind !== undefined ? { id: value.id, role: 'newer', createdAt: cleanCount(value.createdAt) ?? 0, kind, content: '' } : undefined;
}

function cleanWireTurn(value: unknown): WireTurn | undefined {
  if (isRecord(value) && value.role === 'media') return cleanWireMediaTurn(value);
  if (isRecord(value) && value.role === 'newer') return cleanWireNewerTurn(value);
  if (!isRecord(value) || value.role !== 'user') return cleanTurnWith(value, cleanWireError) as WireAssistantTurn | undefined;
  const turn = cleanTurnWith({ ...value, attachments: undefined }, cleanWireError) as WireUserTurn | undefined;
  const chips = cleanChips(value.attachments);
  return turn && chips.length > 0 ? { ...turn, attachments: chips } : turn;
}

function cleanContextState(value: unknown): ContextState | undefined {
  if (!isRecord(value)) return undefined;
  const overflow = cleanOverflow(value.overflow);
  return {
    chips: cleanChips(value.chips),
    baseTokens: cleanCount(value.baseTokens) ?? 0,
    window: Math.max(1, cleanCount(value.window) ?? 1),
    windowSource: value.windowSource === 'model' ? 'model' : 'setting',
    ...(typeof value.tokenScale === 'number' && value.tokenScale >= 0.1 && value.tokenScale <= 10 && { tokenScale: value.tokenScale }),
    warning: cleanText(value.warning, LIMITS.errorMessage) ?? '',
    ...(overflow && { overflow }),
  };
}

function cleanOverflow(value: unknown): HistoryOverflow | undefined {
  if (!isRecord(value) || !OVERFLOW_ACTIONS.includes(value.action as OverflowAction)) return undefined;
  return {
    action: value.action as OverflowAction,
    omittedTurns: Math.min(cleanCount(value.omittedTurns) ?? 0, LIMITS.turns),
    canSummarize: value.canSummarize === true,
    total: cleanCount(value.total) ?? 0,
    window: Math.max(1, cleanCount(value.window) ?? 1),
  };
}

function cleanTurnFinish(value: unknown): TurnFinish | undefined {
  if (!isRecord(value) || !isId(value.turnId) || !FINAL_STATUSES.includes(value.status as AssistantStatus)) return undefined;
  const finish: TurnFinish = {
    turnId: value.turnId,
    status: value.status as TurnFinish['status'],
    model: cleanModelId(value.model),
    finishReason: cleanFinishReason(value.finishReason),
    usage: cleanUsage(value.usage),
  };
  const error = value.error === undefined ? undefined : cleanWireError(value.error);
  if (error) finish.error = error;
  const thoughtMs = cleanCount(value.thoughtMs);
  if (thoughtMs !== undefined) finish.thoughtMs = thoughtMs;
  return finish;
}

/** The model ids the picker can offer: at most LIMITS.models, each listed once. Ids are never clipped (a clipped id
 * names another model): over-long ones are left out. */
export function listableModels(ids: unknown): string[] {
  const seen = new Set<string>();
  return cleanArray(ids, LIMITS.models, (id) => (isNonEmptyText(id, LIMITS.model) && !seen.has(id) && seen.add(id) ? id : undefined));
}

function cleanModelsState(value: unknown): ModelsState | undefined {
  if (!isRecord(value)) return undefined;
  const state: ModelsState = { models: listableModels(value.models), loading: value.loading === true };
  const error = cleanText(value.error, LIMITS.errorMessage);
  if (error !== undefined) state.error = error;
  if (isRecord(value.media)) state.media = { image: listableModels(value.media.image), video: listableModels(value.media.video), speech: listableModels(value.media.speech) };
  const efforts = cleanEfforts(value.efforts, state.models);
  if (efforts !== undefined) state.efforts = efforts;
  const retiring = cleanRetiring(value.retiring, [...state.models, ...(state.media ? [...state.media.image, ...state.media.video, ...state.media.speech] : [])]);
  if (retiring !== undefined) state.retiring = retiring;
  return state;
}

/** Marks for listed models only, each short text. */
function cleanRetiring(value: unknown, models: readonly string[]): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const model of models) {
    const mark = Object.prototype.hasOwnProperty.call(value, model) ? cleanText(value[model], 80) : undefined;
    if (mark) out[model] = mark;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Levels for listed models only, each a short word, at most MAX_EFFORT_LEVELS a model. */
function cleanEfforts(value: unknown, models: readonly string[]): Record<string, string[]> | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const model of models) {
    const levels = Object.prototype.hasOwnProperty.call(value, model) ? cleanArray(value[model], MAX_EFFORT_LEVELS, cleanEffortLevel) : [];
    if (levels.length > 0) out[model] = levels;
  }
  return out;
}

function cleanCompareColumn(value: unknown): CompareColumn | undefined {
  if (!isRecord(value)) return undefined;
  const ms = (v: unknown) => cleanCount(v) ?? null;
  return {
    model: cleanModelId(value.model),
    content: cleanText(value.content, LIMITS.storedText) ?? '',
    status: COMPARE_STATUSES.includes(value.status as CompareStatus) ? (value.status as CompareStatus) : 'failed',
    firstTokenMs: ms(value.firstTokenMs),
    totalMs: ms(value.totalMs),
    usage: cleanUsage(value.usage),
    finishReason: cleanFinishReason(value.finishReason),
    error: cleanText(value.error, LIMITS.errorMessage) ?? '',
  };
}

function cleanCompareState(value: unknown): CompareState | null | undefined {
  if (value === null) return null;
  if (!isRecord(value) || !isId(value.id)) return undefined;
  return { id: value.id, question: cleanText(value.question, LIMITS.text) ?? '', columns: cleanArray(value.columns, 3, cleanCompareColumn) };
}

const HOST_SHAPES: Shapes<HostMessage> = {
  init: {
    sessionId: exactly(isId),
    title: text(LIMITS.title),
    settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined),
    turns: (v) => (Array.isArray(v) ? cleanArray(v, LIMITS.turns, cleanWireTurn) : undefined),
    models: cleanModelsState,
  },
  turnAdded: { turn: cleanWireTurn },
  turnUpdated: { turn: cleanWireMediaTurn },
  mediaAudio: { turnId: exactly(isId), contentType: exactly(isStreamedAudioType), at: exactly(isCount), data: exactly(isPieceData) },
  mediaAudioEnd: { turnId: exactly(isId) },
  turnDelta: { delta: cleanTurnDelta },
  turnFinished: { finish: cleanTurnFinish },
  turnWaiting: { turnId: exactly(isId), waitMs: (v) => (v === null ? null : cleanCount(v)), sendAnyway: exactly((v): v is boolean => typeof v === 'boolean') },
  turnsRemoved: { fromIndex: exactly(isCount) },
  settings: { settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined) },
  title: { title: text(LIMITS.title) },
  models: { models: cleanModelsState },
  draft: { text: text(LIMITS.storedText) },
  context: { context: cleanContextState },
  compare: { compare: cleanCompareState },
  instructions: { instructions: cleanInstructionsState },
  profile: { name: text(100) },
  reply: replyShape(REPLIES),
};

/** The chat's protocol, as the host's end of it checks it (webviewProtocol.ts). */
export const CHAT_SHAPES = { page: WEBVIEW_SHAPES, host: HOST_SHAPES };

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith<HostMessage>(raw, HOST_SHAPES);
}

/** What the host sends: the message trimmed to what the webview accepts, or undefined when nothing usable is left. */
export function cleanHostMessage(message: HostMessage): HostMessage | undefined {
  return cleanWith<HostMessage>(message, HOST_SHAPES);
}
