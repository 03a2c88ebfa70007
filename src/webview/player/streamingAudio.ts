// Audio played while it arrives: the pieces go, in order, into a Media Source Extensions SourceBuffer behind the
// page's <audio>, one append at a time (a SourceBuffer takes the next only after `updateend`). Whether a type can
// be played so is the browser's to say (`MediaSource.isTypeSupported`): MP3 in every Chromium, AAC and WebM/Opus
// where its codecs are built in; WAV, FLAC and raw PCM never, and those play only once the kept file is there.

/** The MSE type for an audio type, where MSE could take it at all. */
function mseType(contentType: string): string | undefined {
  switch (contentType) {
    case 'audio/mpeg':
    case 'audio/aac':
      return contentType;
    case 'audio/webm':
      return 'audio/webm; codecs="opus"';
    default:
      return undefined;
  }
}

/** Whether this page can play audio of `contentType` as it arrives. */
export function canStream(contentType: string): boolean {
  const type = mseType(contentType);
  return type !== undefined && typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(type);
}

export class StreamingAudio {
  private readonly source = new MediaSource();
  private readonly url: string;
  private buffer: SourceBuffer | undefined;
  private readonly queue: Array<Uint8Array<ArrayBuffer>> = [];
  private ended = false;
  private broken = false;

  /** Starts the stream behind `audio` (call only when `canStream`); `onBroken` hears once when the browser refuses it. */
  constructor(
    audio: HTMLAudioElement,
    contentType: string,
    private readonly onBroken: (why: string) => void,
  ) {
    this.url = URL.createObjectURL(this.source);
    this.source.addEventListener(
      'sourceopen',
      () => {
        try {
          this.buffer = this.source.addSourceBuffer(mseType(contentType)!);
          // Frames in arrival order, whatever timestamps the stream carries.
          this.buffer.mode = 'sequence';
          this.buffer.addEventListener('updateend', () => this.pump());
          this.buffer.addEventListener('error', () => this.break('the browser could not read the audio'));
          this.pump();
        } catch (error) {
          this.break(String(error));
        }
      },
      { once: true },
    );
    audio.src = this.url;
  }

  /** False once the browser refused a piece: the rest plays from the kept file. */
  get playing(): boolean {
    return !this.broken;
  }

  append(bytes: Uint8Array<ArrayBuffer>): void {
    if (this.broken || this.ended) return;
    this.queue.push(bytes);
    this.pump();
  }

  /** No more pieces: once the queue is in, the stream ends (its duration is known and every part can be sought). */
  end(): void {
    this.ended = true;
    this.pump();
  }

  /** Lets the MediaSource go (the page has moved on to the kept file). */
  release(): void {
    this.broken = true;
    this.queue.length = 0;
    URL.revokeObjectURL(this.url);
  }

  private pump(): void {
    const buffer = this.buffer;
    if (this.broken || !buffer || buffer.updating || this.source.readyState !== 'open') return;
    const next = this.queue.shift();
    try {
      if (next) buffer.appendBuffer(next);
      else if (this.ended) this.source.endOfStream();
    } catch (error) {
      this.break(String(error));
    }
  }

  private break(why: string): void {
    if (this.broken) return;
    this.broken = true;
    this.queue.length = 0;
    this.onBroken(why);
  }
}

/** A piece's bytes from its base64 (checked by the protocol before it gets here). */
export function decodePiece(data: string): Uint8Array<ArrayBuffer> {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * Moves `audio` from the stream to the kept file at `src`, so every part can be sought. While the stream plays, the
 * move waits for a pause, so the sound is not cut; the file then goes on from where the stream was. It starts playing
 * when the stream was playing, or when nothing has played yet (the audio could not be played as it arrived); never
 * again after it ended. `onBlocked` hears when the browser would not start it; `onMoved` once the file is the source.
 */
export function moveToFile(audio: HTMLAudioElement, stream: StreamingAudio | undefined, src: string, onBlocked: () => void, onMoved?: () => void): void {
  const move = (): void => {
    const at = audio.ended ? 0 : audio.currentTime;
    const play = (stream?.playing === true && !audio.paused && !audio.ended) || audio.played.length === 0;
    stream?.release();
    audio.autoplay = false;
    audio.src = src;
    onMoved?.();
    // Once the file's length is known: a position set before that may be lost.
    if (at > 0) audio.addEventListener('loadedmetadata', () => (audio.currentTime = at), { once: true });
    if (play) void audio.play().catch(onBlocked);
  };
  if (!stream?.playing || audio.paused || audio.ended) return move();
  audio.addEventListener('pause', move, { once: true });
}
