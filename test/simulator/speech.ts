// POST /v1/audio/speech: real WAV audio made from the text: one short tone per word, its pitch from the voice and
// the word, so the same request always sounds the same. `[not-audio]` in the input answers an HTML page instead.
import { bodyForModel, invalidRequest, isObject } from './errors';
import { isKnownModel, SPEECH_MODEL } from './models';
import { stableHash, withoutKeywords } from './replies';
import { encodeWav, SAMPLE_RATE } from './wav';

export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'] as const;
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export const MAX_INPUT_CHARS = 4096;
/** Long texts are spoken faster so that no answer is longer than this. */
export const MAX_AUDIO_SECONDS = 60;

export interface ValidSpeechRequest {
  model: string;
  input: string;
  voice: string;
  format: string;
}

export function validateSpeechRequest(raw: unknown): ValidSpeechRequest {
  const body = bodyForModel(raw, SPEECH_MODEL, isKnownModel, (model) => `${model} cannot synthesize speech; use ${SPEECH_MODEL}`);
  if (typeof body.input !== 'string' || body.input.trim() === '') throw invalidRequest("'input' must be a non-empty string");
  if (body.input.length > MAX_INPUT_CHARS) throw invalidRequest(`'input' is ${body.input.length} characters; the limit is ${MAX_INPUT_CHARS}`);
  if (typeof body.voice !== 'string' || !(VOICES as readonly string[]).includes(body.voice)) throw invalidRequest(`'voice' must be one of ${VOICES.join(', ')}`);
  const format = body.response_format ?? 'mp3';
  if (typeof format !== 'string' || !(SPEECH_FORMATS as readonly string[]).includes(format)) throw invalidRequest(`'response_format' must be one of ${SPEECH_FORMATS.join(', ')}`);
  return { model: body.model, input: body.input, voice: body.voice, format };
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
