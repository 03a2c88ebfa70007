// Small structural checks and normalisers for data that crosses a trust boundary (webview messages, files on disk,
// gateway replies). Pure and browser-safe: the webview bundle uses them too.
//
// Each shape has one normaliser ("cleaner"): it returns the value cut down to what the protocol accepts (long
// text clipped, missing fields filled, malformed parts dropped), or undefined when nothing usable is left. The
// strict check for a shape is derived from it: a value is valid when cleaning would leave it as it is.

export type Fields = Record<string, unknown>;

/** Returns the usable form of a value, or undefined when there is none. */
export type Cleaner<T> = (value: unknown) => T | undefined;

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` is an object with no keys besides `allowed` (extra keys mean a malformed message). */
export function hasOnlyKeys(value: Fields, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

export function isText(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength;
}

export function isNonEmptyText(value: unknown, maxLength: number): value is string {
  return isText(value, maxLength) && value.length > 0;
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Ids become file names: only a safe alphabet, never a path. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

/** The first `max` UTF-16 units of `text`, never ending in half a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** A string clipped to `max`; anything else is unusable. */
export function cleanText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? clip(value, max) : undefined;
}

/** A non-negative whole number (rounded, capped at the largest safe integer); anything else is unusable. */
export function cleanCount(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return Math.min(Math.round(value), Number.MAX_SAFE_INTEGER);
}

/** The usable items of an array, at most `max` of them; a non-array has none. */
export function cleanArray<T>(value: unknown, max: number, item: Cleaner<T>): T[] {
  if (!Array.isArray(value)) return [];
  const kept: T[] = [];
  for (const raw of value) {
    if (kept.length >= max) break;
    const cleaned = item(raw);
    if (cleaned !== undefined) kept.push(cleaned);
  }
  return kept;
}

/** Deep equality for JSON-like data; a key whose value is undefined counts as absent. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const keysA = Object.keys(a).filter((k) => a[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => b[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameData(a[k], b[k]));
}

/** The strict check derived from a cleaner: valid when cleaning changes nothing. */
export function conforms<T>(value: unknown, clean: Cleaner<T>): value is T {
  const cleaned = clean(value);
  return cleaned !== undefined && sameData(cleaned, value);
}
