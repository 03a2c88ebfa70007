// The streaming speech player's messages, checked on both sides the way every webview's are (webviewProtocol.ts):
// the host trusts nothing the page sends, and the page takes only pieces of audio of the expected size and shape.
// The page says whether it can play the audio as it arrives (Media Source Extensions take its type); the host then
// sends the audio in pieces (base64, each at most MAX_PIECE_BYTES; all of them at most the speech size limit, which
// the host counts), `end` once the gateway has sent all of it, and `complete` with the kept file (or `failed`).
// Browser-safe: no Node, no vscode.
import { clip, isId, isText } from '../../chatProtocol/validate';
import { exactly, messageOf, type Shapes } from '../../chatProtocol/webviewProtocol';
import { isPieceData, pieceData } from '../../chatProtocol/audioPieces';

export { isPieceData, MAX_PIECE_BYTES } from '../../chatProtocol/audioPieces';
const MAX_URL = 4096;
const MAX_MESSAGE = 500;

/** The page to the host: loaded, and whether it plays the audio as it arrives (else only once it is complete). */
export type PlayerRequest = { type: 'ready'; streaming: boolean };

/** The host to the page. */
export type PlayerUpdate =
  | { type: 'piece'; data: string }
  | { type: 'end' }
  /** The kept file (a webview resource URI) and its history entry, whose Save and Open links the page shows. */
  | { type: 'complete'; src: string; entry: string }
  | { type: 'failed'; message: string };

/** A link the page may load the kept file from: http(s) only. */
export function isFileSource(value: unknown): value is string {
  if (!isText(value, MAX_URL) || value === '') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export const PLAYER_SHAPES: { page: Shapes<PlayerRequest>; host: Shapes<PlayerUpdate> } = {
  page: { ready: { streaming: exactly((v): v is boolean => typeof v === 'boolean') } },
  host: {
    piece: { data: exactly(isPieceData) },
    end: {},
    complete: { src: exactly(isFileSource), entry: exactly(isId) },
    // A long error is cut to what the page shows.
    failed: { message: (v) => (typeof v === 'string' ? clip(v, MAX_MESSAGE) : undefined) },
  },
};

/** A message from the page, or undefined for anything else. */
export function parsePlayerRequest(value: unknown): PlayerRequest | undefined {
  return messageOf<PlayerRequest>(value, PLAYER_SHAPES.page);
}

/** A message from the host, or undefined for anything the page should not act on. */
export function parsePlayerUpdate(value: unknown): PlayerUpdate | undefined {
  return messageOf<PlayerUpdate>(value, PLAYER_SHAPES.host);
}

/** Audio as `piece` messages, none over MAX_PIECE_BYTES. */
export function pieceMessages(bytes: Uint8Array, toBase64: (bytes: Uint8Array) => string): PlayerUpdate[] {
  return pieceData(bytes, toBase64).map((data) => ({ type: 'piece', data }));
}

/** A `command:` link the page may follow (the webview allows only the media page commands): the entry and the file's index. */
export function commandLink(command: string, entry: { readonly id: string }, index: number): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify([{ entry: entry.id, index }]))}`;
}
