// A /speak turn's audio while it arrives: each piece the gateway sends becomes `mediaAudio` messages for the chat
// page (bounded per message by the pieces' own limit, chatProtocol/audioPieces.ts; in all by the speech size limit,
// which the gateway client keeps), then `mediaAudioEnd`. Only types a page may play as they arrive are sent: for WAV,
// FLAC or PCM nothing is, and the card plays once the kept file is there. Pure.
import { isStreamedAudioType, MAX_PIECE_BYTES, pieceData } from '../../../chatProtocol/audioPieces';
import type { MediaAudioMessage } from '../../../chatProtocol/messages';

const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export class ArrivingSpeech {
  /** Bytes sent so far: the next piece's offset, by which the page notices one it missed. */
  private at = 0;
  /** The type of the first piece; a later piece of another type stops the stream (the kept file still plays). */
  private type: string | undefined;
  private stopped = false;

  constructor(
    private readonly turnId: string,
    private readonly post: (message: MediaAudioMessage) => void,
  ) {}

  audio(chunk: Uint8Array, contentType: string): void {
    if (this.stopped || chunk.length === 0) return;
    this.type ??= contentType;
    if (this.type !== contentType || !isStreamedAudioType(contentType)) return void (this.stopped = true);
    let offset = 0;
    for (const data of pieceData(chunk, toBase64)) {
      this.post({ type: 'mediaAudio', turnId: this.turnId, contentType, at: this.at + offset, data });
      offset += MAX_PIECE_BYTES;
    }
    this.at += chunk.length;
  }

  /** The gateway has sent all of it: what the page has can play to its end (nothing is said when none was sent). */
  end(): void {
    if (this.at > 0 && this.type !== undefined && isStreamedAudioType(this.type)) this.post({ type: 'mediaAudioEnd', turnId: this.turnId });
    this.stopped = true;
    this.at = 0;
  }
}
