// What the user asks for, checked before anything is sent: prompts, sizes, counts, voices, text to speak, and the
// model of each kind (the configured one, else the first the gateway lists). Pure.
import type { MediaDefaults } from '../../settings/settings';
import type { ImageInput, ImageRequest, SpeechRequest } from '../../gateway/types';
import type { ModelKind } from '../../models/core/api';

export const MAX_PROMPT_CHARS = 4000;
/** The longest text one speech request takes (OpenAI-compatible gateways refuse more). */
export const MAX_SPEECH_CHARS = 4096;
export const MAX_IMAGE_COUNT = 10;
export const IMAGE_SIZES = ['1024x1024', '512x512', '256x256', '1792x1024', '1024x1792', 'auto'] as const;
export const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'] as const;

/** What Generate Image needs; missing fields come from the settings. */
export interface ImageAsk {
  prompt: string;
  model?: string;
  size?: string;
  count?: number;
  responseFormat?: 'url' | 'b64_json';
  /** The image to edit (read and sniffed already): the request becomes an edit. */
  image?: ImageInput;
  /** An edit's mask (PNG). */
  mask?: ImageInput;
}

/** What speech needs; missing fields come from the settings. */
export interface SpeechAsk {
  text: string;
  model?: string;
  voice?: string;
  format?: string;
  /** How the gateway is asked to stream the audio (`stream_format`); not sent without it. */
  streamFormat?: 'audio' | 'sse';
}

export class MediaRequestError extends Error {
  override readonly name = 'MediaRequestError';
  readonly code = 'invalid_input';
}

export function promptProblem(prompt: string): string | undefined {
  if (prompt.trim() === '') return 'Describe the image.';
  if (prompt.length > MAX_PROMPT_CHARS) return `The prompt is ${prompt.length} characters; the limit is ${MAX_PROMPT_CHARS}.`;
  return undefined;
}

export function sizeProblem(size: string): string | undefined {
  return /^(auto|\d{1,5}x\d{1,5})$/.test(size.trim()) ? undefined : 'Give the size as WIDTHxHEIGHT, such as 1024x1024, or auto.';
}

export function countProblem(count: number): string | undefined {
  return Number.isInteger(count) && count >= 1 && count <= MAX_IMAGE_COUNT ? undefined : `Ask for 1 to ${MAX_IMAGE_COUNT} images.`;
}

export function voiceProblem(voice: string): string | undefined {
  return /^[A-Za-z0-9_.:-]{1,100}$/.test(voice.trim()) ? undefined : 'A voice name has letters, digits, _ . : or - only.';
}

export function speechTextProblem(text: string): string | undefined {
  if (text.trim() === '') return 'There is no text to speak.';
  if (text.length > MAX_SPEECH_CHARS) return `The text is ${text.length} characters; one request speaks at most ${MAX_SPEECH_CHARS}. Select a shorter part.`;
  return undefined;
}

/** The request to send, or a MediaRequestError saying what is wrong. `model` must already be resolved. */
export function buildImageRequest(ask: ImageAsk, model: string, defaults: MediaDefaults): ImageRequest {
  const prompt = ask.prompt.trim();
  const size = (ask.size ?? defaults.imageSize).trim();
  const count = ask.count ?? defaults.imageCount;
  const problem = promptProblem(prompt) ?? sizeProblem(size) ?? countProblem(count);
  if (problem) throw new MediaRequestError(problem);
  const request: ImageRequest = { model, prompt, size, response_format: ask.responseFormat ?? defaults.imageResponseFormat };
  if (count !== 1) request.n = count;
  if (ask.image) request.image = ask.image;
  if (ask.mask) request.mask = ask.mask;
  return request;
}

export function buildSpeechRequest(ask: SpeechAsk, model: string, defaults: MediaDefaults): SpeechRequest {
  const voice = (ask.voice ?? defaults.voice).trim();
  const problem = speechTextProblem(ask.text) ?? voiceProblem(voice);
  if (problem) throw new MediaRequestError(problem);
  return { model, input: ask.text, voice, response_format: ask.format ?? defaults.speechFormat, ...(ask.streamFormat && { stream_format: ask.streamFormat }) };
}

/**
 * The model to use: the one asked for, else the configured default, else the first listed model of that kind.
 * Undefined when none is known (the caller says how to set one).
 */
export function chooseModel(asked: string | undefined, configured: string | undefined, listed: ReadonlyArray<{ id: string; kind: ModelKind }>, kind: 'image' | 'speech'): string | undefined {
  if (asked?.trim()) return asked.trim();
  if (configured) return configured;
  return listed.find((m) => m.kind === kind)?.id;
}

/** Reads `{ prompt, model?, size?, count?, responseFormat? }` from a command argument; throws on a wrong field. */
export function imageAskOf(argument: unknown): ImageAsk {
  const a = fieldsOf(argument, ['prompt', 'model', 'size', 'count', 'responseFormat']);
  if (typeof a.prompt !== 'string') throw new MediaRequestError('Give the prompt as a string.');
  if (a.responseFormat !== undefined && a.responseFormat !== 'url' && a.responseFormat !== 'b64_json') throw new MediaRequestError("responseFormat must be 'url' or 'b64_json'.");
  if (a.count !== undefined && typeof a.count !== 'number') throw new MediaRequestError('count must be a number.');
  return { prompt: a.prompt, ...optionalStrings(a, ['model', 'size']), ...(a.count !== undefined && { count: a.count as number }), ...(a.responseFormat !== undefined && { responseFormat: a.responseFormat as 'url' | 'b64_json' }) };
}

/** Reads `{ text, model?, voice?, format? }` from a command argument; throws on a wrong field. */
export function speechAskOf(argument: unknown): SpeechAsk {
  const a = fieldsOf(argument, ['text', 'model', 'voice', 'format', 'streamFormat']);
  if (typeof a.text !== 'string') throw new MediaRequestError('Give the text as a string.');
  if (a.streamFormat !== undefined && a.streamFormat !== 'audio' && a.streamFormat !== 'sse') throw new MediaRequestError('streamFormat is "audio" or "sse".');
  return { text: a.text, ...optionalStrings(a, ['model', 'voice', 'format']), ...(a.streamFormat !== undefined && { streamFormat: a.streamFormat }) };
}

function fieldsOf(argument: unknown, known: string[]): Record<string, unknown> {
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) throw new MediaRequestError('The argument must be an object.');
  const fields = argument as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw new MediaRequestError(`Unknown field ${unknown[0]}; the fields are ${known.join(', ')}.`);
  return fields;
}

function optionalStrings(fields: Record<string, unknown>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new MediaRequestError(`${name} must be a string.`);
    out[name] = value;
  }
  return out;
}
