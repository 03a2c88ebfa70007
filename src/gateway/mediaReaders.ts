// Reading the answers of the image and speech endpoints. A gateway's answer is hostile input: every field is checked,
// counts and sizes are capped, links must pass the one link rule, and bytes must really be an image or audio
// (their signature decides, not the server's Content-Type). No `vscode` import.

import { checkExternalUrl, shorten } from '../util/externalUrl';
import { formatBytes } from '../util/bytes';
import { GatewayError } from './errors';
import { badResponse, type FailureMapper } from './failures';
import { describeBytes, sniffAudio, sniffImage } from './mediaTypes';
import { isRecord } from '../util/records';
import { reportedCostOf } from './reportedCost';
import { base64DecodedLength } from '../util/base64';
import { splitDataUrl } from '../util/dataUrl';
import type { GeneratedImage, ImageGeneration, SpeechAudio } from './types';

/** The most images one answer may hold, whatever was asked. */
export const MAX_IMAGES = 10;
export const DEFAULT_MAX_MEDIA_BYTES = 25 * 1024 * 1024;
const MAX_URL_CHARS = 16 * 1024;
const MAX_REVISED_PROMPT_CHARS = 4000;

export interface ImageReadContext {
  /** How many images were asked for (the answer is cut to that many). */
  requested: number;
  maxBytes: number;
  /** Where relative links point: the gateway's base URL. */
  baseUrl: string;
  nowSeconds: number;
  requestId: string | undefined;
  failures: FailureMapper;
}

/** The JSON body a `b64_json` answer with `count` images of at most `maxBytes` each can need (base64 plus room). */
export function imageAnswerLimit(count: number, maxBytes: number): number {
  return Math.ceil((Math.min(count, MAX_IMAGES) * maxBytes * 4) / 3) + 1024 * 1024;
}

/** `{ created, data: [{ url } | { b64_json }] }` normalised; throws when no usable image is in it. */
export function imageGenerationOf(body: unknown, ctx: ImageReadContext): ImageGeneration {
  if (!isRecord(body)) throw badResponse('The image answer from the gateway is not a JSON object.', ctx.requestId);
  if (body.error !== undefined && body.error !== null) throw ctx.failures.fromPayload(body.error, 200, ctx.requestId);
  if (!Array.isArray(body.data)) throw badResponse('The image answer from the gateway has no data array.', ctx.requestId);
  const limit = Math.max(1, Math.min(ctx.requested, MAX_IMAGES));
  const images: GeneratedImage[] = [];
  const rejected: string[] = [];
  if (body.data.length > limit) rejected.push(`The gateway sent ${body.data.length} images for ${limit} asked; only the first ${limit} are kept.`);
  body.data.slice(0, limit).forEach((entry, index) => {
    const image = imageOf(entry, ctx);
    if (typeof image === 'string') rejected.push(`Image ${index + 1}: ${image}`);
    else images.push(image);
  });
  if (images.length === 0) {
    const why = rejected.find((r) => r.startsWith('Image ')) ?? 'The answer holds no images.';
    throw new GatewayError({ status: 0, code: why.includes('is larger than') ? 'too_large' : 'bad_response', message: `The gateway sent no usable image. ${why}`, requestId: ctx.requestId });
  }
  const created = typeof body.created === 'number' && Number.isFinite(body.created) && body.created > 0 ? Math.floor(body.created) : ctx.nowSeconds;
  const reportedCost = reportedCostOf(body);
  return { created, images, rejected, ...(reportedCost !== undefined && { reportedCost }) };
}

/** One entry, or why it is not used. */
function imageOf(entry: unknown, ctx: ImageReadContext): GeneratedImage | string {
  if (!isRecord(entry)) return 'the entry is not an object.';
  const revisedPrompt = typeof entry.revised_prompt === 'string' && entry.revised_prompt.trim() ? shorten(entry.revised_prompt.trim(), MAX_REVISED_PROMPT_CHARS) : undefined;
  const extra = revisedPrompt === undefined ? {} : { revisedPrompt };
  if (typeof entry.b64_json === 'string' && entry.b64_json !== '') {
    const decoded = decodeImage(entry.b64_json, ctx.maxBytes);
    return typeof decoded === 'string' ? decoded : { kind: 'data', ...decoded, ...extra };
  }
  if (typeof entry.url === 'string' && entry.url !== '') {
    const url = entry.url.trim();
    if (splitDataUrl(url)) {
      const decoded = imageOfDataUrl(url, ctx.maxBytes);
      return typeof decoded === 'string' ? decoded : { kind: 'data', ...decoded, ...extra };
    }
    if (url.length > MAX_URL_CHARS) return `its link is ${url.length} characters long, more than ${MAX_URL_CHARS}.`;
    const checked = checkExternalUrl(absolute(url, ctx.baseUrl));
    if (!checked.ok) return checked.reason;
    return { kind: 'url', url: checked.url.toString(), ...extra };
  }
  return 'it has neither a url nor b64_json.';
}

function absolute(url: string, baseUrl: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return url;
  try {
    return new URL(url, `${baseUrl.replace(/\/+$/, '')}/`).toString();
  } catch {
    return url;
  }
}

/** A `data:` URL's image, decoded only when its size (counted first, in one pass) is within `maxBytes`; or why not. */
export function imageOfDataUrl(url: string, maxBytes: number): DecodedImage | string {
  const parts = splitDataUrl(url);
  if (!parts) return 'its link is not a data: URL.';
  if (!parts.base64) return 'its data: link is not base64.';
  return decodeImage(url.slice(parts.dataStart), maxBytes);
}

type DecodedImage = { data: Uint8Array; contentType: NonNullable<ReturnType<typeof sniffImage>> };

function decodeImage(base64: string, maxBytes: number): DecodedImage | string {
  const size = base64DecodedLength(base64);
  if (size === undefined) return 'its b64_json is not base64.';
  if (size > maxBytes) return `it is larger than the limit of ${formatBytes(maxBytes)} (${formatBytes(size)}).`;
  const data = new Uint8Array(Buffer.from(base64, 'base64'));
  if (data.length === 0) return 'its b64_json is empty.';
  const contentType = sniffImage(data);
  if (!contentType) return `it is not a PNG, JPEG, WebP or GIF image: it is ${describeBytes(data)}.`;
  return { data, contentType };
}

/** The audio of a speech answer: non-empty, of a known audio type, or a clear error. JSON in a 200 is read as an error. */
export function speechAudioOf(bytes: Buffer, contentType: string | undefined, requestId: string | undefined, failures: FailureMapper): SpeechAudio {
  if (bytes.length === 0) throw badResponse('The gateway sent no audio (an empty answer).', requestId);
  const audioType = sniffAudio(bytes);
  if (audioType) return { audio: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), contentType: audioType };
  if ((contentType ?? '').toLowerCase().includes('json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    if (isRecord(parsed) && parsed.error !== undefined && parsed.error !== null) throw failures.fromPayload(parsed.error, 200, requestId);
  }
  const declared = contentType ? ` (it said ${shorten(contentType.split(';')[0].trim(), 60)})` : '';
  throw badResponse(`The gateway's answer is not audio of a known kind (WAV, MP3, Ogg, FLAC, AAC, WebM): it is ${describeBytes(bytes)}${declared}.`, requestId);
}
