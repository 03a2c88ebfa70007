// When to try a request again and how long to wait first. Mirrors openai-node (../shared/fixtures/sse/
// RETRY-RULES.md) with one deliberate difference: a server-requested wait longer than the allowed maximum is
// never shortened to a default backoff. The call fails instead, carrying the wait, and nothing is sent before
// the server's time is up.

export type HeaderValue = string | string[] | undefined;
export type Headers = Record<string, HeaderValue>;

export function headerText(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait the server asked for, in milliseconds: `retry-after-ms` (float ms), then `Retry-After` as float
 * seconds, then `Retry-After` as an HTTP date relative to `nowMs`. Undefined when absent or unreadable.
 * A date in the past gives 0.
 */
export function serverRetryDelayMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headerText(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms.trim());
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headerText(headers, 'retry-after')?.trim();
  if (after === undefined || after === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;

/** openai-node's default: min(0.5 s · 2^n, 8 s), minus up to 25 % jitter; n = retries already made. */
export function defaultBackoffMs(retriesMade: number, random: () => number): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** retriesMade, MAX_BACKOFF_MS);
  return base * (1 - random() * 0.25);
}

/** Statuses worth another try: request timeout, lock conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's explicit verdict (`x-should-retry: true|false`), when it gives one. */
export function serverRetryVerdict(headers: Headers): boolean | undefined {
  const value = headerText(headers, 'x-should-retry');
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}
