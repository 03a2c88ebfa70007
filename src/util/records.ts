// The check before reading fields of parsed JSON (gateway bodies, stored files): an object, not null, not an array.
// The chat protocol keeps its own (chatProtocol/validate.ts), since it imports nothing outside itself.

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
