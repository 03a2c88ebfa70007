// The gateway client: every feature reaches the gateway through this class. No `vscode` import.
//
// Transport: one keep-alive undici Pool (or ProxyAgent) per client, always passed explicitly; the process-wide
// dispatcher and globalThis.fetch are never touched. Timeouts and retry waits run on an injectable Clock.

import { inspect } from 'node:util';
import { AttemptControl, readText } from './attemptControl';
import type { Dispatcher } from 'undici';
import { endpointPathProblem } from '../util/endpointPath';
import { realClock, sleeperFor, type Clock, type Sleep } from '../util/clock';
import { GatewayError, redact } from './errors';
import { abortedError, AttemptFailure, badResponse, FailureMapper, isRetryable, pacedStatus, withAttempts, withOutcomeUnknown, type RetryPolicy } from './failures';
import { proxyAgentSettings, resolveProxy } from './proxy';
import { defaultBackoffMs, headerText, serverRetryDelayMs, type Headers } from './retry';
import type { ChatOptions, ChatRequest, ChatResult, GatewayApi, GatewayErrorCode, ImageCallOptions, ImageGeneration, ImageRequest, ListModelsOptions, MediaRequestOptions, Model, RequestOptions, SpeechAudio, SpeechRequest, Transcription, TranscriptionOptions, TranscriptionRequest, VideoCallOptions, VideoJob, VideoRequest, VideoWire } from './types';
import { readTranscription, transcriptionBody } from './transcriptionCall';
import { DEFAULT_MAX_MEDIA_BYTES } from './mediaReaders';
import { readSpeech, speechBody } from './speechCall';
import { imageCallOf } from './imageCall';
import { loadUndici, type UndiciParts } from './undiciLoader';
import { logRequest, type GatewayLogger, type TextLogger } from './requestLog';
import { isRecord } from '../util/records';
import { modelOf, pollAfterMs, readWire, wireTarget } from './videoWire';
import { isModelEntry, modelListEntries, modelListPath } from './modelLists';
import type { PaceTicket, RequestPacing } from './pacer';
import { jobIdProblem, readChatCompletion, readChatStream, readJson, videoJobOf, type AttemptContext } from './responseReaders';

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
  /** VS Code's `http.proxyStrictSSL`: false skips certificate checks on the proxy path only. Default true. */
  proxyStrictSSL?: boolean;
  /** Environment read for proxy settings. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Maximum parallel connections to the gateway. Default 16. */
  connections?: number;
  clock?: Clock;
  sleep?: Sleep;
  /** Source of retry jitter, in [0, 1). Default Math.random. */
  random?: () => number;
  logger?: GatewayLogger | TextLogger;
  /** Paths of the endpoints the spec leaves open, relative to the base URL. */
  paths?: Partial<MediaPaths>;
  /** The rate-limit pacing of this origin and key: every attempt waits its turn there and reports its answer. */
  pacing?: RequestPacing;
}

/** Where the image and speech endpoints live, below the base URL (the spec shows neither). */
export interface MediaPaths {
  images: string;
  speech: string;
}

export const DEFAULT_MEDIA_PATHS: Readonly<MediaPaths> = { images: '/images/generations', speech: '/audio/speech' };

type ResponseData = Dispatcher.ResponseData;

interface CallSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Below the base URL; with `fromOrigin`, from the origin's root (a dialect's request, already a full path). */
  path: string;
  fromOrigin?: boolean;
  /** The dialect's own headers (the client's Authorization and Accept still win). */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The body's type when it is not JSON (a multipart form). */
  contentType?: string;
  accept: string;
  policy: RetryPolicy;
  options: RequestOptions | undefined;
  /** The model the request is about, for pacing by model (absent: about no one model, paced by the key). */
  model?: string;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_WAIT_MS = 60_000;
const ERROR_BODY_LIMIT = 64 * 1024;

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
  readonly #proxyStrictSSL: boolean;
  readonly #env: Record<string, string | undefined>;
  readonly #connections: number;
  readonly #clock: Clock;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #logger: GatewayLogger | TextLogger | undefined;
  readonly #failures: FailureMapper;
  readonly #paths: MediaPaths;
  readonly #pacing: RequestPacing | undefined;
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
    this.#proxyStrictSSL = options.proxyStrictSSL ?? true;
    this.#env = options.env ?? process.env;
    this.#connections = options.connections ?? 16;
    this.#clock = options.clock ?? realClock;
    this.#sleep = options.sleep ?? sleeperFor(this.#clock);
    this.#random = options.random ?? Math.random;
    this.#logger = options.logger;
    this.#paths = { ...DEFAULT_MEDIA_PATHS, ...options.paths };
    this.#pacing = options.pacing;
    for (const [name, path] of Object.entries(this.#paths)) {
      const problem = endpointPathProblem(path);
      if (problem) throw new TypeError(`The ${name} path "${path}" cannot be used: ${problem}`);
    }
    this.#failures = new FailureMapper({ origin: this.#origin, apiKey: this.#apiKey, timeoutMs: this.#timeoutMs, idleTimeoutMs: this.#idleTimeoutMs, clock: this.#clock });
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  async listModels(options?: ListModelsOptions): Promise<Model[]> {
    const body = await this.#call({ method: 'GET', path: modelListPath(options), accept: 'application/json', policy: 'idempotent', options }, (res, ctx) => readJson(res, ctx));
    const list = modelListEntries(body, options?.list);
    if (list === undefined || list === null) {
      if (isRecord(body) && body.error != null) throw this.#failures.fromPayload(body.error, 200, undefined);
      return [];
    }
    if (!Array.isArray(list)) throw badResponse('The model list from the gateway has no data array');
    return list.filter(isModelEntry);
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
      model: modelOf(request),
    };
    return this.#call(spec, (res, ctx) => {
      const contentType = headerText(res.headers as Headers, 'content-type') ?? '';
      if (stream && !contentType.includes('application/json')) return readChatStream(res, ctx, options?.onDelta);
      return readChatCompletion(res, ctx, options?.onDelta);
    });
  }

  async submitVideo(request: VideoRequest, options?: VideoCallOptions): Promise<VideoJob> {
    if (options?.wire) return this.#videoWire(options.wire, 'submit', options);
    const spec: CallSpec = {
      method: 'POST',
      path: '/videos/generations',
      body: JSON.stringify(request),
      accept: 'application/json',
      policy: 'submit',
      options,
      model: modelOf(request),
    };
    return this.#call(spec, async (res, ctx) => videoJobOf(await readJson(res, ctx)));
  }

  async getVideo(id: string, options?: VideoCallOptions): Promise<VideoJob> {
    if (options?.wire) return this.#videoWire(options.wire, 'idempotent', options);
    const problem = jobIdProblem(id);
    if (problem) throw badResponse(`The video job id cannot be checked: ${problem}`);
    const spec: CallSpec = {
      method: 'GET',
      path: `/videos/generations/${encodeURIComponent(id)}`,
      accept: 'application/json',
      policy: 'idempotent',
      options,
    };
    return this.#call(spec, async (res, ctx) => {
      const job = videoJobOf(await readJson(res, ctx));
      const retryAfterMs = serverRetryDelayMs(res.headers as Headers, this.#clock.now());
      if (retryAfterMs !== undefined) options?.onRetryAfter?.(retryAfterMs);
      return job;
    });
  }

  /** A dialect's video call: sent only to this client's own origin (the key goes with it), its answer read by the dialect. */
  async #videoWire(wire: VideoWire, policy: 'submit' | 'idempotent', options: RequestOptions): Promise<VideoJob> {
    const url = wireTarget(wire, this.#origin);
    const spec: CallSpec = {
      method: wire.method ?? (wire.body === undefined ? 'GET' : 'POST'),
      path: url.pathname + url.search,
      fromOrigin: true,
      headers: wire.headers,
      ...(wire.body !== undefined && { body: wire.body }),
      accept: 'application/json',
      policy,
      options,
    };
    return this.#call(spec, async (res, ctx) => {
      const body = await readJson(res, ctx);
      const job = readWire(wire, body);
      const retryAfterMs = policy === 'idempotent' ? (serverRetryDelayMs(res.headers as Headers, this.#clock.now()) ?? pollAfterMs(res.headers as Headers)) : undefined;
      if (retryAfterMs !== undefined) options.onRetryAfter?.(retryAfterMs);
      return job;
    });
  }

  /**
   * Generates (or, with `request.image`, edits) images, through the images endpoints or a chat completion
   * (`options.route`, imageCall.ts). Paid work: like submitVideo, never retried once the request may have reached the
   * gateway. Links in the answer are checked, not fetched; base64 images are decoded and must really be images.
   */
  async generateImage(request: ImageRequest, options?: ImageCallOptions): Promise<ImageGeneration> {
    const route = options?.route ?? 'images';
    const call = imageCallOf(request, { route, imagesPath: this.#paths.images, maxBytes: options?.maxBytes ?? DEFAULT_MAX_MEDIA_BYTES, baseUrl: this.#baseUrl, nowSeconds: Math.floor(this.#clock.now() / 1000) });
    const spec: CallSpec = { method: 'POST', path: call.path, body: call.body, contentType: call.contentType, accept: call.accept, policy: 'submit', options, model: modelOf(request) };
    return this.#call(spec, (res, ctx) => call.read(res, ctx));
  }

  /** Speaks `input`; resolves with the audio bytes and what they are. Paid work, retried as generateImage is. */
  async synthesizeSpeech(request: SpeechRequest, options?: MediaRequestOptions): Promise<SpeechAudio> {
    const accept = request.stream_format === 'sse' ? 'text/event-stream, audio/*;q=0.9' : 'audio/*, application/octet-stream;q=0.5';
    const spec: CallSpec = { method: 'POST', path: this.#paths.speech, body: speechBody(request), accept, policy: 'submit', options, model: modelOf(request) };
    return this.#call(spec, (res, ctx) => readSpeech(res, ctx, options?.maxBytes ?? DEFAULT_MAX_MEDIA_BYTES, options?.onAudio));
  }

  /** Transcribes audio in the request's dialect (transcription.ts), streamed when it asks and the model can. Paid work, retried as generateImage is. */
  async transcribeAudio(request: TranscriptionRequest, options?: TranscriptionOptions): Promise<Transcription> {
    const wire = transcriptionBody(request);
    const spec: CallSpec = { method: 'POST', path: '/audio/transcriptions', body: wire.body, contentType: wire.contentType, accept: wire.accept, policy: 'submit', options, model: modelOf(request) };
    return this.#call(spec, (res, ctx) => readTranscription(res, ctx, request, options?.onDelta));
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
      const ticket = await this.#paced(spec.options, attempt, spec.model);
      try {
        return await this.#attempt(spec, attempt, read, ticket);
      } catch (error) {
        if (!(error instanceof AttemptFailure)) throw error;
        failure = error;
      }
      const error = withAttempts(failure.error, attempt);
      const waitMs = this.#retryWait(spec.policy, failure, attempt - 1, spec.options?.maxRetries ?? this.#maxRetries);
      if (waitMs === undefined) throw error;
      // After a rate limit the pacer holds the next attempt for the server's wait, where the caller hears it (a countdown).
      if (this.#pacing && failure.error.kind === 'rate_limit') continue;
      try {
        await this.#sleep(waitMs, signal);
      } catch (sleepError) {
        if (signal?.aborted) throw withAttempts(abortedError(), attempt);
        throw sleepError;
      }
    }
  }

  /** Waits until the gateway's rate limit lets this attempt go (nothing is sent before); cancellable. */
  async #paced(options: RequestOptions | undefined, attempt: number, model: string | undefined): Promise<PaceTicket | undefined> {
    if (!this.#pacing) return undefined;
    const signal = options?.signal;
    try {
      return await this.#pacing.admit({ priority: options?.pace, ...(model !== undefined && { model }), signal, onWait: options?.onPaceWait });
    } catch (error) {
      if (signal?.aborted) throw withAttempts(abortedError(), attempt - 1);
      throw error;
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

  async #attempt<T>(spec: CallSpec, attempt: number, read: (res: ResponseData, ctx: AttemptContext) => Promise<T>, ticket?: PaceTicket): Promise<T> {
    let dispatcher: Dispatcher;
    try {
      dispatcher = this.#getDispatcher();
    } catch (error) {
      ticket?.done();
      throw error;
    }
    const control = new AttemptControl(this.#clock, spec.options?.signal, this.#timeoutMs, this.#idleTimeoutMs);
    const startedAt = this.#clock.now();
    const path = spec.fromOrigin ? spec.path : this.#basePath + spec.path;
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
        throw this.#failures.transport(error, control, spec.policy);
      }
      control.headersArrived();
      status = res.statusCode;
      const ok = status >= 200 && status < 300;
      // An error status is told to the pacer once its body says what it is: a budget's 429 is no rate limit.
      if (ok) ticket?.answered(status, res.headers as Headers);
      const arrived = res.headers as Headers;
      spec.options?.onResponseHeaders?.((name) => headerText(arrived, name));
      requestId = requestIdOf(res.headers as Headers, this.#apiKey);
      if (!ok) {
        const text = await readText(res.body, control, ERROR_BODY_LIMIT).catch(() => '');
        const failure = this.#failures.status(status, res.headers as Headers, text, requestId);
        ticket?.answered(pacedStatus(status, failure.error.kind), res.headers as Headers);
        if (control.cause === 'aborted') throw new AttemptFailure(this.#failures.abort('aborted', requestId, undefined), 'body');
        throw failure;
      }
      try {
        return await read(res, { control, requestId, failures: this.#failures });
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
      ticket?.done();
      logRequest(this.#logger, { method: spec.method, path, status, durationMs: this.#clock.now() - startedAt, requestId, attempt, errorCode });
    }
  }

  #headersFor(spec: CallSpec): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const extra of [this.#extraHeaders, spec.headers, spec.options?.headers]) {
      if (extra) for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
    }
    headers.accept = spec.accept;
    headers.authorization = `Bearer ${this.#apiKey}`;
    if (spec.body !== undefined) headers['content-type'] = spec.contentType ?? 'application/json';
    return headers;
  }

  #getDispatcher(): Dispatcher {
    if (this.#closed) throw new GatewayError({ status: 0, code: 'network', message: 'The gateway client was closed.' });
    if (this.#dispatcher) return this.#dispatcher;
    const undici = (this.#undici = loadUndici());
    const proxy = resolveProxy(new URL(this.#origin), this.#proxyOption, this.#env);
    const connect = { timeout: Math.min(this.#timeoutMs, 30_000) };
    this.#dispatcher = proxy
      ? new undici.ProxyAgent(proxyAgentSettings(proxy, this.#connections, connect, this.#proxyStrictSSL))
      : new undici.Pool(this.#origin, { connections: this.#connections, connect });
    return this.#dispatcher;
  }
}

function requestIdOf(headers: Headers, secret: string): string | undefined {
  const id = headerText(headers, 'x-request-id') ?? headerText(headers, 'request-id');
  return id === undefined ? undefined : redact(id, secret);
}


