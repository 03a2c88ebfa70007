// Small structural checks for data that crosses a trust boundary (webview messages, files on disk). Pure and
// browser-safe: the webview bundle uses them too.

export type Fields = Record<string, unknown>;

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

export function isFiniteIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

export function isArrayOf<T>(value: unknown, maxItems: number, check: (item: unknown) => item is T): value is T[] {
  return Array.isArray(value) && value.length <= maxItems && value.every((item) => check(item));
}

/** Ids become file names: only a safe alphabet, never a path. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value);
}

export function optional<T>(check: (value: unknown) => value is T): (value: unknown) => value is T | undefined {
  return (value: unknown): value is T | undefined => value === undefined || check(value);
}
