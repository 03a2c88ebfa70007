// The check before reading fields of parsed JSON (gateway bodies, stored files): an object, not null, not an array.
// The chat protocol keeps its own (chatProtocol/validate.ts), since it imports nothing outside itself.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
