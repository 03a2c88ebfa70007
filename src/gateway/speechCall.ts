// Speech on the wire: `POST /audio/speech` (../shared/spec/dialects.md, "Speech and transcription"). The audio may
// arrive as one body, as a chunked body read as it comes (`stream_format: "audio"`, the default), or as SSE events
// `speech.audio.delta` ({audio: base64}) ending with `speech.audio.done` (`stream_format: "sse"`). Either way the
// bytes are handed on as they arrive (`onAudio`), once the first of them are known to be audio (a JSON error or an
// HTML page in a 200 is never passed on as sound), and kept, bounded by the size limit.
import type { Dispatcher } from 'undici';
import { base64DecodedLength } from '../util/base64';
import { parseRecord } from '../util/records';
import { AttemptFailure, tooLarge } from './failures';
import { sniffAudio, type AudioType } from './mediaTypes';
import { speechAudioOf } from './mediaReaders';
import type { AttemptContext } from './responseReaders';
import { headerText, type Headers } from './retry';
import { SseDecoder } from './sse';
import type { SpeechAudio, SpeechRequest } from './types';

/** Bytes enough to tell every audio kind sniffAudio knows (WAV needs 12). */
const SNIFF_BYTES = 12;

/** Audio as it arrives: each piece with the kind its first bytes showed. */
export type AudioSink = (chunk: Uint8Array, contentType: AudioType) => void;

export function speechBody(request: SpeechRequest): string {
  const body: SpeechRequest = { model: request.model, input: request.input, voice: request.voice };
  if (request.response_format !== undefined) body.response_format = request.response_format;
  if (request.stream_format !== undefined) body.stream_format = request.stream_format;
  return JSON.stringify(body);
}

/**
 * The audio of an answer, kept up to `maxBytes` (over it: `overflow`), passed to `onAudio` piece by piece from the
 * moment its first bytes sniff as audio. Pure: the reader feeds it bytes or SSE events.
 */
export class SpeechAudioCollector {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  /** What the first bytes are, once known; null when they are not audio (nothing is passed on then). */
  #kind: AudioType | null | undefined;
  #overflow = false;
  /** An SSE `error` event, or undefined. */
  error: unknown;
  /** The SSE stream said it was done. */
  done = false;

  constructor(private readonly maxBytes: number, private readonly onAudio?: AudioSink) {}

  get overflow(): boolean {
    return this.#overflow;
  }

  /** Audio bytes; false once over the limit (nothing more is taken). */
  push(chunk: Uint8Array): boolean {
    if (this.#overflow || chunk.length === 0) return !this.#overflow;
    if (this.#size + chunk.length > this.maxBytes) {
      this.#overflow = true;
      return false;
    }
    const piece = Buffer.from(chunk);
    this.#chunks.push(piece);
    this.#size += piece.length;
    if (this.#kind === undefined && this.#size >= SNIFF_BYTES) {
      const head = Buffer.concat(this.#chunks).subarray(0, SNIFF_BYTES);
      this.#kind = sniffAudio(head) ?? null;
      // The bytes held back while the kind was unknown go first, as one piece.
      if (this.#kind) this.onAudio?.(Buffer.concat(this.#chunks), this.#kind);
    } else if (this.#kind) this.onAudio?.(piece, this.#kind);
    return true;
  }

  /** One SSE event's data; false once the stream has nothing more to say (done, an error, over the limit). */
  pushEvent(data: string): boolean {
    const event = parseRecord(data);
    if (!event) return true;
    if (event.type === 'speech.audio.delta' && typeof event.audio === 'string') {
      const size = base64DecodedLength(event.audio);
      if (size === undefined) return true;
      if (this.#size + size > this.maxBytes) {
        this.#overflow = true;
        return false;
      }
      return this.push(Buffer.from(event.audio, 'base64'));
    }
    if (event.type === 'speech.audio.done') {
      this.done = true;
      return false;
    }
    if (event.type === 'error' || event.error !== undefined) {
      this.error = event.error ?? event;
      return false;
    }
    return true;
  }

  /** Everything kept. A short answer never reached SNIFF_BYTES: it is passed on now, when it is audio. */
  bytes(): Buffer {
    const all = Buffer.concat(this.#chunks);
    if (this.#kind === undefined && all.length > 0) {
      this.#kind = sniffAudio(all) ?? null;
      if (this.#kind) this.onAudio?.(all, this.#kind);
    }
    return all;
  }
}

/** Reads a speech answer (a body, chunked or whole, or an SSE stream), handing the audio on as it arrives. */
export async function readSpeech(res: Dispatcher.ResponseData, ctx: AttemptContext, maxBytes: number, onAudio?: AudioSink): Promise<SpeechAudio> {
  const contentType = headerText(res.headers as Headers, 'content-type');
  const sse = (contentType ?? '').toLowerCase().includes('text/event-stream');
  const declared = headerText(res.headers as Headers, 'content-length');
  if (!sse && declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    res.body.on('error', () => undefined).destroy();
    throw new AttemptFailure(tooLarge('The audio', maxBytes, ctx.requestId, Number(declared)), 'body');
  }
  const audio = new SpeechAudioCollector(maxBytes, onAudio);
  const decoder = sse ? new SseDecoder({ onEvent: (_type, data) => void audio.pushEvent(data) }) : undefined;
  try {
    for await (const chunk of res.body) {
      ctx.control.touch();
      if (decoder) decoder.push(chunk as Buffer);
      else audio.push(chunk as Buffer);
      if (audio.overflow || audio.done || audio.error !== undefined) break;
    }
    decoder?.end();
  } catch (error) {
    throw ctx.failures.body(error, ctx.control, ctx.requestId, 'network', undefined);
  } finally {
    if (!res.body.destroyed) res.body.destroy();
  }
  if (audio.overflow) throw new AttemptFailure(tooLarge('The audio', maxBytes, ctx.requestId), 'body');
  if (audio.error !== undefined) throw new AttemptFailure(ctx.failures.fromPayload(audio.error, 200, ctx.requestId), 'body');
  return speechAudioOf(audio.bytes(), sse ? undefined : contentType, ctx.requestId, ctx.failures);
}
