// Reads a gateway's rate-limit headers: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` and the server's
// wait (`retry-after-ms`, `retry-after`). They are hostile input: every figure is read by a linear scan (no regex
// that could backtrack), bounded in length and size, and a value that is not plainly a figure is dropped, so
// nonsense leaves a figure unknown instead of wrong.
import { headerText, serverRetryDelayMs, type Headers } from './retry';

/** One budget (requests or tokens) as the answer stated it; a field the gateway did not state (or stated badly) is absent. */
export interface BudgetReading {
  limit?: number;
  remaining?: number;
  /** Milliseconds from the answer until the budget refills. */
  resetMs?: number;
}

export interface RateLimitReading {
  requests?: BudgetReading;
  tokens?: BudgetReading;
  /** The server's wait before the next request (a 429's Retry-After, or one sent with a success). */
  retryAfterMs?: number;
}

/** A reset or wait longer than a day is not believed: no gateway budget window is that long, a bug or a trick is. */
export const MAX_RESET_MS = 24 * 60 * 60 * 1000;
/** Budgets above this are not believed either (and stay exact as doubles). */
const MAX_COUNT = 1e12;
/** Header values longer than this are nonsense for a figure. */
const MAX_VALUE_CHARS = 40;
/** Bare numbers from here on are epoch seconds (2001-09-09 onward), below it a number of seconds to wait. */
const EPOCH_SECONDS_FROM = 1e9;

const UNIT_MS: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, 'μs': 0.001, ns: 0.000001 };

/** The readings of one answer's headers; `nowMs` is the wall time the answer arrived (for epoch resets and HTTP dates). */
export function readRateLimitHeaders(headers: Headers, nowMs: number): RateLimitReading {
  const reading: RateLimitReading = {};
  const requests = readBudget(headers, 'requests', nowMs);
  const tokens = readBudget(headers, 'tokens', nowMs);
  if (requests) reading.requests = requests;
  if (tokens) reading.tokens = tokens;
  const retryAfterMs = readRetryAfterMs(headers, nowMs);
  if (retryAfterMs !== undefined) reading.retryAfterMs = retryAfterMs;
  return reading;
}

/** True when the answer said anything about its budgets (a 429 without them teaches the pace instead). */
export function hasBudget(reading: RateLimitReading): boolean {
  return reading.requests !== undefined || reading.tokens !== undefined;
}

function readBudget(headers: Headers, unit: 'requests' | 'tokens', nowMs: number): BudgetReading | undefined {
  const limit = parseCount(headerText(headers, `x-ratelimit-limit-${unit}`));
  let remaining = parseCount(headerText(headers, `x-ratelimit-remaining-${unit}`));
  const resetText = headerText(headers, `x-ratelimit-reset-${unit}`);
  const resetMs = parseReset(resetText, nowMs);
  // A reset stated but unreadable (or over a day) makes the budget's figures doubtful: none is taken, rather than
  // a "0 left" held for a window the gateway never meant.
  if (resetMs === undefined && resetText !== undefined && resetText.trim() !== '') return undefined;
  // More left than the whole budget: one of the two is wrong and there is no telling which; the limit alone
  // misleads nobody (it only scales "below 10 %"), so the remaining figure goes.
  if (limit !== undefined && remaining !== undefined && remaining > limit) remaining = undefined;
  if (limit === undefined && remaining === undefined && resetMs === undefined) return undefined;
  const budget: BudgetReading = {};
  if (limit !== undefined && limit > 0) budget.limit = limit;
  if (remaining !== undefined) budget.remaining = remaining;
  if (resetMs !== undefined) budget.resetMs = resetMs;
  return Object.keys(budget).length > 0 ? budget : undefined;
}

/** The server's wait in ms, through the client's one reading of it (retry.ts), refused when negative or absurd. */
export function readRetryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = serverRetryDelayMs(headers, nowMs);
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_RESET_MS ? ms : undefined;
}

/** A plain non-negative integer of at most 13 digits ("12", not "1e3", "-1", "0x10", "12 " inside, or "1.5"). */
export function parseCount(value: string | undefined): number | undefined {
  const text = value?.trim();
  if (!text || text.length > 13) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const n = Number(text);
  return Number.isSafeInteger(n) && n <= MAX_COUNT ? n : undefined;
}

/**
 * A reset as milliseconds from now: a Go-style duration (`6m0s`, `1h2m3.5s`, `20s`, `1.5s`, `100ms`), a bare number
 * of seconds (`20`, `0.5`), or epoch seconds (`1732600000`, possibly fractional). Past epochs read 0; anything over a
 * day, negative, or not in these forms is undefined.
 */
export function parseReset(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text || text.length > MAX_VALUE_CHARS) return undefined;
  const bare = parseDecimal(text, 0);
  if (bare && bare.end === text.length) {
    if (bare.value >= EPOCH_SECONDS_FROM) {
      const ms = bare.value * 1000 - nowMs;
      return ms <= MAX_RESET_MS ? Math.max(0, ms) : undefined;
    }
    return within(bare.value * 1000);
  }
  return within(parseDuration(text));
}

/** A Go `time.Duration` string in ms: one or more number+unit pairs, nothing else. */
export function parseDuration(text: string): number | undefined {
  if (text.length === 0 || text.length > MAX_VALUE_CHARS) return undefined;
  let total = 0;
  let i = 0;
  while (i < text.length) {
    const number = parseDecimal(text, i);
    if (!number) return undefined;
    i = number.end;
    let unitEnd = i;
    while (unitEnd < text.length && !isDigitOrDot(text.charCodeAt(unitEnd))) unitEnd++;
    const unit = text.slice(i, unitEnd);
    const scale = UNIT_MS[unit];
    if (scale === undefined) return undefined;
    total += number.value * scale;
    i = unitEnd;
  }
  return total;
}

/** Digits with at most one dot and a digit on at least one side of it ("1", "1.5", ".5", "5."), from `start`. */
function parseDecimal(text: string, start: number): { value: number; end: number } | undefined {
  let i = start;
  let digits = 0;
  let dot = false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && !dot) dot = true;
    else break;
  }
  if (digits === 0 || digits > 20) return undefined;
  const value = Number(text.slice(start, i));
  return Number.isFinite(value) ? { value, end: i } : undefined;
}

function isDigitOrDot(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46;
}

function within(ms: number | undefined): number | undefined {
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_RESET_MS ? ms : undefined;
}
