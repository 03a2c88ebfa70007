// Fetching result links: one request interface (so the transport can be the extension's proxy-aware one), the
// redirects followed here (never by the transport), and where a link finally leads. Pure Node (no vscode).
// The gateway key is sent only while a request goes to `credentialOrigin`, and is dropped on a redirect elsewhere.
import * as http from 'node:http';
import * as https from 'node:https';
import { realClock, type Clock } from '../util/clock';
import { checkResultUrl } from './resultLinks';

/** One answer, body unread. */
export interface FetchedResponse {
  readonly status: number;
  /** A header's value (first one when repeated); `name` in lower case. */
  header(name: string): string | undefined;
  readonly body: AsyncIterable<Uint8Array>;
  /** Stops reading and lets the connection go. */
  cancel(): void;
}

/** One request, exactly as given: no redirect followed, no header added. Rejects on a network failure. */
export type ResultFetch = (url: URL, init: { method: 'GET' | 'HEAD'; headers: Record<string, string>; signal: AbortSignal }) => Promise<FetchedResponse>;

/** The plain Node transport (no proxy): used until the gateway's proxy-aware fetcher is wired in. */
export const nodeResultFetch: ResultFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, { method: init.method, headers: init.headers, signal: init.signal });
    req.once('response', (res) => {
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name];
          return Array.isArray(value) ? value[0] : value;
        },
        body: res,
        cancel: () => res.destroy(),
      });
    });
    req.once('error', reject);
    req.end();
  });

export type DownloadErrorCode = 'bad_url' | 'http_status' | 'too_many_redirects' | 'network' | 'timeout' | 'aborted' | 'incomplete' | 'not_video' | 'too_large' | 'file';

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ResultRequestOptions {
  /** The transport; the plain Node one when not given. */
  fetch?: ResultFetch;
  signal?: AbortSignal;
  /** Extra headers sent only while the request goes to `credentialOrigin` (for a gateway that wants its key). */
  credentialHeaders?: Record<string, string>;
  credentialOrigin?: string;
  maxRedirects?: number;
  /** Longest wait for an answer or for the next bytes of the body. */
  idleTimeoutMs?: number;
  clock?: Clock;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const BASE_HEADERS = { accept: 'video/*, application/octet-stream;q=0.9, */*;q=0.1', 'accept-encoding': 'identity' };

/**
 * Aborts `signal` when nothing happened for `ms` (call `alive()` on progress), or when `outer` aborts. `timedOut`
 * tells the two apart.
 */
export class Watchdog {
  private readonly controller = new AbortController();
  private timer: ReturnType<Clock['setTimeout']> | undefined;
  private readonly onOuterAbort = () => this.controller.abort();
  timedOut = false;

  constructor(
    private readonly clock: Clock,
    private readonly ms: number,
    private readonly outer: AbortSignal | undefined,
  ) {
    if (outer?.aborted) this.controller.abort();
    outer?.addEventListener('abort', this.onOuterAbort, { once: true });
    this.alive();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  alive(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.ms);
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }

  /** The error to report for a failure that happened while this watchdog ran. */
  translate(error: unknown): unknown {
    if (error instanceof DownloadError) return error;
    if (this.timedOut) return new DownloadError('timeout', 'The server stopped answering.');
    if (this.outer?.aborted) return new DownloadError('aborted', 'The download was cancelled.');
    const message = error instanceof Error ? error.message : String(error);
    return new DownloadError('network', `The request failed: ${message}`);
  }
}

export function startWatchdog(options: ResultRequestOptions): Watchdog {
  return new Watchdog(options.clock ?? realClock, options.idleTimeoutMs ?? 30_000, options.signal);
}

type Send = (url: URL, headers: Record<string, string>, signal: AbortSignal) => Promise<FetchedResponse>;

/**
 * Sends `send` to `start` and to every redirect after it (http and https only, at most `maxRedirects`). Resolves
 * with the first answer that is not a redirect, whatever its status.
 */
async function followRedirects(start: string, options: ResultRequestOptions, watchdog: Watchdog, send: Send): Promise<{ response: FetchedResponse; url: URL }> {
  const checked = checkResultUrl(start);
  if (!checked.ok) throw new DownloadError('bad_url', checked.reason);
  const maxRedirects = options.maxRedirects ?? 5;
  let url = checked.url;
  for (let redirects = 0; ; redirects++) {
    const headers: Record<string, string> = { ...BASE_HEADERS };
    if (options.credentialHeaders && options.credentialOrigin && url.origin === options.credentialOrigin) Object.assign(headers, options.credentialHeaders);
    const response = await send(url, headers, watchdog.signal);
    watchdog.alive();
    if (!REDIRECTS.has(response.status)) return { response, url };
    response.cancel();
    const location = response.header('location');
    if (!location) throw new DownloadError('http_status', `The server answered ${response.status} without a Location to follow.`, response.status);
    if (redirects >= maxRedirects) throw new DownloadError('too_many_redirects', `Gave up after ${maxRedirects} redirects.`);
    url = redirectTarget(location, url);
  }
}

function redirectTarget(location: string, base: URL): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw new DownloadError('bad_url', `The server redirected to an invalid URL: ${location.length > 80 ? `${location.slice(0, 79)}…` : location}`);
  }
  const checked = checkResultUrl(next.toString());
  if (!checked.ok) throw new DownloadError('bad_url', `The server redirected to a link that is not followed. ${checked.reason}`);
  return checked.url;
}

function statusMessage(status: number): string {
  if (status === 403) return 'The server refused the download (HTTP 403). A signed result link stops working when it expires.';
  if (status === 404) return 'The result file is gone (HTTP 404).';
  if (status === 410) return 'The result file is gone (HTTP 410). A signed result link stops working when it expires.';
  return `The download failed with HTTP ${status}.`;
}

/** GET `url`, following redirects; the answer is a 200 with its body unread, or a DownloadError. */
export async function getResult(url: string, options: ResultRequestOptions, watchdog: Watchdog): Promise<{ response: FetchedResponse; url: URL }> {
  const fetch = options.fetch ?? nodeResultFetch;
  try {
    const answer = await followRedirects(url, options, watchdog, (target, headers, signal) => fetch(target, { method: 'GET', headers, signal }));
    if (answer.response.status !== 200) {
      answer.response.cancel();
      throw new DownloadError('http_status', statusMessage(answer.response.status), answer.response.status);
    }
    return answer;
  } catch (error) {
    throw watchdog.translate(error);
  }
}

/**
 * Where `url` finally leads after redirects, asked without downloading: HEAD, or for a hop that refuses HEAD (as
 * links signed for GET do) a GET of its first byte. Rejects with a DownloadError when the end is not a 2xx.
 */
export async function resolveFinalUrl(url: string, options: ResultRequestOptions = {}): Promise<string> {
  const fetch = options.fetch ?? nodeResultFetch;
  const watchdog = startWatchdog(options);
  try {
    const { response, url: final } = await followRedirects(url, options, watchdog, async (target, headers, signal) => {
      const head = await fetch(target, { method: 'HEAD', headers, signal });
      if (REDIRECTS.has(head.status) || (head.status >= 200 && head.status < 300)) return head;
      head.cancel();
      return fetch(target, { method: 'GET', headers: { ...headers, range: 'bytes=0-0' }, signal });
    });
    response.cancel();
    if (response.status < 200 || response.status >= 300) throw new DownloadError('http_status', statusMessage(response.status), response.status);
    return final.toString();
  } catch (error) {
    throw watchdog.translate(error);
  } finally {
    watchdog.stop();
  }
}
