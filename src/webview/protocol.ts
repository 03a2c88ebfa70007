// The one message protocol between the chat panel's host side and its webview, with the checks each side runs on
// what it receives. Anything that does not match exactly is dropped (and logged) by the receiver.
//
// The webview is sent the transcript once (`init`), then only changes: new turns, text deltas, final states.
// It never holds the API key or a command id: error actions are referred to by their position.
import {
  isChatSettings,
  isTurnDelta,
  LIMITS,
  type AssistantStatus,
  type AssistantTurn,
  type ChatSettings,
  type TokenUsage,
  type TurnDelta,
  type UserTurn,
} from '../chat/model';
import { hasOnlyKeys, isArrayOf, isCount, isId, isNonEmptyText, isRecord, isText, type Fields } from '../chat/validate';

export const CHAT_VIEW_TYPE = 'modelGateway.chat';

export interface WireTurnError {
  message: string;
  kind: string;
  /** Titles of the actions; the webview answers with an `errorAction` giving the index. */
  actions: string[];
  /** Milliseconds until the gateway accepts another try (the webview counts down from when it receives this). */
  retryInMs?: number;
}

export type WireAssistantTurn = Omit<AssistantTurn, 'error'> & { error?: WireTurnError };
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
  | { type: 'resync' };

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

type Shape = Record<string, (value: unknown) => boolean>;

function parseWith<T>(raw: unknown, shapes: Record<string, Shape>): Parsed<T> {
  if (!isRecord(raw)) return { ok: false, reason: 'not an object' };
  const type = raw.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, type)) return { ok: false, reason: `unknown type ${JSON.stringify(type)?.slice(0, 60)}` };
  const shape = shapes[type];
  const keys = ['type', ...Object.keys(shape)];
  if (!hasOnlyKeys(raw, keys)) return { ok: false, reason: `${type}: unexpected field` };
  for (const [field, check] of Object.entries(shape)) {
    if (!check(raw[field])) return { ok: false, reason: `${type}: bad ${field}` };
  }
  return { ok: true, message: raw as T };
}

const text = (value: unknown) => isText(value, LIMITS.storedText);
const CODE_ACTIONS: readonly string[] = ['copy', 'insert', 'new-file'];

const WEBVIEW_SHAPES: Record<WebviewMessage['type'], Shape> = {
  ready: {},
  send: { text: (v) => isNonEmptyText(v, LIMITS.text) },
  stop: {},
  regenerate: {},
  editResend: { turnId: isId, text: (v) => isNonEmptyText(v, LIMITS.text) },
  updateSettings: { settings: isChatSettings },
  copyTurn: { turnId: isId },
  codeAction: { action: (v) => typeof v === 'string' && CODE_ACTIONS.includes(v), code: text, lang: (v) => isText(v, 100) },
  openLink: { href: (v) => isNonEmptyText(v, 8192) },
  errorAction: { turnId: isId, index: (v) => isCount(v) && v < LIMITS.actions },
  exportSession: {},
  refreshModels: {},
  newChat: {},
  resync: {},
};

export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  return parseWith<WebviewMessage>(raw, WEBVIEW_SHAPES);
}

// ---- host → webview ---------------------------------------------------------------------------------------

function isWireError(value: unknown): value is WireTurnError {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['message', 'kind', 'actions', 'retryInMs']) &&
    isText(value.message, 10_000) &&
    isText(value.kind, 50) &&
    isArrayOf(value.actions, LIMITS.actions, (a): a is string => isText(a, 200)) &&
    (value.retryInMs === undefined || isCount(value.retryInMs))
  );
}

function isUsage(value: unknown): boolean {
  return value === null || (isRecord(value) && hasOnlyKeys(value, ['prompt', 'completion', 'total']) && isCount(value.prompt) && isCount(value.completion) && isCount(value.total));
}

const FINAL_STATUSES: readonly string[] = ['complete', 'stopped', 'interrupted', 'failed'];

function isWireAssistantFields(value: Fields): boolean {
  return (
    hasOnlyKeys(value, ['id', 'role', 'createdAt', 'model', 'content', 'reasoning', 'refusal', 'toolCalls', 'status', 'finishReason', 'usage', 'error']) &&
    isId(value.id) &&
    isCount(value.createdAt) &&
    isText(value.model, LIMITS.model) &&
    text(value.content) &&
    text(value.reasoning) &&
    text(value.refusal) &&
    isArrayOf(
      value.toolCalls,
      LIMITS.toolCalls,
      (c): c is unknown => isRecord(c) && hasOnlyKeys(c, ['id', 'name', 'arguments']) && isText(c.id, 200) && isText(c.name, 200) && text(c.arguments),
    ) &&
    (value.status === 'streaming' || FINAL_STATUSES.includes(value.status as string)) &&
    (value.finishReason === null || isText(value.finishReason, 100)) &&
    isUsage(value.usage) &&
    (value.error === undefined || isWireError(value.error))
  );
}

export function isWireTurn(value: unknown): value is WireTurn {
  if (!isRecord(value)) return false;
  if (value.role === 'user') return hasOnlyKeys(value, ['id', 'role', 'createdAt', 'content']) && isId(value.id) && isCount(value.createdAt) && text(value.content);
  if (value.role === 'assistant') return isWireAssistantFields(value);
  return false;
}

function isTurnFinish(value: unknown): value is TurnFinish {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['turnId', 'status', 'model', 'finishReason', 'usage', 'error']) &&
    isId(value.turnId) &&
    FINAL_STATUSES.includes(value.status as string) &&
    isText(value.model, LIMITS.model) &&
    (value.finishReason === null || isText(value.finishReason, 100)) &&
    isUsage(value.usage) &&
    (value.error === undefined || isWireError(value.error))
  );
}

function isModelsState(value: unknown): value is ModelsState {
  return (
    isRecord(value) &&
    hasOnlyKeys(value, ['models', 'loading', 'error']) &&
    isArrayOf(value.models, 1000, (m): m is string => isNonEmptyText(m, LIMITS.model)) &&
    typeof value.loading === 'boolean' &&
    (value.error === undefined || isText(value.error, 10_000))
  );
}

const HOST_SHAPES: Record<HostMessage['type'], Shape> = {
  init: {
    sessionId: isId,
    title: (v) => isText(v, LIMITS.title),
    settings: isChatSettings,
    turns: (v) => isArrayOf(v, LIMITS.turns, isWireTurn),
    models: isModelsState,
  },
  turnAdded: { turn: isWireTurn },
  turnDelta: { delta: isTurnDelta },
  turnFinished: { finish: isTurnFinish },
  turnsRemoved: { fromIndex: isCount },
  settings: { settings: isChatSettings },
  title: { title: (v) => isText(v, LIMITS.title) },
  models: { models: isModelsState },
  draft: { text },
};

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith<HostMessage>(raw, HOST_SHAPES);
}
