// Result links of video jobs: which ones may be opened, when they expire, and a streaming download to disk.
// Pure Node (no vscode). Downloads never carry the gateway key to another origin: credentials are only sent while
// the request goes to `credentialOrigin`, and are dropped on a redirect elsewhere.
import { createWriteStream, promises as fs } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { checkExternalUrl, type ExternalUrlCheck } from '../util/externalUrl';

/** Result links follow the extension's one rule for links it opens; an empty one means the job has none. */
export function checkResultUrl(value: unknown): ExternalUrlCheck {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'The job has no result link.' };
  return checkExternalUrl(value);
}

/** YYYYMMDDTHHMMSSZ, as in X-Amz-Date and X-Goog-Date. */
function parseCompactDate(text: string | null): number | undefined {
  const m = text ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text) : null;
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

function parseEpochOrDate(text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n > 1e12 ? n : n * 1000; // seconds unless it is clearly milliseconds
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

/**
 * When a signed result link stops working (epoch ms), read from its query: `expires` / `Expires` (Unix time or a
 * date), `X-Amz-Date` + `X-Amz-Expires`, `X-Goog-Date` + `X-Goog-Expires`, or Azure's `se` (with `sig`).
 * Undefined when the link says nothing about it.
 */
export function urlExpiry(url: string): number | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const byLowerName = new Map<string, string>();
  for (const [name, value] of params) if (!byLowerName.has(name.toLowerCase())) byLowerName.set(name.toLowerCase(), value);
  const get = (name: string) => byLowerName.get(name) ?? null;

  for (const [dateName, lifetimeName] of [['x-amz-date', 'x-amz-expires'], ['x-goog-date', 'x-goog-expires']]) {
    const lifetime = get(lifetimeName);
    if (lifetime !== null && /^\d+$/.test(lifetime)) {
      const signedAt = parseCompactDate(get(dateName));
      if (signedAt !== undefined) return signedAt + Number(lifetime) * 1000;
    }
  }
  const expires = get('expires');
  if (expires !== null) {
    const at = parseEpochOrDate(expires.trim());
    if (at !== undefined) return at;
  }
  const azureExpiry = get('se');
  if (azureExpiry !== null && get('sig') !== null) {
    const at = Date.parse(azureExpiry);
    if (!Number.isNaN(at)) return at;
  }
  return undefined;
}

/** A safe file name for a result: the link's own file name when it has a sensible one, else the job id. */
export function resultFileName(url: string, jobId: string | undefined, index: number): string {
  let base = '';
  try {
    base = decodeURIComponent(path.posix.basename(new URL(url).pathname));
  } catch {
    base = '';
  }
  const fallback = `${jobId ?? 'video'}${index > 0 ? `-${index + 1}` : ''}.mp4`;
  const clean = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 120);
  const name = clean(base);
  if (!/\.[A-Za-z0-9]{2,5}$/.test(name) || name.length < 4) return clean(fallback) || 'video.mp4';
  return name;
}

/** `name`, or `name (2).ext`, `name (3).ext`, … whichever does not exist in `directory` yet. */
export async function uniqueFilePath(directory: string, name: string): Promise<string> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; n < 10_000; n++) {
    const candidate = path.join(directory, n === 1 ? name : `${stem} (${n})${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`Too many files named like ${name} in ${directory}`);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}

export type DownloadErrorCode = 'bad_url' | 'http_status' | 'too_many_redirects' | 'network' | 'timeout' | 'aborted' | 'incomplete' | 'file';

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

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Called as bytes arrive; `total` is the Content-Length when the server sent one. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Extra headers sent only while the request goes to `credentialOrigin` (for a gateway that wants its key). */
  credentialHeaders?: Record<string, string>;
  credentialOrigin?: string;
  maxRedirects?: number;
  /** Longest silence on the socket before the download fails. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  file: string;
  bytes: number;
  contentType: string | undefined;
  /** The link the bytes finally came from (after redirects). */
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Streams `url` into `destination` (a new file; it must not exist). The bytes go to a temporary file next to it
 * first, so a failed or cancelled download leaves nothing behind.
 */
export async function downloadToFile(url: string, destination: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const checked = checkResultUrl(url);
  if (!checked.ok) throw new DownloadError('bad_url', checked.reason);
  const response = await openFollowingRedirects(checked.url, options);
  const partial = `${destination}.${process.pid}-${Date.now().toString(36)}.part`;
  try {
    const bytes = await writeBody(response.res, partial, options);
    if (await exists(destination)) throw new DownloadError('file', `${destination} already exists.`);
    await fs.rename(partial, destination);
    return { file: destination, bytes, contentType: headerOf(response.res, 'content-type'), finalUrl: response.url.toString() };
  } catch (error) {
    response.res.destroy();
    await fs.rm(partial, { force: true }).catch(() => undefined);
    throw error;
  }
}

function headerOf(res: http.IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function openFollowingRedirects(start: URL, options: DownloadOptions): Promise<{ res: http.IncomingMessage; url: URL }> {
  const maxRedirects = options.maxRedirects ?? 5;
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const res = await request(url, options);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      res.resume();
      const location = headerOf(res, 'location');
      if (!location) throw new DownloadError('http_status', `The server answered ${status} without a Location to follow.`, status);
      if (redirects >= maxRedirects) throw new DownloadError('too_many_redirects', `Gave up after ${maxRedirects} redirects.`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new DownloadError('bad_url', `The server redirected to an invalid URL: ${location.length > 80 ? `${location.slice(0, 79)}…` : location}`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new DownloadError('bad_url', `The server redirected to a ${next.protocol} link, which is not followed.`);
      url = next;
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new DownloadError('http_status', statusMessage(status), status);
    }
    return { res, url };
  }
}

function statusMessage(status: number): string {
  if (status === 403) return 'The server refused the download (HTTP 403). A signed result link stops working when it expires.';
  if (status === 404) return 'The result file is gone (HTTP 404).';
  if (status === 410) return 'The result file is gone (HTTP 410). A signed result link stops working when it expires.';
  return `The download failed with HTTP ${status}.`;
}

function request(url: URL, options: DownloadOptions): Promise<http.IncomingMessage> {
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(abortedError());
  const headers: Record<string, string> = { accept: 'video/*, */*;q=0.8', 'accept-encoding': 'identity' };
  if (options.credentialHeaders && options.credentialOrigin && url.origin === options.credentialOrigin) Object.assign(headers, options.credentialHeaders);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: 'GET', headers, signal });
    req.setTimeout(options.idleTimeoutMs ?? 30_000, () => req.destroy(new DownloadError('timeout', 'The server stopped sending the video.')));
    req.once('response', resolve);
    req.once('error', (error) => reject(translateError(error, signal)));
    req.end();
  });
}

function abortedError(): DownloadError {
  return new DownloadError('aborted', 'The download was cancelled.');
}

function translateError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortedError();
  if (error instanceof DownloadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DownloadError('network', `The download failed: ${message}`);
}

async function writeBody(res: http.IncomingMessage, file: string, options: DownloadOptions): Promise<number> {
  const lengthHeader = headerOf(res, 'content-length');
  const total = lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      options.onProgress?.(received, total);
      callback(null, chunk);
    },
  });
  res.setTimeout(options.idleTimeoutMs ?? 30_000, () => res.destroy(new DownloadError('timeout', 'The server stopped sending the video.')));
  try {
    await pipeline(res, counter, createWriteStream(file, { flags: 'wx' }), { signal: options.signal });
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    if (options.signal?.aborted) throw abortedError();
    if (isFileError(error)) throw new DownloadError('file', `Could not write ${file}: ${(error as Error).message}`);
    throw new DownloadError('incomplete', `The connection broke before the whole video arrived (${(error as Error)?.message ?? error}).`);
  }
  if (total !== undefined && received !== total) throw new DownloadError('incomplete', `Received ${received} of ${total} bytes; the connection broke before the whole video arrived.`);
  return received;
}

function isFileError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && ['EACCES', 'EEXIST', 'ENOENT', 'ENOSPC', 'EROFS', 'EISDIR', 'EPERM'].includes(code);
}

/** "3.0 KB", "12.4 MB" (one rule for every size the extension shows). */
export { formatBytes } from '../util/bytes';
