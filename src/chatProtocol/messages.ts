// The one message protocol between the chat panel's host side and its webview, with the checks each side runs on
// what it receives. Anything that does not match exactly is dropped (and logged) by the receiver; the host also
// trims what it sends to what the webview accepts (`cleanHostMessage`), so one odd field never blanks a chat.
//
// The webview is sent the transcript once (`init`), then only changes: new turns, text deltas, final states.
// It never holds the API key or a command id: error actions are referred to by their position.
import { LIMITS, type AssistantStatus, type ChatSettings, type TokenUsage, type TurnDelta, type UserTurn } from './session';
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
import { cleanArray, cleanCount, cleanText, conforms, hasOnlyKeys, isCount, isId, isNonEmptyText, isRecord, isText, type Cleaner } from './validate';

export const CHAT_VIEW_TYPE = 'modelGateway.chat';

export interface WireTurnError {
  message: string;
  kind: string;
  /** Titles of the actions; the webview answers with an `errorAction` giving the index. */
  actions: string[];
  /** Milliseconds until the gateway accepts another try (the webview counts down from when it receives this). */
  retryInMs?: number;
}

export type WireAssistantTurn = AssistantTurnWith<WireTurnError>;
export type WireTurn = UserTurn | WireAssistantTurn;

export interface TurnFinish {
  turnId: string;
  status: Exclude<AssistantStatus, 'streaming'>;
  model: string;
  finishReason: string | null;
  usage: TokenUsage | null;
  error?: WireTurnError;
}

export interface ModelsState {
  models: string[];
  loading: boolean;
  error?: string;
}

export type HostMessage =
  | { type: 'init'; sessionId: string; title: string; settings: ChatSettings; turns: WireTurn[]; models: ModelsState }
  | { type: 'turnAdded'; turn: WireTurn }
  | { type: 'turnDelta'; delta: TurnDelta }
  | { type: 'turnFinished'; finish: TurnFinish }
  | { type: 'turnsRemoved'; fromIndex: number }
  | { type: 'settings'; settings: ChatSettings }
  | { type: 'title'; title: string }
  | { type: 'models'; models: ModelsState }
  | { type: 'draft'; text: string };

export type CodeActionKind = 'copy' | 'insert' | 'new-file';

export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'send'; text: string }
  | { type: 'stop' }
  | { type: 'regenerate' }
  | { type: 'editResend'; turnId: string; text: string }
  | { type: 'updateSettings'; settings: ChatSettings }
  | { type: 'copyTurn'; turnId: string }
  | { type: 'codeAction'; action: CodeActionKind; code: string; lang: string }
  | { type: 'openLink'; href: string }
  | { type: 'errorAction'; turnId: string; index: number }
  | { type: 'exportSession' }
  | { type: 'refreshModels' }
  | { type: 'newChat' }
  | { type: 'resync' }
  /** The webview refused a message from the host (the host logs why). */
  | { type: 'refused'; reason: string };

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

type Shape = Record<string, Cleaner<unknown>>;

/** Strict: the message exactly as the protocol allows, else why not. */
function parseWith<T>(raw: unknown, shapes: Record<string, Shape>): Parsed<T> {
  if (!isRecord(raw)) return { ok: false, reason: 'not an object' };
  const type = raw.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, type)) return { ok: false, reason: `unknown type ${JSON.stringify(type)?.slice(0, 60)}` };
  const shape = shapes[type];
  if (!hasOnlyKeys(raw, ['type', ...Object.keys(shape)])) return { ok: false, reason: `${type}: unexpected field` };
  for (const [field, clean] of Object.entries(shape)) {
    if (!conforms(raw[field], clean)) return { ok: false, reason: `${type}: bad ${field}` };
  }
  return { ok: true, message: raw as T };
}

/** Lenient: the message cut down to what the protocol allows, or undefined when a field has nothing usable. */
function cleanWith<T>(message: { type: string }, shapes: Record<string, Shape>): T | undefined {
  const shape = shapes[message.type];
  const fields = message as unknown as Record<string, unknown>;
  const cleaned: Record<string, unknown> = { type: message.type };
  for (const [field, clean] of Object.entries(shape)) {
    const value = clean(fields[field]);
    if (value === undefined) return undefined;
    cleaned[field] = value;
  }
  return cleaned as T;
}

function exactly<T>(check: (value: unknown) => value is T): Cleaner<T> {
  return (value) => (check(value) ? value : undefined);
}

const nonEmpty = (max: number): Cleaner<string> => exactly((v): v is string => isNonEmptyText(v, max));
const text = (max: number): Cleaner<string> => (v) => cleanText(v, max);
const none: Shape = {};
const CODE_ACTIONS: readonly string[] = ['copy', 'insert', 'new-file'];

const WEBVIEW_SHAPES: Record<WebviewMessage['type'], Shape> = {
  ready: none,
  send: { text: nonEmpty(LIMITS.text) },
  stop: none,
  regenerate: none,
  editResend: { turnId: exactly(isId), text: nonEmpty(LIMITS.text) },
  updateSettings: { settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined) },
  copyTurn: { turnId: exactly(isId) },
  codeAction: { action: exactly((v): v is CodeActionKind => typeof v === 'string' && CODE_ACTIONS.includes(v)), code: text(LIMITS.storedText), lang: exactly((v): v is string => isText(v, 100)) },
  openLink: { href: nonEmpty(8192) },
  errorAction: { turnId: exactly(isId), index: exactly((v): v is number => isCount(v) && v < LIMITS.actions) },
  exportSession: none,
  refreshModels: none,
  newChat: none,
  resync: none,
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
    actions: cleanArray(value.actions, LIMITS.actions, (a) => cleanText(a, LIMITS.actionTitle)),
  };
  const retryInMs = cleanCount(value.retryInMs);
  if (retryInMs !== undefined) error.retryInMs = retryInMs;
  return error;
}

function cleanWireTurn(value: unknown): WireTurn | undefined {
  return cleanTurnWith(value, cleanWireError);
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
  return state;
}

const HOST_SHAPES: Record<HostMessage['type'], Shape> = {
  init: {
    sessionId: exactly(isId),
    title: text(LIMITS.title),
    settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined),
    turns: (v) => (Array.isArray(v) ? cleanArray(v, LIMITS.turns, cleanWireTurn) : undefined),
    models: cleanModelsState,
  },
  turnAdded: { turn: cleanWireTurn },
  turnDelta: { delta: cleanTurnDelta },
  turnFinished: { finish: cleanTurnFinish },
  turnsRemoved: { fromIndex: exactly(isCount) },
  settings: { settings: (v) => (isRecord(v) ? cleanSettings(v) : undefined) },
  title: { title: text(LIMITS.title) },
  models: { models: cleanModelsState },
  draft: { text: text(LIMITS.storedText) },
};

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith<HostMessage>(raw, HOST_SHAPES);
}

/** What the host sends: the message trimmed to what the webview accepts, or undefined when nothing usable is left. */
export function cleanHostMessage(message: HostMessage): HostMessage | undefined {
  return cleanWith<HostMessage>(message, HOST_SHAPES);
}
