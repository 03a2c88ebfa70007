// Base64 from untrusted answers, checked in one pass over the characters: a regex such as
// /^[A-Za-z0-9+/\s]*={0,2}\s*$/ backtracks quadratically on "A", a long run of spaces and one bad character, which
// froze the extension host for minutes on a 400 KB answer. Browser-safe.

const SPACE = 32;
const EQUALS = 61;

/** 1 for a base64 alphabet character (standard alphabet), 2 for whitespace, 0 otherwise; by char code below 128. */
const CLASS = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') CLASS[c.charCodeAt(0)] = 1;
for (const c of [SPACE, 9, 10, 11, 12, 13]) CLASS[c] = 2;

/**
 * The number of bytes `text` decodes to, or undefined when it is not base64: alphabet characters and whitespace,
 * then at most two `=`, then only whitespace. Linear time; nothing is decoded, so a caller can refuse an answer by
 * its size before it allocates it.
 */
export function base64DecodedLength(text: string): number | undefined {
  let digits = 0;
  let padding = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const kind = c < 128 ? CLASS[c] : 0;
    if (kind === 2) continue;
    if (kind === 1 && padding === 0) digits++;
    else if (c === EQUALS && padding < 2) padding++;
    else return undefined;
  }
  return Math.floor((digits * 3) / 4);
}
