// The gateway client: every feature reaches the gateway through this class. No `vscode` import.
//
// Transport: one keep-alive undici Pool (or ProxyAgent) per client, always passed explicitly; the process-wide
// dispatcher and globalThis.fetch are never touched. Timeouts and retry waits run on an injectable Clock.

import { inspect } from 'node:util';
import { AttemptControl, readText, type AbortCause } from './attemptControl';
import type { Dispatcher } from 'undici';
import { ChatStreamAccumulator, ChatStreamParser, type StreamFailure } from './chatStream';
import { realClock, sleeperFor, type Clock, type Sleep } from '../util/clock';
import { describeErrorBody, detailsFromErrorValue, GatewayError, redact, type GatewayErrorInit } from './errors';
import { resolveProxy } from './proxy';
import { defaultBackoffMs, headerText, isRetryableStatus, serverRetryDelayMs, serverRetryVerdict, type Headers } from './retry';
import type {
  ChatDelta,
  ChatOptions,
  ChatRequest,
  ChatResult,
  GatewayApi,
  GatewayErrorCode,
  Model,
  RequestOptions,
  VideoJob,
  VideoRequest,
} from './types';
import type { Logger } from '../util/logger';
import { loadUndici, type UndiciParts } from './undiciLoader';

/** One line per HTTP attempt. Never carries the key or any header. */
export interface RequestLogLine {
  method: string;
  path: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  durationMs: number;
  requestId?: string;
  /** 1 for the first try, 2 for the first retry… */
  attempt: number;
  /** Set when the attempt failed. */
  errorCode?: GatewayErrorCode;
}

/** Structured logging: one call per HTTP attempt. */
export interface GatewayLogger {
  onRequest(line: RequestLogLine): void;
}

/** Plain-text logging (an output channel): successes go to info, failures to warn. */
export type TextLogger = Pick<Logger, 'info' | 'warn'>;

export function formatRequestLine(line: RequestLogLine): string {
  const outcome = line.errorCode !== undefined ? `${line.status || 'no response'} (${line.errorCode})` : String(line.status);
  const retry = line.attempt > 1 ? `, attempt ${line.attempt}` : '';
  const id = line.requestId ? `, request ${line.requestId}` : '';
  return `${line.method} ${line.path} → ${outcome} in ${Math.round(line.durationMs)} ms${retry}${id}`;
}

export interface GatewayClientOptions {
  /** Base URL including the /v1 prefix, e.g. http://127.0.0.1:8787/v1 (a trailing slash is fine). */
  baseUrl: string;
  apiKey: string;
  /** Connecting plus waiting for the response headers. Default 60 s. */
  timeoutMs?: number;
  /** Longest silence while a response body is being read (streams included). Default 60 s. */
  idleTimeoutMs?: number;
  /** Retries after the first attempt, where retrying is safe. Default 2. */
  maxRetries?: number;
  /** A server-requested wait longer than this fails the call (with retryAfterMs) instead of waiting. Default 60 s. */
  maxRetryWaitMs?: number;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Proxy URL; `false` ignores HTTPS_PROXY/HTTP_PROXY; undefined uses them (honouring NO_PROXY). */
  proxy?: string | false;
  /** Environment read for proxy settings. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Maximum parallel connections to the gateway. Default 16. */
  connections?: number;
  clock?: Clock;
  sleep?: Sleep;
  /** Source of retry jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  logger?: GatewayLogger | TextLogger;
}

type RetryPolicy = 'idempotent' | 'chat' | 'submit';
type Phase = 'connect' | 'request' | 'status' | 'body';
type ResponseData = Dispatcher.ResponseData;

interface CallSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  accept: string;
  policy: RetryPolicy;
  options: RequestOptions | undefined;
}

interface AttemptContext {
  control: AttemptControl;
  requestId: string | undefined;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
const ERROR_BODY_LIMIT = 64 * 1024;
const JSON_BODY_LIMIT = 64 * 1024 * 1024;
const CONNECT_PHASE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** A failed attempt with what the retry decision needs. */
class AttemptFailure {
  constructor(
    readonly error: GatewayError,
    readonly phase: Phase,
    readonly headers?: Headers,
    readonly causeCode?: string,
  ) {}
}

export class GatewayClient implements GatewayApi {
  readonly #apiKey: string;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #idleTimeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxRetryWaitMs: number;
  readonly #extraHeaders: Record<string, string>;
  readonly #proxyOption: string | false | undefined;
  readonly #env: Record<string, string | undefined>;
  readonly #connections: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #logger: GatewayLogger | TextLogger | undefined;
  #dispatcher: Dispatcher | undefined;
  #undici!: UndiciParts;
  #closed = false;

  constructor(options: GatewayClientOptions) {
    const url = new URL(options.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be http(s): ${url.protocol}`);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#baseUrl = `${this.#origin}${this.#basePath}`;
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.#maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
    this.#extraHeaders = { ...options.headers };
    this.#proxyOption = options.proxy;
    this.#env = options.env ?? process.env;
    this.#connections = options.connections ?? 16;
    this.#clock = options.clock ?? realClock;
    this.#sleep = options.sleep ?? sleeperFor(this.#clock);
    this.#random = options.random ?? Math.random;
    this.#logger = options.logger;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  async listModels(options?: RequestOptions): Promise<Model[]> {
    const body = await this.#call({ method: 'GET', path: '/models', accept: 'application/json', policy: 'idempotent', options }, (res, ctx) =>
      this.#readJson(res, ctx),
    );
    const list = Array.isArray(body) ? body : isRecord(body) ? body.data : undefined;
    if (list === undefined || list === null) {
      if (isRecord(body) && body.error != null) throw this.#errorFromPayload(body.error, 200, undefined);
      return [];
    }
    if (!Array.isArray(list)) throw badResponse('The model list from the gateway has no data array');
    return list.filter((m): m is Model => isRecord(m) && typeof m.id === 'string');
  }

  async chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
    const stream = request.stream === true;
    const spec: CallSpec = {
      method: 'POST',
      path: '/chat/completions',
      body: JSON.stringify(request),
      accept: stream ? 'text/event-stream' : 'application/json',
      policy: 'chat',
      options,
    };
    return this.#call(spec, (res, ctx) => {
      const contentType = headerText(res.headers as Headers, 'content-type') ?? '';
      if (stream && !contentType.includes('application/json')) return this.#readChatStream(res, ctx, options?.onDelta);
      return this.#readChatCompletion(res, ctx, options?.onDelta);
    });
  }

  async submitVideo(request: VideoRequest, options?: RequestOptions): Promise<VideoJob> {
    const spec: CallSpec = {
      method: 'POST',
      path: '/videos/generations',
      body: JSON.stringify(request),
      accept: 'application/json',
      policy: 'submit',
      options,
    };
    return this.#call(spec, async (res, ctx) => videoJobOf(await this.#readJson(res, ctx)));
  }

  async getVideo(id: string, options?: RequestOptions): Promise<VideoJob> {
    const spec: CallSpec = {
      method: 'GET',
      path: `/videos/generations/${encodeURIComponent(id)}`,
      accept: 'application/json',
      policy: 'idempotent',
      options,
    };
    return this.#call(spec, async (res, ctx) => {
      const job = videoJobOf(await this.#readJson(res, ctx));
      const retryAfterMs = serverRetryDelayMs(res.headers as Headers, this.#clock.now());
      if (retryAfterMs !== undefined) options?.onRetryAfter?.(retryAfterMs);
      return job;
    });
  }

  /** Closes the connection pool; in-flight requests fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const dispatcher = this.#dispatcher;
    this.#dispatcher = undefined;
    if (dispatcher) await dispatcher.destroy().catch(() => undefined);
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#baseUrl, apiKey: '[redacted]' };
  }

  toString(): string {
    return `GatewayClient(${this.#baseUrl})`;
  }

  [inspect.custom](): string {
    return `GatewayClient { baseUrl: '${this.#baseUrl}', apiKey: [redacted] }`;
  }

  // ---- retries -------------------------------------------------------------------------------------------

  async #call<T>(spec: CallSpec, read: (res: ResponseData, ctx: AttemptContext) => Promise<T>): Promise<T> {
    const signal = spec.options?.signal;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw withAttempts(abortedError(), attempt - 1);
      let failure: AttemptFailure;
      try {
        return await this.#attempt(spec, attempt, read);
      } catch (error) {
        if (!(error instanceof AttemptFailure)) throw error;
        failure = error;
      }
      const error = withAttempts(failure.error, attempt);
      const waitMs = this.#retryWait(spec.policy, failure, attempt - 1, spec.options?.maxRetries ?? this.#maxRetries);
      if (waitMs === undefined) throw error;
      try {
        await this.#sleep(waitMs, signal);
      } catch (sleepError) {
        if (signal?.aborted) throw withAttempts(abortedError(), attempt);
        throw sleepError;
      }
    }
  }

  /** How long to wait before the next attempt, or undefined when this failure must not be retried. */
  #retryWait(policy: RetryPolicy, failure: AttemptFailure, retriesMade: number, maxRetries: number): number | undefined {
    if (retriesMade >= maxRetries || failure.error.code === 'aborted') return undefined;
    if (!isRetryable(policy, failure)) return undefined;
    const serverWait = failure.error.retryAfterMs;
    if (serverWait !== undefined) return serverWait <= this.#maxRetryWaitMs ? serverWait : undefined;
    return defaultBackoffMs(retriesMade, this.#random);
  }

  // ---- one attempt ---------------------------------------------------------------------------------------

  async #attempt<T>(spec: CallSpec, attempt: number, read: (res: ResponseData, ctx: AttemptContext) => Promise<T>): Promise<T> {
    const dispatcher = this.#getDispatcher();
    const control = new AttemptControl(this.#clock, spec.options?.signal, this.#timeoutMs, this.#idleTimeoutMs);
    const startedAt = this.#clock.now();
    const path = this.#basePath + spec.path;
    let res: ResponseData | undefined;
    let status = 0;
    let requestId: string | undefined;
    let errorCode: GatewayErrorCode | undefined;
    try {
      try {
        res = await this.#undici.request(dispatcher, {
          origin: this.#origin,
          path,
          method: spec.method,
          headers: this.#headersFor(spec),
          body: spec.body,
          signal: control.signal,
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      } catch (error) {
        throw this.#transportFailure(error, control, spec.policy);
      }
      control.headersArrived();
      status = res.statusCode;
      requestId = requestIdOf(res.headers as Headers);
      if (status < 200 || status >= 300) {
        const text = await readText(res.body, control, ERROR_BODY_LIMIT).catch(() => '');
        if (control.cause === 'aborted') throw new AttemptFailure(this.#abortError('aborted', requestId, undefined), 'body');
        throw this.#statusFailure(status, res.headers as Headers, text, requestId);
      }
      try {
        return await read(res, { control, requestId });
      } catch (error) {
        if (error instanceof AttemptFailure || error instanceof GatewayError) {
          const failure = error instanceof AttemptFailure ? error : new AttemptFailure(error, 'body');
          throw spec.policy === 'submit' && !failure.error.fromServer
            ? new AttemptFailure(withOutcomeUnknown(failure.error), failure.phase)
            : failure;
        }
        throw error;
      }
    } catch (error) {
      errorCode = error instanceof AttemptFailure ? error.error.code : 'error';
      throw error;
    } finally {
      const body = res?.body;
      if (body && !body.destroyed && !body.readableEnded) body.once('close', () => control.dispose());
      else control.dispose();
      this.#log({ method: spec.method, path, status, durationMs: this.#clock.now() - startedAt, requestId, attempt, errorCode });
    }
  }

  #headersFor(spec: CallSpec): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const extra of [this.#extraHeaders, spec.options?.headers]) {
      if (extra) for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    }
    headers.accept = spec.accept;
    headers.authorization = `Bearer ${this.#apiKey}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  #getDispatcher(): Dispatcher {
    if (this.#closed) throw new GatewayError({ status: 0, code: 'network', message: 'The gateway client was closed.' });
    if (this.#dispatcher) return this.#dispatcher;
    const undici = (this.#undici = loadUndici());
    const proxy = resolveProxy(new URL(this.#origin), this.#proxyOption, this.#env);
    const connect = { timeout: Math.min(this.#timeoutMs, 30_000) };
    this.#dispatcher = proxy
      ? new undici.ProxyAgent({ uri: proxy, connections: this.#connections, connect, proxyTls: connect, requestTls: connect })
      : new undici.Pool(this.#origin, { connections: this.#connections, connect });
    return this.#dispatcher;
  }

  #log(line: RequestLogLine): void {
    if (!this.#logger) return;
    if (line.requestId === undefined) delete line.requestId;
    if (line.errorCode === undefined) delete line.errorCode;
    try {
      const logger = this.#logger;
      if ('onRequest' in logger) logger.onRequest(line);
      else if (line.errorCode !== undefined) logger.warn(formatRequestLine(line));
      else logger.info(formatRequestLine(line));
    } catch {
      // A failing logger must not fail the request.
    }
  }

  // ---- responses -----------------------------------------------------------------------------------------

  async #readJson(res: ResponseData, ctx: AttemptContext): Promise<unknown> {
    let text: string;
    try {
      text = await readText(res.body, ctx.control, JSON_BODY_LIMIT);
    } catch (error) {
      throw this.#bodyFailure(error, ctx, 'network', undefined);
    }
    if (text.trim() === '') throw new AttemptFailure(badResponse('The gateway sent an empty response.', ctx.requestId), 'body');
    try {
      return JSON.parse(text);
    } catch {
      throw new AttemptFailure(badResponse('The gateway sent a response that is not valid JSON.', ctx.requestId), 'body');
    }
  }

  async #readChatCompletion(res: ResponseData, ctx: AttemptContext, onDelta: ChatOptions['onDelta']): Promise<ChatResult> {
    const body = await this.#readJson(res, ctx);
    if (!isRecord(body)) throw new AttemptFailure(badResponse('The chat completion from the gateway is not an object.', ctx.requestId), 'body');
    const acc = new ChatStreamAccumulator();
    acc.handleCompletion(body);
    if (acc.failure) throw new AttemptFailure(this.#streamError(acc.failure, acc, ctx.requestId), 'body');
    const result = acc.result();
    if (onDelta) {
      const delta = fullDelta(result);
      if (delta) onDelta(delta);
    }
    return result;
  }

  #readChatStream(res: ResponseData, ctx: AttemptContext, onDelta: ChatOptions['onDelta']): Promise<ChatResult> {
    const { control, requestId } = ctx;
    const body = res.body;
    const parser = new ChatStreamParser(onDelta);
    const acc = parser.accumulator;
    return new Promise<ChatResult>((resolve, reject) => {
      let settled = false;
      let receivedBytes = false;
      const fail = (error: unknown): void => {
        settled = true;
        body.destroy();
        reject(error);
      };
      const settleIfClosed = (): void => {
        if (acc.failure) fail(new AttemptFailure(this.#streamError(acc.failure, acc, requestId), 'body'));
        else if (acc.done) {
          settled = true;
          resolve(acc.result());
        }
      };
      body.on('data', (chunk: Buffer) => {
        control.touch();
        if (settled) return;
        receivedBytes = true;
        try {
          parser.push(chunk);
        } catch (error) {
          fail(error);
          return;
        }
        if (acc.closed) settleIfClosed();
      });
      body.on('end', () => {
        if (settled) return;
        try {
          parser.end();
        } catch (error) {
          fail(error);
          return;
        }
        if (acc.closed) settleIfClosed();
        else if (acc.finished) {
          settled = true;
          resolve(acc.result());
        } else if (!receivedBytes) {
          fail(new AttemptFailure(badResponse('The gateway ended the stream without sending anything.', requestId), 'body'));
        } else {
          fail(
            new AttemptFailure(
              new GatewayError({
                status: 0,
                code: 'stream_interrupted',
                message: 'The gateway ended the stream before the reply was complete.',
                requestId,
                partial: acc.result(),
              }),
              'body',
            ),
          );
        }
      });
      body.on('error', (error) => {
        if (settled) return;
        settled = true;
        reject(this.#bodyFailure(error, ctx, 'stream_interrupted', acc.result()));
      });
    });
  }

  // ---- failures ------------------------------------------------------------------------------------------

  #transportFailure(error: unknown, control: AttemptControl, policy: RetryPolicy): AttemptFailure {
    if (error instanceof AttemptFailure) return error;
    const code = errorCodeOf(error);
    if (control.cause !== undefined) {
      const gatewayError = this.#abortError(control.cause, undefined, undefined);
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

  #bodyFailure(error: unknown, ctx: AttemptContext, code: 'network' | 'stream_interrupted', partial: ChatResult | undefined): AttemptFailure {
    if (error instanceof AttemptFailure) return error;
    const cause = ctx.control.cause;
    if (cause !== undefined) return new AttemptFailure(this.#abortError(cause, ctx.requestId, partial), 'body');
    return new AttemptFailure(
      new GatewayError({
        status: 0,
        code,
        message:
          code === 'stream_interrupted'
            ? 'The connection to the gateway broke while the reply was streaming.'
            : 'The connection to the gateway broke while the response was being read.',
        requestId: ctx.requestId,
        partial,
        cause: sanitizedCause(error, this.#apiKey),
      }),
      'body',
    );
  }

  #abortError(cause: AbortCause, requestId: string | undefined, partial: ChatResult | undefined): GatewayError {
    if (cause === 'aborted') return abortedError(requestId, partial);
    const message =
      cause === 'timeout'
        ? `The gateway did not respond within ${formatSeconds(this.#timeoutMs)}.`
        : `The gateway sent nothing for ${formatSeconds(this.#idleTimeoutMs)}; the reply was cut off.`;
    return new GatewayError({ status: 0, code: 'timeout', message, requestId, partial });
  }

  #statusFailure(status: number, headers: Headers, text: string, requestId: string | undefined): AttemptFailure {
    const details = describeErrorBody(status, redact(text, this.#apiKey), headerText(headers, 'content-type'));
    const init: GatewayErrorInit = {
      status,
      code: details.code ?? details.type ?? `http_${status}`,
      message: details.message,
      requestId,
      fromServer: true,
    };
    if (details.type !== undefined) init.type = details.type;
    if (details.param !== undefined) init.param = details.param;
    const retryAfterMs = serverRetryDelayMs(headers, this.#clock.now());
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
    return new AttemptFailure(new GatewayError(init), 'status', headers);
  }

  #streamError(failure: StreamFailure, acc: ChatStreamAccumulator, requestId: string | undefined): GatewayError {
    const partial = acc.result();
    if (failure.kind === 'invalid-json') {
      return new GatewayError({ status: 0, code: 'bad_response', message: 'The gateway sent a stream event that is not valid JSON.', requestId, partial });
    }
    return this.#errorFromPayload(failure.payload, 0, requestId, partial);
  }

  #errorFromPayload(payload: unknown, status: number, requestId: string | undefined, partial?: ChatResult): GatewayError {
    const details = detailsFromErrorValue(payload) ?? { message: 'The gateway reported an error without details.' };
    return new GatewayError({
      status,
      code: details.code ?? details.type ?? 'server_error',
      message: redact(details.message, this.#apiKey),
      type: details.type,
      param: details.param,
      requestId,
      partial,
      fromServer: true,
    });
  }

  #networkMessage(code: string | undefined, error: unknown): string {
    const where = `the gateway at ${this.#origin}`;
    switch (code) {
      case 'ECONNREFUSED':
        return `Cannot connect to ${where}: connection refused.`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `Cannot find ${where}: the host name does not resolve.`;
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return `Cannot reach ${where}: no route to the host.`;
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `Connecting to ${where} timed out.`;
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
      case 'EPIPE':
        return `The connection to ${where} was closed before a response arrived.`;
      default: {
        const detail = error instanceof Error ? redact(error.message, this.#apiKey) : '';
        return `Request to ${where} failed${detail ? `: ${detail}` : '.'}`;
      }
    }
  }
}

function isRetryable(policy: RetryPolicy, failure: AttemptFailure): boolean {
  const { phase, error } = failure;
  if (policy === 'submit') return phase === 'connect' && failure.causeCode === 'ECONNREFUSED';
  switch (phase) {
    case 'connect':
      return true;
    case 'request':
      return policy === 'idempotent' || error.code !== 'timeout';
    case 'status':
      return serverRetryVerdict(failure.headers ?? {}) ?? isRetryableStatus(error.status);
    case 'body':
      return policy === 'idempotent' && error.code !== 'bad_response' && !error.fromServer;
  }
}

function videoJobOf(body: unknown): VideoJob {
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.status !== 'string') {
    throw badResponse('The video job from the gateway has no id or status.');
  }
  return body as VideoJob;
}

function fullDelta(result: ChatResult): ChatDelta | undefined {
  const delta: ChatDelta = {};
  if (result.content) delta.content = result.content;
  if (result.reasoning) delta.reasoning = result.reasoning;
  if (result.refusal) delta.refusal = result.refusal;
  if (result.toolCalls.length > 0) delta.toolCalls = result.toolCalls.map((call, index) => ({ index, ...call }));
  return Object.keys(delta).length > 0 ? delta : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function requestIdOf(headers: Headers): string | undefined {
  return headerText(headers, 'x-request-id') ?? headerText(headers, 'request-id');
}

function errorCodeOf(error: unknown): string | undefined {
  if (!isRecord(error) && !(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

function sanitizedCause(error: unknown, secret: string): GatewayErrorInit['cause'] {
  if (!(error instanceof Error)) return undefined;
  const code = errorCodeOf(error);
  return { name: error.name, message: redact(error.message, secret), ...(code ? { code } : {}) };
}

function abortedError(requestId?: string, partial?: ChatResult): GatewayError {
  return new GatewayError({ status: 0, code: 'aborted', message: 'The request was cancelled.', requestId, partial });
}

function badResponse(message: string, requestId?: string): GatewayError {
  return new GatewayError({ status: 0, code: 'bad_response', message, requestId });
}

function withAttempts(error: GatewayError, attempts: number): GatewayError {
  (error as { attempts: number }).attempts = attempts;
  return error;
}

function withOutcomeUnknown(error: GatewayError): GatewayError {
  (error as { outcomeUnknown: boolean }).outcomeUnknown = true;
  return error;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
