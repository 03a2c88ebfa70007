// The one error type every gateway call fails with, and the readers that turn HTTP error bodies of every shape
// seen in the wild (spec `{error:{…}}`, flat `{object:"error",…}`, numeric codes, proxy HTML pages, empty bodies)
// into a message a person can read.

import { STATUS_CODES } from 'node:http';
import type { ChatResult, GatewayErrorCode } from './types';
import { elementText, htmlText } from './htmlText';
import { failureKind, type FailureKind } from './failureKind';

export { failureKind, readError, type FailureKind, type ErrorFields } from './failureKind';

/** A GatewayError's kind: every failure kind but `other` (a gateway call always fails in the gateway's terms). */
export type GatewayErrorKind = Exclude<FailureKind, 'other'>;

export interface GatewayErrorInit {
  status: number;
  code: GatewayErrorCode;
  message: string;
  type?: string;
  param?: string;
  retryAfterMs?: number;
  requestId?: string;
  partial?: ChatResult;
  outcomeUnknown?: boolean;
  attempts?: number;
  cause?: { name: string; code?: string; message: string };
  /** True when the server itself reported this (HTTP error body or an error inside the stream). */
  fromServer?: boolean;
  /** A moderation refusal's reasons, from the gateway's `metadata`. */
  moderationReasons?: string[];
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  /** HTTP status, or 0 when no response status applies (network failure, timeout, abort). */
  readonly status: number;
  /** The server's error code, or one of network, timeout, aborted, stream_interrupted, bad_response. */
  readonly code: GatewayErrorCode;
  readonly type?: string;
  readonly param?: string;
  /** How long the server asked to wait before trying again. */
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  /** What a chat stream had produced before it broke. */
  readonly partial?: ChatResult;
  /** A video submission failed after the request may have reached the server: a job may exist. */
  readonly outcomeUnknown: boolean;
  /** Requests sent for this call, retries included. */
  readonly attempts: number;
  readonly fromServer: boolean;
  /** A moderation refusal's reasons (OpenRouter's 403 `metadata.reasons`), when the gateway flagged the content. */
  readonly moderationReasons?: string[];
  override readonly cause?: { name: string; code?: string; message: string };

  constructor(init: GatewayErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    if (init.type !== undefined) this.type = init.type;
    if (init.param !== undefined) this.param = init.param;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.partial !== undefined) this.partial = init.partial;
    if (init.cause !== undefined) this.cause = init.cause;
    if (init.moderationReasons !== undefined) this.moderationReasons = init.moderationReasons;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    this.attempts = init.attempts ?? 1;
    this.fromServer = init.fromServer ?? false;
  }

  /** A coarse category for the UI to pick wording and actions from (failureKind, the one vocabulary). */
  get kind(): GatewayErrorKind {
    return failureKind(this) as GatewayErrorKind;
  }

  /** Could the same call succeed if made again later (after retryAfterMs, when given)? */
  get retryable(): boolean {
    // A budget, credits or moderation refusal says the same next time (even a 429 with Retry-After).
    switch (this.kind) {
      case 'rate_limit':
      case 'server':
      case 'network':
      case 'timeout':
      case 'interrupted':
        return true;
      case 'bad_request':
        return this.status === 408 || this.status === 409;
      default:
        return false;
    }
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      kind: this.kind,
      type: this.type,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
      outcomeUnknown: this.outcomeUnknown,
      attempts: this.attempts,
    };
  }
}

export interface ServerErrorDetails {
  message: string;
  code?: string;
  type?: string;
  param?: string;
  /** Present when the gateway's `metadata` flagged the content (moderation), with its reasons. */
  moderationReasons?: string[];
}

const MAX_MESSAGE_CHARS = 500;

/**
 * Reads an error body of any shape; never returns an empty message. With `secret`, the key is taken out of the raw
 * text first and out of every parsed string (JSON may escape it, e.g. `\/`) before anything is clipped, so neither
 * a field nor a clipped prefix can hold it.
 */
export function describeErrorBody(status: number, body: string, contentType: string | undefined, secret = ''): ServerErrorDetails {
  const text = redact(body, secret).trim();
  const statusLine = `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
  if (text === '') return { message: `${statusLine} (empty response body)` };
  const json = tryParseJson(text);
  if (json !== undefined) {
    const details = detailsFromErrorValue(json, secret);
    if (details) return details;
    return { message: `${statusLine}: ${clip(text)}` };
  }
  if (/^\s*</.test(text) || (contentType ?? '').includes('html')) {
    const title = elementText(text, 'title') ?? elementText(text, 'h1');
    const summary = redact(collapse(htmlText(title ?? text)), secret);
    return { message: summary ? `${statusLine} from an intermediary: ${clip(summary)}` : `${statusLine} (HTML page)` };
  }
  return { message: `${statusLine}: ${clip(collapse(text))}` };
}

/**
 * Server error details from `{error:{…}}`, `{error:"…"}`, a flat `{message,…}` object, or undefined. With `secret`,
 * every string in the value is redacted before any is read or clipped.
 */
export function detailsFromErrorValue(value: unknown, secret = ''): ServerErrorDetails | undefined {
  return detailsOf(redactValue(value, secret, 0));
}

function detailsOf(value: unknown): ServerErrorDetails | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return typeof value === 'string' && value.trim() !== '' ? { message: clip(value.trim()) } : undefined;
  }
  const obj = value as Record<string, unknown>;
  const inner = obj.error;
  if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) return detailsOf(inner);
  const message = firstText(obj.message, obj.detail, obj.error_description, obj.msg);
  if (typeof inner === 'string' && inner.trim() !== '') {
    // Express: `{"error":"Not Found","message":"Cannot POST …"}`: the message says what, the error only its class.
    const words = message === undefined || message.includes(inner.trim()) ? (message ?? inner.trim()) : `${inner.trim()}: ${message}`;
    return withFields({ message: clip(words) }, obj);
  }
  // DashScope: `output.code` and `output.message` inside a 200 (or beside the request id).
  const output = obj.output;
  if (message === undefined && output !== null && typeof output === 'object' && !Array.isArray(output)) {
    const out = output as Record<string, unknown>;
    if (out.code !== undefined && out.code !== null && out.code !== '') return detailsOf({ message: out.message, code: out.code, type: out.type });
  }
  if (message === undefined && obj.code === undefined && obj.type === undefined) return undefined;
  const fallback = firstText(obj.code, obj.type) ?? 'The gateway reported an error without a message';
  return withFields({ message: clip(message ?? String(fallback)) }, obj);
}

/** OpenRouter's moderation metadata: `reasons` (strings) and `flagged_input`; at most 8 reasons, each clipped. */
function moderationReasonsOf(metadata: unknown): string[] | undefined {
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined;
  const m = metadata as Record<string, unknown>;
  const reasons = Array.isArray(m.reasons) ? m.reasons.filter((r): r is string => typeof r === 'string' && r.trim() !== '').slice(0, 8).map((r) => clip(r.trim()).slice(0, 200)) : [];
  if (reasons.length === 0 && m.flagged_input === undefined && !Array.isArray(m.reasons)) return undefined;
  return reasons;
}

function withFields(details: ServerErrorDetails, obj: Record<string, unknown>): ServerErrorDetails {
  const code = scalarText(obj.code);
  const type = scalarText(obj.type);
  const param = scalarText(obj.param);
  if (code !== undefined) details.code = code;
  if (type !== undefined) details.type = type;
  if (param !== undefined) details.param = param;
  const reasons = moderationReasonsOf(obj.metadata);
  if (reasons !== undefined) details.moderationReasons = reasons;
  return details;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function firstText(...values: unknown[]): string | undefined {
  for (const v of values) {
    const text = scalarText(v);
    if (text !== undefined && text.trim() !== '') return text.trim();
  }
  return undefined;
}

function tryParseJson(text: string): unknown {
  if (text[0] !== '{' && text[0] !== '[' && text[0] !== '"') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** Replaces every occurrence of the secret in text (servers sometimes echo a rejected key). */
export function redact(text: string, secret: string): string {
  if (secret.length < 4 || !text.includes(secret)) return text;
  return text.split(secret).join('[redacted key]');
}

/** The value with the secret redacted from every string in it (keys included); what nests deeper than 8 is dropped. */
function redactValue(value: unknown, secret: string, depth: number): unknown {
  if (secret.length < 4) return value;
  if (typeof value === 'string') return redact(value, secret);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return undefined;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) copy[redact(name, secret)] = redactValue(item, secret, depth + 1);
  return copy;
}
