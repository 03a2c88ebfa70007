// The /image, /video and /speak turns as data: the one normaliser for a stored media turn (session files, and what
// the hub builds from gateway answers) and for the form the webview is sent. Pure and browser-safe.
import { LIMITS, type MediaKind, type MediaModels, type MediaState, type MediaTurn } from './session';
import { cleanCount, cleanText, isId, isRecord, type Fields } from './validate';
import { cleanActionTitles, cleanErrorActions } from './errorActions';

export const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video', 'speech'];
const MEDIA_STATES: readonly MediaState[] = ['pending', 'complete', 'failed'];
/** Media history entry ids and file names, as the Media history makes them (`m…`, `m…-n.ext`). */
const ENTRY_ID = /^m[a-z0-9]{6,40}$/;
const FILE_NAME = /^m[a-z0-9]{6,40}-\d{1,2}\.[a-z0-9]{2,5}$/;
/** Image, audio and video types only: the webview picks the element from it. */
const CONTENT_TYPE = /^(image|audio|video)\/[a-z0-9.+-]{1,60}$/;

/** What the webview is sent for a media turn: where to load it from, never a file path. */
export type WireMediaTurn = Omit<MediaTurn, 'entryId' | 'fileName' | 'jobKey' | 'actions'> & {
  /** A failed turn's advice, as buttons: their titles only (a click names the index; the host holds the commands). */
  actions?: string[];
  /** The kept copy (under the webview's resource root) or where the gateway's link leads; http(s) or data: only. */
  src?: string;
  /**
   * A complete turn without a source: the extension is checking the gateway's link, found it gone ("expired", with
   * Regenerate), or could not reach it (Retry). Absent with no source: nothing to show (no link, no copy).
   */
  linkState?: LinkState;
  /** What the check found, in words. */
  linkProblem?: string;
};

export type LinkState = 'checking' | 'expired' | 'unreachable';
const LINK_STATES: readonly string[] = ['checking', 'expired', 'unreachable'];

export function isMediaKind(value: unknown): value is MediaKind {
  return typeof value === 'string' && (MEDIA_KINDS as readonly string[]).includes(value);
}

/**
 * An http(s) link without credentials (util/externalUrl's rule, which the host also applies before opening; the
 * protocol imports only its own files, so the webview bundle stays small), as received; anything else is dropped.
 */
export function cleanMediaUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > LIMITS.url) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Where a media element may load from: an http(s) link (the CSP decides which origins), or a data: image/audio. */
export function cleanMediaSrc(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > LIMITS.url) return undefined;
  if (/^data:(image\/(png|jpeg|webp|gif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+);base64,[A-Za-z0-9+/=]*$/.test(value)) return value;
  return cleanMediaUrl(value);
}

function cleanContentType(value: unknown): string | undefined {
  return typeof value === 'string' && CONTENT_TYPE.test(value) ? value : undefined;
}

function commonFields(value: Fields): Omit<MediaTurn, 'entryId' | 'fileName' | 'jobKey' | 'url' | 'contentType' | 'detail' | 'actions'> | undefined {
  if (!isId(value.id) || !isMediaKind(value.kind)) return undefined;
  return {
    id: value.id,
    role: 'media',
    createdAt: cleanCount(value.createdAt) ?? 0,
    kind: value.kind,
    content: cleanText(value.content, LIMITS.text) ?? '',
    prompt: cleanText(value.prompt, LIMITS.mediaPrompt) ?? '',
    model: cleanText(value.model, LIMITS.model) ?? '',
    // A turn whose state is unknown was cut off while pending: it shows as failed, with Regenerate.
    state: MEDIA_STATES.includes(value.state as MediaState) ? (value.state as MediaState) : 'failed',
  };
}

function withOptional<T extends object>(turn: T, fields: Partial<Record<string, string | undefined>>): T {
  for (const [name, v] of Object.entries(fields)) if (v !== undefined) (turn as Record<string, unknown>)[name] = v;
  return turn;
}

/** A stored media turn with every field usable, or undefined when it is not one. */
export function cleanMediaTurn(value: unknown): MediaTurn | undefined {
  if (!isRecord(value) || value.role !== 'media') return undefined;
  const turn = commonFields(value);
  if (!turn) return undefined;
  const cleaned = withOptional<MediaTurn>(turn, {
    entryId: typeof value.entryId === 'string' && ENTRY_ID.test(value.entryId) ? value.entryId : undefined,
    fileName: typeof value.fileName === 'string' && FILE_NAME.test(value.fileName) ? value.fileName : undefined,
    jobKey: isId(value.jobKey) ? value.jobKey : undefined,
    url: cleanMediaUrl(value.url),
    contentType: cleanContentType(value.contentType),
    detail: cleanText(value.detail, LIMITS.mediaDetail) || undefined,
  });
  return withActions(cleaned, turn.state === 'failed' ? cleanErrorActions(value.actions) : []);
}

/** A failed turn's actions, kept only when there are some (a turn without any has no field). */
function withActions<T extends { actions?: unknown[] }>(turn: T, actions: NonNullable<T['actions']>): T {
  if (actions.length > 0) turn.actions = actions;
  return turn;
}

/** What the webview is sent of a turn's actions: a failed turn's titles, or nothing. */
export function actionTitles(state: MediaState, actions: MediaTurn['actions']): string[] | undefined {
  return state === 'failed' && actions && actions.length > 0 ? actions.map((a) => a.title) : undefined;
}

/** The webview's form of a media turn, cut to what it accepts. */
export function cleanWireMediaTurn(value: unknown): WireMediaTurn | undefined {
  if (!isRecord(value) || value.role !== 'media') return undefined;
  const turn = commonFields(value);
  if (!turn) return undefined;
  const cleaned = withOptional<WireMediaTurn>(turn, {
    detail: cleanText(value.detail, LIMITS.mediaDetail) || undefined,
    src: cleanMediaSrc(value.src),
    contentType: cleanContentType(value.contentType),
    url: cleanMediaUrl(value.url),
    linkState: typeof value.linkState === 'string' && LINK_STATES.includes(value.linkState) ? value.linkState : undefined,
    linkProblem: cleanText(value.linkProblem, LIMITS.mediaDetail) || undefined,
  });
  return withActions(cleaned, turn.state === 'failed' ? cleanActionTitles(value.actions) : []);
}

/** Per-chat media models; what is missing or malformed is '' (the configured one, else the first listed). */
export function cleanMediaModels(value: unknown): MediaModels {
  const fields: Fields = isRecord(value) ? value : {};
  const model = (v: unknown) => cleanText(v, LIMITS.model) ?? '';
  return { image: model(fields.image), video: model(fields.video), speech: model(fields.speech) };
}
