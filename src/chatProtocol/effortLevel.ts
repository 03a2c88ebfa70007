// A reasoning effort level, in a file of its own: the models feature checks the levels a model list names at
// activation, without the rest of the session normaliser (sessionData.ts), which loads with the chat.

/** A reasoning effort level as a model list names it (`low`, `x-high`…): a short word, else undefined. */
export function cleanEffortLevel(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 32) return undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;
    if (!ok) return undefined;
  }
  return value;
}
