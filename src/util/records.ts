// The check before reading fields of parsed JSON (gateway bodies, stored files): an object, not null, not an array;
// and the members a stored value's reader does not know, kept to write back. The chat protocol keeps its own isRecord
// (chatProtocol/validate.ts), since it imports nothing outside itself.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A stream event's or a line's JSON when it is an object; undefined when it is not JSON or not an object (skipped). */
export function parseRecord(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The members of `value` not named in `known`: what a stored value's reader keeps aside to write back unchanged, so
 * members a newer version added round-trip. Own data properties only (fromEntries), so a `__proto__` member stays a key.
 */
export function otherMembers(value: Record<string, unknown>, known: Iterable<string>): Record<string, unknown> {
  const skip = new Set(known);
  return Object.fromEntries(Object.entries(value).filter(([name]) => !skip.has(name)));
}
