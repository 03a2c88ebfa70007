// Turns any failure into words a person can act on, with the actions that move them forward. Every feature
// shows errors through this, so a 401 reads the same in the chat panel, the video tree and a notification.
import type { MissingAccess } from '../../gateway/connection';
import { failureKind, readError, type FailureKind } from '../../gateway/errors';
import { lazy } from '../../util/lazy';
import type { AdviceAction } from './adviceTypes';
import { SHARED_COMMANDS } from './commandIds';

// The wording of budget, credits and moderation refusals loads with the first one.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const refusals = lazy(() => require('./refusalAdvice') as typeof import('./refusalAdvice'));

export type { AdviceAction } from './adviceTypes';

export interface ErrorAdvice {
  message: string;
  actions: AdviceAction[];
  /** When the gateway asked us to wait; the UI shows a countdown to it. */
  retryAt?: number;
  /** The failure's kind in the one vocabulary (gateway/errors.ts's FailureKind). */
  kind: FailureKind;
}


export const SET_API_KEY: AdviceAction = { title: 'Set API Key', command: SHARED_COMMANDS.setApiKey };
export const TEST_CONNECTION: AdviceAction = { title: 'Test Connection', command: SHARED_COMMANDS.testConnection };
export const OPEN_LOGS: AdviceAction = { title: 'Open Logs', command: SHARED_COMMANDS.openLogs };
export const SET_BASE_URL: AdviceAction = { title: 'Set Gateway URL', command: SHARED_COMMANDS.setBaseUrl };
export const REPLACE_API_KEY: AdviceAction = { title: 'Replace API Key', command: SHARED_COMMANDS.rotateApiKey };
/** A chat under a deleted profile moves to another one (the focused chat: the one whose button was pressed). */
export const CHANGE_CHAT_PROFILE: AdviceAction = { title: 'Change Chat Profile…', command: SHARED_COMMANDS.changeChatProfile };
export const LIST_MODELS: AdviceAction = { title: 'List Models', command: SHARED_COMMANDS.listModels };
/** Only generated images and audio have a size limit the user sets. */
export const OPEN_MEDIA_LIMIT_SETTING: AdviceAction = { title: 'Change the Limit', command: 'workbench.action.openSettings', args: ['modelGateway.media.maxSizeMB'] };

function withPeriod(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

export interface AdviceContext {
  origin?: string;
  /** The name of the profile the request went with: a budget or credits refusal says whose it was. */
  profile?: string;
  model?: string;
  now?: number;
  /** Whether the caller retries by itself once a rate limit ends (polling does; a chat waits for the user). */
  retriesAutomatically?: boolean;
  /** What a paid request makes ("the image"): said when the answer was lost after the gateway may have made it. */
  paidFor?: string;
  /** What the failure stopped ("Video status checks"): the message starts by saying it is paused. */
  paused?: string;
}

/** The one rule that names a failure lives with the failures (gateway/errors.ts); features read it from here too. */
export { failureKind, type FailureKind };

/**
 * Whether a failure is the user (or the code on their behalf) stopping the work: an aborted signal, a request
 * stopped, VS Code's CancellationError. Nothing is said about one.
 */
export function isCancellation(error: unknown): boolean {
  if (failureKind(error) === 'aborted') return true;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return name === 'AbortError' || name === 'Canceled';
}

/**
 * A failure that carries its advice as data (kind, message, actions), never flattened into its message: whoever
 * catches it (a port's caller, the chat card, the command guard) shows the same words with the same buttons.
 */
export class AdvisedError extends Error {
  override readonly name = 'AdvisedError';
  constructor(
    readonly advice: ErrorAdvice,
    options?: { cause?: unknown },
  ) {
    super(advice.message, options);
  }
}

export function adviceFor(error: unknown, context: AdviceContext = {}): ErrorAdvice {
  // Worded already (by a port that knew more about it): its advice travels as it is.
  if (error instanceof AdvisedError) return { ...error.advice, actions: [...error.advice.actions] };
  const refusal = parameterRefusal(error);
  if (refusal) return { kind: 'other', message: refusalText(refusal), actions: [] };
  const advice = wordFailure(error, context);
  if (context.paidFor && readError(error).outcomeUnknown) {
    advice.message = `The request reached the gateway, which may have made (and charged for) ${context.paidFor}, but the answer was lost. ${advice.message}`;
  }
  if (context.paused) {
    advice.message = `${context.paused} are paused. ${advice.message}`;
    // Paused for a key: the way to resume is a key, whichever refusal it was.
    if ((advice.kind === 'auth' || advice.kind === 'forbidden') && !advice.actions.some((a) => a.command === SET_API_KEY.command || a.command === REPLACE_API_KEY.command)) advice.actions.unshift(SET_API_KEY);
  }
  return advice;
}

function wordFailure(error: unknown, context: AdviceContext): ErrorAdvice {
  const e = readError(error);
  const where = context.origin ?? 'the gateway';
  const server = e.message ? withPeriod(e.message) : '';
  const ref = e.requestId ? ` (request ${e.requestId})` : '';
  const now = context.now ?? Date.now();
  const kind = failureKind(error);
  switch (kind) {
    case 'auth':
      return { kind, message: `API key missing or invalid for ${where}. ${server}${ref}`.trim(), actions: [SET_API_KEY] };
    case 'forbidden': {
      const subject = context.model ? `no access to model ${context.model}` : 'no access to this resource';
      return { kind, message: `Key disabled or ${subject}. ${server}${ref}`.trim(), actions: [REPLACE_API_KEY, LIST_MODELS] };
    }
    case 'rate_limit': {
      const seconds = Math.max(1, Math.ceil((e.retryAfterMs ?? 0) / 1000));
      const when = context.retriesAutomatically ? `retrying in ${seconds} s` : `try again in ${seconds} s`;
      return { kind, message: `Rate limited by ${where}, ${when}. ${server}`.trim(), actions: [], retryAt: now + (e.retryAfterMs ?? 0) };
    }
    case 'budget':
    case 'credits':
    case 'moderation':
      // What no wait cures, worded where it loads with the first such refusal (not at activation).
      return { kind, ...refusals().refusalAdvice(kind, error, { where: context.profile ?? where, origin: context.origin, server, ref }) };
    case 'aborted':
      return { kind, message: 'Stopped.', actions: [] };
    case 'network':
      return { kind, message: `Cannot reach ${where}. ${server}`.trim(), actions: [TEST_CONNECTION, OPEN_LOGS] };
    case 'timeout':
      return { kind, message: `${where} stopped answering. ${server}`.trim().replace(/^the/, 'The'), actions: [TEST_CONNECTION, OPEN_LOGS] };
    case 'interrupted':
      return { kind, message: `The reply was cut off before it finished. ${server}`.trim(), actions: [OPEN_LOGS] };
    case 'bad_response':
      // The media limit is the only one a user sets; a chat reply past its cap keeps its text and has nothing to change.
      if (e.code === 'too_large') return { kind, message: server || 'The answer was too large.', actions: e.partialKept ? [OPEN_LOGS] : [OPEN_MEDIA_LIMIT_SETTING] };
      return { kind, message: `The gateway sent a response that could not be read. ${server}${ref}`.trim(), actions: [OPEN_LOGS] };
    case 'not_found':
      return { kind, message: `Not found on ${where}. ${server}${ref}`.trim(), actions: context.model ? [LIST_MODELS] : [] };
    case 'server':
      return { kind, message: `The gateway failed (HTTP ${e.status}). ${server}${ref}`.trim(), actions: [OPEN_LOGS] };
    case 'bad_request':
      return { kind, message: `The gateway rejected the request (HTTP ${e.status}). ${server}${ref}`.trim(), actions: [OPEN_LOGS] };
    default:
      // `upstream` (an error inside a 200 answer) and `other`: the gateway's or the error's own words.
      return { kind, message: server || 'Something went wrong.', actions: [OPEN_LOGS] };
  }
}

/** Advice for a missing URL or key: the one wording every feature shows. */
export function accessAdvice({ missing, origin }: Pick<MissingAccess, 'missing' | 'origin'>): ErrorAdvice {
  if (missing === 'key') return adviceFor({ status: 401, message: 'No API key is stored for it' }, { origin });
  if (missing === 'profile') return { kind: 'other', message: 'Nothing was sent: its profile was deleted. Move the chat to another profile, or choose a model of another profile.', actions: [CHANGE_CHAT_PROFILE] };
  return { kind: 'other', message: 'No gateway URL is set.', actions: [SET_BASE_URL] };
}

/** A video parameter outside what the gateway lists for the model (videos/core's ParameterNotAllowedError), read by shape. */
export interface ParameterRefusal {
  model: string;
  parameter: 'duration' | 'resolution' | 'aspectRatio';
  value: string;
  allowed: readonly string[];
}

export function parameterRefusal(error: unknown): ParameterRefusal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as Record<string, unknown>;
  if (e.code !== 'parameter_not_allowed' || typeof e.model !== 'string' || typeof e.value !== 'string' || !Array.isArray(e.allowed)) return undefined;
  if (e.parameter !== 'duration' && e.parameter !== 'resolution' && e.parameter !== 'aspectRatio') return undefined;
  return { model: e.model, parameter: e.parameter, value: e.value, allowed: e.allowed.filter((v): v is string => typeof v === 'string') };
}

const PARAMETER_WORDS: Record<ParameterRefusal['parameter'], { many: string; unit: string }> = {
  duration: { many: 'durations', unit: ' seconds' },
  resolution: { many: 'resolutions', unit: '' },
  aspectRatio: { many: 'aspect ratios', unit: '' },
};

function refusalText({ model, parameter, value, allowed }: ParameterRefusal): string {
  const words = PARAMETER_WORDS[parameter];
  return `Not sent: the gateway allows ${model} only the ${words.many} ${allowed.join(', ')}${words.unit}, not ${value}${words.unit}. Choose one of those.`;
}

/** What the gateway allows, in words (a tool's confirmation and result): "durations 4, 6, 8 s; resolutions 720p, 1080p". */
export function allowedText(allowed: { durations?: readonly number[]; resolutions?: readonly string[]; aspectRatios?: readonly string[] }): string {
  const parts: string[] = [];
  if (allowed.durations?.length) parts.push(`durations ${allowed.durations.join(', ')} s`);
  if (allowed.resolutions?.length) parts.push(`resolutions ${allowed.resolutions.join(', ')}`);
  if (allowed.aspectRatios?.length) parts.push(`aspect ratios ${allowed.aspectRatios.join(', ')}`);
  return parts.join('; ');
}
