// Whether a file can be attached as text: binary files and files over the size limit are refused with a message
// that says which and what to do, never cut silently.
/** Bytes inspected for the binary test (git looks at the first 8000 the same way). */
const SNIFF_BYTES = 8000;

/** A NUL byte, or too many control characters, in the first bytes means binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) control++;
  }
  return end > 0 && control / end > 0.1;
}

export type TextFileVerdict = { ok: true; text: string } | { ok: false; reason: string };

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function sizeRefusal(path: string, size: number, maxBytes: number): string {
  return `${path} is ${formatSize(size)}, over the ${formatSize(maxBytes)} limit for an attachment (modelGateway.chat.maxAttachmentKB). Attach a selection of it instead.`;
}

/** Reads a file's bytes as attachable text, or says why it cannot be attached. */
export function checkTextFile(path: string, bytes: Uint8Array, maxBytes: number): TextFileVerdict {
  if (bytes.length > maxBytes) return { ok: false, reason: sizeRefusal(path, bytes.length, maxBytes) };
  if (looksBinary(bytes)) return { ok: false, reason: `${path} looks like a binary file, not text; it was not attached.` };
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return { ok: true, text };
}

/** Whole lines of `text`, with the count (a final newline does not start another line). */
export function lineCount(text: string): number {
  if (text === '') return 1;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
