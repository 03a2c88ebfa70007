// POST /v1/audio/speech: real WAV audio made from the text: one short tone per word, its pitch from the voice and
// the word, so the same request always sounds the same. `[not-audio]` in the input answers an HTML page instead.
// Streamed (`stream_format`) with `response_format: mp3`, it is MP3 of the same length, silent (mp3.ts: there is
// no encoder here), so a player can be tested on audio a browser streams.
import { bodyForModel, invalidRequest, isObject } from './errors';
import type { Exchange } from './exchange';
import { isKnownModel, SPEECH_MODEL } from './models';
import { stableHash, withoutKeywords } from './replies';
import { silentMp3 } from './mp3';
import { encodeWav, SAMPLE_RATE } from './wav';

export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'] as const;
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const MAX_INPUT_CHARS = 4096;
/** Long texts are spoken faster so that no answer is longer than this. */
export const MAX_AUDIO_SECONDS = 60;

export const STREAM_FORMATS = ['audio', 'sse'] as const;
/** Pieces a streamed answer is sent in, and the pause between them (so a client sees them arrive apart). */
const STREAM_PIECES = 4;
const STREAM_PAUSE_MS = 30;

export interface ValidSpeechRequest {
  model: string;
  input: string;
  voice: string;
  format: string;
  /** Asked for: the audio sent in pieces, as raw bytes (`audio`) or `speech.audio.delta` events (`sse`). */
  stream?: (typeof STREAM_FORMATS)[number];
}

export function validateSpeechRequest(raw: unknown): ValidSpeechRequest {
  const body = bodyForModel(raw, SPEECH_MODEL, isKnownModel, (model) => `${model} cannot synthesize speech; use ${SPEECH_MODEL}`);
  if (typeof body.input !== 'string' || body.input.trim() === '') throw invalidRequest("'input' must be a non-empty string");
  if (body.input.length > MAX_INPUT_CHARS) throw invalidRequest(`'input' is ${body.input.length} characters; the limit is ${MAX_INPUT_CHARS}`);
  if (typeof body.voice !== 'string' || !(VOICES as readonly string[]).includes(body.voice)) throw invalidRequest(`'voice' must be one of ${VOICES.join(', ')}`);
  const format = body.response_format ?? 'mp3';
  if (typeof format !== 'string' || !(SPEECH_FORMATS as readonly string[]).includes(format)) throw invalidRequest(`'response_format' must be one of ${SPEECH_FORMATS.join(', ')}`);
  const stream = body.stream_format;
  if (stream !== undefined && !(STREAM_FORMATS as readonly unknown[]).includes(stream)) throw invalidRequest(`'stream_format' must be one of ${STREAM_FORMATS.join(', ')}`);
  return { model: body.model, input: body.input, voice: body.voice, format, ...(stream !== undefined && { stream: stream as ValidSpeechRequest['stream'] }) };
}

/** Streams that, while held, stop before their last piece until released (a test sees what happens before it). */
export class SpeechHold {
  private gate: { promise: Promise<void>; release: () => void } | undefined;

  hold(): void {
    if (this.gate) return;
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.gate = { promise, release };
  }

  release(): void {
    this.gate?.release();
    this.gate = undefined;
  }

  /** Resolves at once when nothing is held, else at the release. */
  wait(): Promise<void> {
    return this.gate?.promise ?? Promise.resolve();
  }
}

/** The audio a streamed answer sends: the spoken WAV, or for MP3 silent MP3 of its length. */
export function streamedAudio(request: ValidSpeechRequest): { audio: Buffer; contentType: string } {
  const wav = speak(request);
  if (request.format !== 'mp3') return { audio: wav, contentType: 'audio/wav' };
  return { audio: silentMp3((wav.length - 44) / (2 * SAMPLE_RATE)), contentType: 'audio/mpeg' };
}

/** Sends the audio in pieces with pauses between them: chunked raw bytes, or SSE `speech.audio.delta` events then `speech.audio.done`. */
export async function streamSpeech(exchange: Exchange, request: ValidSpeechRequest & { stream: NonNullable<ValidSpeechRequest['stream']> }, headers: Record<string, string>, hold: SpeechHold): Promise<void> {
  const { stream } = request;
  const { audio, contentType } = streamedAudio(request);
  exchange.head(200, { ...headers, 'content-type': stream === 'sse' ? 'text/event-stream; charset=utf-8' : contentType, 'cache-control': 'no-cache' });
  const size = Math.ceil(audio.length / STREAM_PIECES);
  for (let at = 0; at < audio.length; at += size) {
    if (at > 0 && !(await exchange.sleep(STREAM_PAUSE_MS))) return;
    if (at + size >= audio.length && at > 0) {
      await hold.wait();
      if (!(await exchange.sleep(0))) return;
    }
    const piece = audio.subarray(at, at + size);
    exchange.res.write(stream === 'sse' ? `data: ${JSON.stringify({ type: 'speech.audio.delta', audio: piece.toString('base64') })}\n\n` : piece);
  }
  if (stream === 'sse') exchange.res.write(`data: ${JSON.stringify({ type: 'speech.audio.done', usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } })}\n\n`);
  exchange.res.end();
}

export function inputOfSpeechBody(body: unknown): string {
  return isObject(body) && typeof body.input === 'string' ? body.input : '';
}

/** The WAV file for a request: 0.16 s per word and 0.06 s between words, faster when that would pass the cap. */
export function speak(request: ValidSpeechRequest): Buffer {
  const words = withoutKeywords(request.input).split(/\s+/).filter(Boolean);
  const base = 110 + (stableHash(request.voice) % 120);
  const natural = words.length * 0.22;
  const scale = natural > MAX_AUDIO_SECONDS ? MAX_AUDIO_SECONDS / natural : 1;
  const tone = Math.max(1, Math.round(0.16 * scale * SAMPLE_RATE));
  const gap = Math.round(0.06 * scale * SAMPLE_RATE);
  const samples = new Float32Array(Math.max(1, words.length) * (tone + gap));
  words.forEach((word, w) => {
    const frequency = base * 2 ** ((stableHash(word.toLowerCase()) % 12) / 12);
    const start = w * (tone + gap);
    for (let i = 0; i < tone; i++) {
      const envelope = Math.min(1, i / 160, (tone - i) / 160);
      samples[start + i] = 0.4 * envelope * Math.sin((2 * Math.PI * frequency * i) / SAMPLE_RATE);
    }
  });
  return encodeWav(samples);
}
