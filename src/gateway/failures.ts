// How a failed attempt becomes a GatewayError: transport errors, HTTP error statuses, bodies that break or fall
// silent, and error events inside a 200 stream. Each failure keeps the phase it happened in, which is what the
// client's retry decision reads. No `vscode` import.

import type { AbortCause, AttemptControl } from './attemptControl';
import type { ChatStreamAccumulator, StreamFailure } from './chatStream';
import type { Clock } from '../util/clock';
import { describeErrorBody, detailsFromErrorValue, GatewayError, redact, type FailureKind, type GatewayErrorInit } from './errors';
import { headerText, isRetryableStatus, serverRetryDelayMs, serverRetryVerdict, type Headers } from './retry';
import { errorCodeOf, networkFailureSentence } from './networkErrors';
import { formatBytes } from '../util/bytes';
import type { ChatResult } from './types';

export type RetryPolicy = 'idempotent' | 'chat' | 'submit';
export type Phase = 'connect' | 'request' | 'status' | 'body';

const CONNECT_PHASE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The kinds no later attempt can cure: never retried, never paced (a countdown to them would never end). */
const UNRETRYABLE_KINDS: ReadonlySet<FailureKind> = new Set<FailureKind>(['budget', 'credits', 'moderation']);

/** A failed attempt with what the retry decision needs. */
export class AttemptFailure {
  constructor(
    readonly error: GatewayError,
    readonly phase: Phase,
    readonly headers?: Headers,
    readonly causeCode?: string,
  ) {}
}

/** May this failed attempt be sent again under the call's policy (retry budget and waits aside)? */
export function isRetryable(policy: RetryPolicy, failure: AttemptFailure): boolean {
  const { phase, error } = failure;
  // A budget, credits or moderation refusal answers the same however long one waits, whatever the headers say.
  if (UNRETRYABLE_KINDS.has(error.kind)) return false;
  if (policy === 'submit') return phase === 'connect' && failure.causeCode === 'ECONNREFUSED';
  switch (phase) {
    case 'connect':
      return true;
    case 'request':
      return policy === 'idempotent' || error.code !== 'timeout';
    case 'status':
      return serverRetryVerdict(failure.headers ?? {}) ?? isRetryableStatus(error.status);
    case 'body':
      return policy === 'idempotent' && error.code !== 'bad_response' && error.code !== 'too_large' && !error.fromServer;
  }
}

/** The status the pacer hears: only a rate limit is a refusal to wait out (LiteLLM's budget comes as a 429). */
export function pacedStatus(status: number, kind: string): number {
  return status === 429 && kind !== 'rate_limit' ? 400 : status;
}

export interface FailureContext {
  origin: string;
  apiKey: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  clock: Clock;
}

/** Builds the GatewayError of each kind of failure for one client: its origin in messages, its key never. */
export class FailureMapper {
  readonly #origin: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #clock: Clock;

  constructor(context: FailureContext) {
    this.#origin = context.origin;
    this.#apiKey = context.apiKey;
    this.#timeoutMs = context.timeoutMs;
    this.#idleTimeoutMs = context.idleTimeoutMs;
    this.#clock = context.clock;
  }

  /** The request failed before any response arrived. */
  transport(error: unknown, control: AttemptControl, policy: RetryPolicy): AttemptFailure {
    if (error instanceof AttemptFailure) return error;
    const code = errorCodeOf(error);
    if (control.cause !== undefined) {
      const gatewayError = this.abort(control.cause, undefined, undefined);
      return new AttemptFailure(policy === 'submit' ? withOutcomeUnknown(gatewayError) : gatewayError, 'request', undefined, code);
    }
    const connectPhase = code !== undefined && CONNECT_PHASE_CODES.has(code);
    const gatewayError = new GatewayError({
      status: 0,
      code: code === 'UND_ERR_CONNECT_TIMEOUT' ? 'timeout' : 'network',
      message: this.#networkMessage(code, error),
      cause: sanitizedCause(error, this.#apiKey),
      outcomeUnknown: policy === 'submit' && !connectPhase,
    });
    return new AttemptFailure(gatewayError, connectPhase ? 'connect' : 'request', undefined, code);
  }

  /** Reading a 2xx body failed (a broken connection, or the attempt's own abort). */
  body(error: unknown, control: AttemptControl, requestId: string | undefined, code: 'network' | 'stream_interrupted', partial: ChatResult | undefined): AttemptFailure {
    if (error instanceof AttemptFailure) return error;
    const cause = control.cause;
    if (cause !== undefined) return new AttemptFailure(this.abort(cause, requestId, partial), 'body');
    return new AttemptFailure(
      new GatewayError({
        status: 0,
        code,
        message:
          code === 'stream_interrupted'
            ? 'The connection to the gateway broke while the reply was streaming.'
            : 'The connection to the gateway broke while the response was being read.',
        requestId,
        partial,
        cause: sanitizedCause(error, this.#apiKey),
      }),
      'body',
    );
  }

  abort(cause: AbortCause, requestId: string | undefined, partial: ChatResult | undefined): GatewayError {
    if (cause === 'aborted') return abortedError(requestId, partial);
    const message =
      cause === 'timeout'
        ? `The gateway did not respond within ${formatSeconds(this.#timeoutMs)}.`
        : `The gateway sent nothing for ${formatSeconds(this.#idleTimeoutMs)}; the reply was cut off.`;
    return new GatewayError({ status: 0, code: 'timeout', message, requestId, partial });
  }

  /** A non-2xx response, from its (already bounded) body text. */
  status(status: number, headers: Headers, text: string, requestId: string | undefined): AttemptFailure {
    const details = describeErrorBody(status, text, headerText(headers, 'content-type'), this.#apiKey);
    const init: GatewayErrorInit = {
      status,
      code: details.code ?? details.type ?? `http_${status}`,
      message: details.message,
      requestId,
      fromServer: true,
    };
    if (details.type !== undefined) init.type = details.type;
    if (details.param !== undefined) init.param = details.param;
    if (details.moderationReasons !== undefined) init.moderationReasons = details.moderationReasons;
    const retryAfterMs = serverRetryDelayMs(headers, this.#clock.now());
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
    return new AttemptFailure(new GatewayError(init), 'status', headers);
  }

  /** A chat stream or completion that reported an error or could not be read. */
  stream(failure: StreamFailure, acc: ChatStreamAccumulator, requestId: string | undefined): GatewayError {
    const partial = acc.result();
    if (failure.kind === 'oversized') {
      const message = `${String(failure.payload)} The reply was stopped there; the text received before it is kept.`;
      return new GatewayError({ status: 0, code: 'bad_response', message, requestId, partial });
    }
    if (failure.kind === 'reply-too-long') {
      const message = `The reply passed ${formatBytes(Number(failure.payload))} of text (reasoning and tool-call arguments included), the most one reply may hold. It was stopped there; the text received before it is kept.`;
      return new GatewayError({ status: 0, code: 'too_large', message, requestId, partial });
    }
    if (failure.kind === 'invalid-json') {
      return new GatewayError({ status: 0, code: 'bad_response', message: 'The gateway sent a stream event that is not valid JSON.', requestId, partial });
    }
    return this.fromPayload(failure.payload, 0, requestId, partial);
  }

  /** An `error` value inside an otherwise successful body. */
  fromPayload(payload: unknown, status: number, requestId: string | undefined, partial?: ChatResult): GatewayError {
    const details = detailsFromErrorValue(payload, this.#apiKey) ?? { message: 'The gateway reported an error without details.' };
    return new GatewayError({
      status,
      code: details.code ?? details.type ?? 'server_error',
      message: details.message,
      type: details.type,
      param: details.param,
      requestId,
      partial,
      fromServer: true,
      ...(details.moderationReasons !== undefined && { moderationReasons: details.moderationReasons }),
    });
  }

  #networkMessage(code: string | undefined, error: unknown): string {
    const where = `the gateway at ${this.#origin}`;
    const sentence = networkFailureSentence(code, where);
    if (sentence) return sentence;
    const detail = error instanceof Error ? redact(error.message, this.#apiKey) : '';
    return `Request to ${where} failed${detail ? `: ${detail}` : '.'}`;
  }
}

function sanitizedCause(error: unknown, secret: string): GatewayErrorInit['cause'] {
  if (!(error instanceof Error)) return undefined;
  const code = errorCodeOf(error);
  return { name: error.name, message: redact(error.message, secret), ...(code ? { code } : {}) };
}

export function abortedError(requestId?: string, partial?: ChatResult): GatewayError {
  return new GatewayError({ status: 0, code: 'aborted', message: 'The request was cancelled.', requestId, partial });
}

export function badResponse(message: string, requestId?: string): GatewayError {
  return new GatewayError({ status: 0, code: 'bad_response', message, requestId });
}

/** An answer larger than the caller accepts; `what` names it ("The image"), `setting` the limit's setting if any. */
export function tooLarge(what: string, limitBytes: number, requestId?: string, sizeBytes?: number): GatewayError {
  const size = sizeBytes === undefined ? 'is larger than' : `(${formatBytes(sizeBytes)}) is larger than`;
  return new GatewayError({ status: 0, code: 'too_large', message: `${what} ${size} the limit of ${formatBytes(limitBytes)}; it was refused.`, requestId });
}

export function withAttempts(error: GatewayError, attempts: number): GatewayError {
  (error as { attempts: number }).attempts = attempts;
  return error;
}

export function withOutcomeUnknown(error: GatewayError): GatewayError {
  (error as { outcomeUnknown: boolean }).outcomeUnknown = true;
  return error;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
