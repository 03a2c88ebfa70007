// Audio sent to a page while it arrives, in pieces: the one home of a piece's bounds and check, shared by the
// streaming speech player (webview/player/protocol.ts) and the chat's /speak card (messages.ts). A piece is base64
// of at most MAX_PIECE_BYTES, so a message stays small whatever piece the gateway sent; all of them together are at
// most the speech size limit, which the host counts. Browser-safe, and imports nothing.

/** Bytes of audio in one piece message. */
export const MAX_PIECE_BYTES = 48 * 1024;
const MAX_PIECE_CHARS = (MAX_PIECE_BYTES / 3) * 4;

/** The audio types a page may play as they arrive (through Media Source Extensions; the page still asks its browser). */
export const STREAMED_AUDIO_TYPES = ['audio/mpeg', 'audio/aac', 'audio/webm'] as const;
export type StreamedAudioType = (typeof STREAMED_AUDIO_TYPES)[number];

export function isStreamedAudioType(value: unknown): value is StreamedAudioType {
  return (STREAMED_AUDIO_TYPES as readonly unknown[]).includes(value);
}

/** 1 for a character of the standard base64 alphabet, by char code below 128. */
const DIGIT = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') DIGIT[c.charCodeAt(0)] = 1;

/** Base64 of at most MAX_PIECE_BYTES: whole groups of four, no whitespace, checked in one pass (no regex: the text is untrusted). */
export function isPieceData(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PIECE_CHARS || value.length % 4 !== 0) return false;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  for (let i = 0; i < value.length - padding; i++) {
    const c = value.charCodeAt(i);
    if (c >= 128 || DIGIT[c] !== 1) return false;
  }
  return true;
}

/** Audio as the base64 of its pieces, none over MAX_PIECE_BYTES (whole base64 groups: 48 KiB is a multiple of 3). */
export function pieceData(bytes: Uint8Array, toBase64: (bytes: Uint8Array) => string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < bytes.length; at += MAX_PIECE_BYTES) pieces.push(toBase64(bytes.subarray(at, at + MAX_PIECE_BYTES)));
  return pieces;
}
