// Reading untrusted answer fields, shared by the dialect adapters: every string bounded, every number checked,
// every link on the extension's link rule, and anything the key goes to on the profile's own origin. Pure; no
// regular expressions on the answers.
import { jobIdProblem } from '../../../gateway/responseReaders';
import { checkExternalUrl } from '../../../util/externalUrl';
import { isRecord } from '../../../util/records';
import { DialectError, type DialectContext, type ResultLink } from './types';

export const MAX_ID_LENGTH = 256;
export const MAX_STATUS_LENGTH = 64;
export const MAX_MESSAGE_LENGTH = 2_000;
export const MAX_URL_LENGTH = 8_192;
export const MAX_LINKS = 8;
export const DASHSCOPE_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Costs above this are not a video job's: the field is read as nonsense rather than as a bill. */
const MAX_COST_USD = 100_000;

/** The member at a path of nested objects, or undefined. */
export function at(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const name of path) {
    if (!isRecord(node) || !Object.hasOwn(node, name)) return undefined;
    node = node[name];
  }
  return node;
}

/** A string, cut to `max` characters; undefined for anything else. */
export function boundedText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** A finite number (or a plain decimal string of one), else undefined. */
export function finiteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 32) return undefined;
  for (const char of value) if ((char < '0' || char > '9') && char !== '.') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** A job id that can go into a poll path: a non-empty string of bounded length with no dot segments. */
export function jobId(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw new DialectError(`The gateway's answer has no job id (${where}).`);
  if (value.length > MAX_ID_LENGTH) throw new DialectError(`The gateway's job id is longer than ${MAX_ID_LENGTH} characters.`);
  for (const char of value) if (char < ' ' || char === '\u007f') throw new DialectError("The gateway's job id has control characters.");
  const problem = jobIdProblem(value);
  if (problem) throw new DialectError(`The gateway's job id cannot be checked: ${problem}`);
  return value;
}

/** The status word, bounded; '' when there is none. */
export function statusWord(value: unknown): string {
  return boundedText(value, MAX_STATUS_LENGTH)?.trim() ?? '';
}

/** Progress in percent, only when it is a number from 0 to 100. */
export function percent(value: unknown): number | undefined {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  return n !== undefined && n >= 0 && n <= 100 ? n : undefined;
}

/** A cost in USD that can be a job's, else undefined. */
export function usd(value: unknown): number | undefined {
  const n = finiteNumber(value);
  return n !== undefined && n >= 0 && n <= MAX_COST_USD ? n : undefined;
}

/**
 * An expiry time as epoch ms: Unix seconds, or milliseconds when the number is clearly too big for seconds (one
 * gateway documents milliseconds); an ISO date string is read too. Undefined for anything else.
 */
export function expiryMs(value: unknown): number | undefined {
  const n = finiteNumber(value);
  if (n !== undefined) {
    if (n <= 0) return undefined;
    const ms = n > 1e11 ? n : n * 1000;
    return ms < 8.64e15 ? Math.floor(ms) : undefined;
  }
  const text = boundedText(value, 64);
  if (text === undefined) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

/** The error text and code, from `{message, code}`, a bare string, or separate members. */
export function errorOf(error: unknown, code?: unknown): { message: string; code?: string } | undefined {
  const message = typeof error === 'string' ? error : at(error, 'message');
  const text = boundedText(message, MAX_MESSAGE_LENGTH)?.trim();
  const codeValue = code ?? at(error, 'code');
  const codeText = typeof codeValue === 'number' && Number.isFinite(codeValue) ? String(codeValue) : boundedText(codeValue, MAX_STATUS_LENGTH);
  if (!text && !codeText) return undefined;
  return { message: text || `The gateway reported error ${codeText}.`, ...(codeText && { code: codeText }) };
}

/** The base URL without a trailing slash. */
export function baseOf(ctx: DialectContext): URL {
  const url = new URL(ctx.baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DialectError(`The base URL must be http(s), not ${url.protocol}`);
  url.pathname = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  url.search = '';
  url.hash = '';
  return url;
}

/** An absolute URL for a path below the base URL (`/videos/…`). */
export function underBase(ctx: DialectContext, path: string): string {
  const base = baseOf(ctx);
  return `${base.origin}${base.pathname}${path}`;
}

/**
 * A link the gateway gave, resolved against the base URL when relative (`/api/v1/videos/…` or `videos/…`). With
 * `sameOrigin`, only a link on the profile's own origin is kept: the key goes with it.
 */
export function linkOf(value: unknown, ctx: DialectContext, sameOrigin: boolean): string | undefined {
  const text = boundedText(value, MAX_URL_LENGTH);
  if (text === undefined || text.length === MAX_URL_LENGTH || text.trim() === '') return undefined;
  const base = baseOf(ctx);
  let resolved: string;
  try {
    resolved = new URL(text.trim(), `${base.origin}${base.pathname}/`).toString();
  } catch {
    return undefined;
  }
  const checked = checkExternalUrl(resolved);
  if (!checked.ok) return undefined;
  if (sameOrigin && checked.url.origin !== base.origin) return undefined;
  return checked.url.toString();
}

/** Links from an array (bounded in count), each checked as linkOf does. */
export function linksOf(value: unknown, ctx: DialectContext, needsKey: boolean): ResultLink[] {
  if (!Array.isArray(value)) return [];
  const links: ResultLink[] = [];
  for (const item of value.slice(0, MAX_LINKS)) {
    const url = linkOf(typeof item === 'string' ? item : at(item, 'url'), ctx, needsKey);
    if (url) links.push({ url, needsKey, variant: 'video' });
  }
  return links;
}

export function jsonPost(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}): { method: 'POST'; url: string; headers: Record<string, string>; body: string } {
  return { method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** The resolution when it is a size (`1280x720`): width and height, else undefined. */
export function sizeOf(resolution: string | undefined): { width: number; height: number } | undefined {
  if (resolution === undefined || resolution.length > 16) return undefined;
  const parts = resolution.toLowerCase().split('x');
  if (parts.length !== 2) return undefined;
  const [width, height] = parts.map((part) => (part !== '' && [...part].every((c) => c >= '0' && c <= '9') ? Number(part) : NaN));
  return Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { width, height } : undefined;
}

/** Builds a state lookup from a table of lower-case words. */
export function stateLookup<S extends string>(table: Record<string, S>): (word: string) => S | 'unknown' {
  const map = new Map(Object.entries(table));
  return (word) => map.get(word.toLowerCase()) ?? 'unknown';
}
