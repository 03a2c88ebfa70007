/**
 * Turns streamed text into what markdown-it sees (`\r\n` and `\r` become `\n`) without being fooled by a `\r\n` split
 * across two deltas: a trailing `\r` is held back until the next delta shows whether a `\n` follows.
 */
export class LineEndingNormalizer {
  private heldCarriageReturn = false;

  push(delta: string): string {
    let text = this.heldCarriageReturn ? '\r' + delta : delta;
    this.heldCarriageReturn = text.endsWith('\r');
    if (this.heldCarriageReturn) text = text.slice(0, -1);
    return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  }

  finish(): string {
    const rest = this.heldCarriageReturn ? '\n' : '';
    this.heldCarriageReturn = false;
    return rest;
  }
}

/** Drops a trailing lone high surrogate (the other half of the pair is still on its way). */
export function withoutDanglingSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
