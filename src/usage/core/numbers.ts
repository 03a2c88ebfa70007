// The one check for every figure the ledger takes from outside (the gateway's model list, its cost header, its
// `usage` block, the user's price setting): a wrong figure is worse than none, so anything odd is kept as unknown.

/** Most USD a single price may be per unit, per kind of unit. Past it the price is refused, not believed. */
export const PRICE_LIMITS = { perToken: 0.01, perImage: 1_000, perRequest: 1_000, perSecond: 1_000, perCharacter: 0.01 } as const;

/** Most USD one request may report: a larger header is refused. */
export const MAX_REPORTED_COST = 10_000;

/** Most tokens one request may report (per field). */
export const MAX_TOKENS = 100_000_000;

/** Plain decimal text: digits, an optional fraction. No sign, no exponent, no spaces, bounded lengths (no backtracking). */
const PLAIN_DECIMAL = /^[0-9]{1,15}(?:\.[0-9]{1,30})?$/;

/**
 * A non-negative amount no larger than `max`, from a JSON number or plain decimal text; undefined for anything
 * else (negative, NaN, Infinity, exponent notation in text, empty, over `max`).
 */
export function amountOf(value: unknown, max: number): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (text.length > 48 || !PLAIN_DECIMAL.test(text)) return undefined;
    n = Number(text);
  } else return undefined;
  return Number.isFinite(n) && n >= 0 && n <= max ? n : undefined;
}

/** A token (or character, image) count: a whole number in [0, max] given as a JSON number; undefined otherwise. */
export function countOf(value: unknown, max: number = MAX_TOKENS): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= max ? value : undefined;
}
