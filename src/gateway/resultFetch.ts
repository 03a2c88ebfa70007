// Fetching result files (video links) through the same proxy resolution as API calls. No `vscode` import.
//
// Redirects are followed here, hop by hop, so that every hop passes the extension's one link rule and so that the
// gateway's credentials (its key and the configured extra headers) go only to the gateway's own origin: they are
// rebuilt for each hop and sent only while the hop's origin is exactly `credentials.origin`.

import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { checkExternalUrl, shorten } from '../util/externalUrl';
import { formatBytes } from '../util/bytes';
import { formatSeconds } from './failures';
import { errorCodeOf, networkFailureSentence } from './networkErrors';
import { proxyAgentSettings, resolveProxy, type ProxyEnv } from './proxy';
import { loadUndici } from './undiciLoader';

export type ResultFetchErrorCode = 'bad_url' | 'bad_redirect' | 'too_many_redirects' | 'network' | 'timeout' | 'aborted' | 'http_status' | 'too_large';

export class ResultFetchError extends Error {
  override readonly name = 'ResultFetchError';
  constructor(
    readonly code: ResultFetchErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Headers that go only to one origin (the gateway's): its key and the configured extra headers. */
export interface ResultCredentials {
  origin: string;
  headers: Record<string, string>;
}

export interface OpenResultOptions {
  method?: 'GET' | 'HEAD';
  /** A Range header value, e.g. `bytes=0-0`; kept across redirects. */
  range?: string;
  /** Default `video/*, *\/*;q=0.8`. */
  accept?: string;
  signal?: AbortSignal;
  /** Proxy URL; `false` never uses one; undefined uses HTTPS_PROXY/HTTP_PROXY/NO_PROXY, as the client does. */
  proxy?: string | false;
  /** VS Code's `http.proxyStrictSSL`: false skips certificate checks on the proxy path only. Default true. */
  proxyStrictSSL?: boolean;
  /** Environment read for proxy settings. Default process.env. */
  env?: ProxyEnv;
  /** Sent only while a hop goes to `credentials.origin`. */
  credentials?: ResultCredentials;
  /** Default 5. */
  maxRedirects?: number;
  /** Connecting plus waiting for the response headers, per hop. Default 30 s. */
  timeoutMs?: number;
  /** Longest silence while the body is read. Default 30 s. */
  idleTimeoutMs?: number;
}

export interface ResultResponse {
  /** The status of the last hop (never a followed redirect). Any status is returned; the caller judges it. */
  status: number;
  /** Lower-case names; the first value of repeated headers. */
  headers: Record<string, string>;
  /** The URL the response finally came from, after redirects. */
  finalUrl: string;
  redirects: number;
  /** The body, as a Node stream (also an AsyncIterable<Uint8Array>). Failures are ResultFetchErrors. Destroy it to stop. */
  body: Readable;
}

export interface ResolvedResult {
  finalUrl: string;
  /** The status of the HEAD, or of the ranged GET when HEAD was refused. */
  status: number;
  contentType: string | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;

/** Opens `url` (http/https only), following redirects itself. Resolves once the final hop's headers arrive. */
export async function openResult(url: string, options: OpenResultOptions = {}): Promise<ResultResponse> {
  const checked = checkExternalUrl(url);
  if (!checked.ok) throw new ResultFetchError('bad_url', checked.reason);
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = checked.url;
  let method = options.method ?? 'GET';
  for (let redirects = 0; ; redirects++) {
    const hop = await requestOnce(current, method, options);
    if (!REDIRECTS.has(hop.status)) {
      return { status: hop.status, headers: hop.headers, finalUrl: current.toString(), redirects, body: hop.body };
    }
    hop.body.destroy();
    const location = hop.headers.location;
    if (!location) throw new ResultFetchError('bad_redirect', `The server answered ${hop.status} without a Location to follow.`);
    if (redirects >= maxRedirects) throw new ResultFetchError('too_many_redirects', `Gave up after ${maxRedirects} redirects.`);
    current = nextHop(location, current);
    if (hop.status === 303 && method !== 'HEAD') method = 'GET';
  }
}

export interface FetchedResult {
  bytes: Buffer;
  /** As the server declared it; callers that care read the bytes themselves. */
  contentType: string | undefined;
  finalUrl: string;
}

/**
 * The whole body of a small result (a generated image): a 200 only, refused when its Content-Length or the bytes
 * received pass `maxBytes` (the connection is closed at once), cut-off bodies refused.
 */
export async function fetchResultBytes(url: string, options: Omit<OpenResultOptions, 'method' | 'range'> & { maxBytes: number }): Promise<FetchedResult> {
  const response = await openResult(url, { ...options, method: 'GET' });
  const { body, headers } = response;
  try {
    if (response.status !== 200) throw new ResultFetchError('http_status', `${new URL(response.finalUrl).host} answered HTTP ${response.status}${response.status === 403 || response.status === 410 ? ' (a signed link stops working when it expires)' : ''}.`);
    const declared = headers['content-length'];
    const tooLarge = () => new ResultFetchError('too_large', `The file at ${shorten(response.finalUrl, 60)} is larger than the limit of ${formatBytes(options.maxBytes)}.`);
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > options.maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks), contentType: headers['content-type'], finalUrl: response.finalUrl };
  } finally {
    body.destroy();
  }
}

/**
 * Where a result link finally leads (for a preview that must allow that origin): a HEAD, or, when the server
 * refuses HEAD (405, or a signed link that is only valid for GET), a GET of its first byte.
 */
export async function resolveFinalUrl(url: string, options: Omit<OpenResultOptions, 'method' | 'range'> = {}): Promise<ResolvedResult> {
  const head = await openResult(url, { ...options, method: 'HEAD' });
  head.body.destroy();
  if (head.status < 400) return { finalUrl: head.finalUrl, status: head.status, contentType: head.headers['content-type'] };
  const get = await openResult(url, { ...options, method: 'GET', range: 'bytes=0-0' });
  get.body.destroy();
  return { finalUrl: get.finalUrl, status: get.status, contentType: get.headers['content-type'] };
}

/** Whether a result link can still be fetched, as the extension itself found out (checkResultLink). */
export type ResultLinkCheck =
  | { state: 'available'; finalUrl: string; contentType: string | undefined }
  /** A definitive answer: 404, 410, or a 403 that says the link expired. Only this is "expired". */
  | { state: 'gone'; status: number; message: string }
  /** Anything else that failed (no network, a timeout, a 5xx, a 429, another 4xx): worth a retry. */
  | { state: 'unavailable'; message: string };

const GONE_STATUSES = new Set([404, 410]);
/** How much of a 403's body is read to see whether it says the link expired. */
const EXPIRY_NOTE_BYTES = 4096;

/**
 * Asks where a result link leads and whether it still answers: a HEAD, or, when that is refused, a GET of the first
 * byte (signed links are often valid for GET only), following redirects hop by hop (http(s) only, at most
 * `maxRedirects`), reading at most 4 KB of an error body. Never rejects except when cancelled.
 */
export async function checkResultLink(url: string, options: Omit<OpenResultOptions, 'method' | 'range'> = {}): Promise<ResultLinkCheck> {
  try {
    const head = await openResult(url, { ...options, method: 'HEAD' });
    head.body.destroy();
    if (head.status < 400) return { state: 'available', finalUrl: head.finalUrl, contentType: head.headers['content-type'] };
    const get = await openResult(url, { ...options, method: 'GET', range: 'bytes=0-0' });
    try {
      if (get.status < 400) return { state: 'available', finalUrl: get.finalUrl, contentType: get.headers['content-type'] };
      const host = new URL(get.finalUrl).host;
      if (GONE_STATUSES.has(get.status) || (get.status === 403 && (await saysExpired(get.body)))) {
        return { state: 'gone', status: get.status, message: `${host} answered HTTP ${get.status}: the link no longer works.` };
      }
      return { state: 'unavailable', message: `${host} answered HTTP ${get.status}.` };
    } finally {
      get.body.destroy();
    }
  } catch (error) {
    if (error instanceof ResultFetchError && error.code === 'aborted') throw error;
    return { state: 'unavailable', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether the start of an error body says "expired" (S3's "Request has expired", a gateway's own JSON error…). */
async function saysExpired(body: Readable): Promise<boolean> {
  let text = '';
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      text += chunk.toString('latin1');
      if (text.length >= EXPIRY_NOTE_BYTES) break;
    }
  } catch {
    // A body cut off is read as far as it came.
  }
  return text.slice(0, EXPIRY_NOTE_BYTES).toLowerCase().includes('expired');
}

function nextHop(location: string, from: URL): URL {
  let resolved: string;
  try {
    resolved = new URL(location, from).toString();
  } catch {
    throw new ResultFetchError('bad_url', `The server redirected to an invalid URL: ${shorten(location)}`);
  }
  const checked = checkExternalUrl(resolved);
  if (!checked.ok) throw new ResultFetchError('bad_url', `The server redirected to a link that is not followed. ${checked.reason}`);
  return checked.url;
}

interface Hop {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

async function requestOnce(url: URL, method: 'GET' | 'HEAD', options: OpenResultOptions): Promise<Hop> {
  const signal = options.signal;
  if (signal?.aborted) throw abortedError();
  const undici = loadUndici();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const proxy = resolveProxy(url, options.proxy, options.env ?? process.env);
  const connect = { timeout: Math.min(timeoutMs, 30_000) };
  const dispatcher: Dispatcher = proxy
    ? new undici.ProxyAgent(proxyAgentSettings(proxy, 1, connect, options.proxyStrictSSL))
    : new undici.Pool(url.origin, { connections: 1, connect });
  let response: Dispatcher.ResponseData;
  try {
    response = await undici.request(dispatcher, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers: headersFor(url, options),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: idleTimeoutMs,
    });
  } catch (error) {
    void dispatcher.destroy().catch(() => undefined);
    throw translateError(error, signal, url, options);
  }
  const body = new ResultBody(response.body, (error) => translateError(error, signal, url, options));
  body.once('close', () => void dispatcher.destroy().catch(() => undefined));
  return { status: response.statusCode, headers: flatHeaders(response.headers), body };
}

function headersFor(url: URL, options: OpenResultOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const credentials = options.credentials;
  if (credentials && url.origin === credentials.origin) {
    for (const [name, value] of Object.entries(credentials.headers)) headers[name.toLowerCase()] = value;
  }
  headers.accept = options.accept ?? 'video/*, */*;q=0.8';
  headers['accept-encoding'] = 'identity';
  if (options.range) headers.range = options.range;
  return headers;
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') flat[name.toLowerCase()] = first;
  }
  return flat;
}

/** Forwards the undici body with back-pressure, turning its failures into ResultFetchErrors. */
class ResultBody extends Readable {
  #ended = false;

  constructor(
    private readonly source: Readable,
    private readonly translate: (error: unknown) => ResultFetchError,
  ) {
    super();
    source.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) source.pause();
    });
    source.once('end', () => {
      this.#ended = true;
      this.push(null);
    });
    source.once('error', (error) => this.destroy(this.translate(error)));
    source.once('close', () => {
      if (!this.#ended && !this.destroyed) this.destroy(new ResultFetchError('network', 'The connection closed before the whole file arrived.'));
    });
  }

  override _read(): void {
    this.source.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.source.destroy();
    callback(error);
  }
}

function abortedError(): ResultFetchError {
  return new ResultFetchError('aborted', 'The download was cancelled.');
}

function translateError(error: unknown, signal: AbortSignal | undefined, url: URL, options: OpenResultOptions): ResultFetchError {
  if (error instanceof ResultFetchError) return error;
  if (signal?.aborted) return abortedError();
  const code = errorCodeOf(error);
  const where = url.host;
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return new ResultFetchError('timeout', networkFailureSentence(code, where)!);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ResultFetchError('timeout', `${where} did not answer within ${formatSeconds(options.timeoutMs ?? DEFAULT_TIMEOUT_MS)}.`);
    case 'UND_ERR_BODY_TIMEOUT':
      return new ResultFetchError('timeout', `${where} sent nothing for ${formatSeconds(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS)}.`);
  }
  const sentence = networkFailureSentence(code, where);
  const detail = error instanceof Error ? error.message : String(error);
  return new ResultFetchError('network', sentence ? `${sentence} (${code})` : `The request to ${where} failed${code ? ` (${code})` : ''}: ${detail}`);
}
