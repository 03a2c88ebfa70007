// Images through chat completions (OpenRouter, Vercel's gateway): the request is a chat message with
// `modalities:["image","text"]`, and the images come back in `choices[0].message.images[]` (in a stream, in each
// chunk's `delta.images`), each `{type:"image_url", image_url:{url}}`, usually a base64 data: URL. Any text that comes
// with them is the images' caption. The answer is hostile input: every image goes through the same reader as an
// images-endpoint answer (mediaReaders.ts: counts capped, data: URLs decoded bounded, links checked, bytes sniffed).
// No `vscode` import.
import { shorten } from '../util/externalUrl';
import { isRecord } from '../util/records';
import { badResponse } from './failures';
import { imageGenerationOf, type ImageReadContext } from './mediaReaders';
import { SseDecoder } from './sse';
import type { ContentPart, ImageGeneration, ImageInput, ImageRequest } from './types';

const MAX_CAPTION_CHARS = 4000;
/** Entries past this are not even collected (the reader keeps at most the images asked for, and says how many came). */
const MAX_COLLECTED_IMAGES = 64;

/** The chat request for an image: the prompt (and the image to edit) in one user message. Streamed, so the wait shows as progress to proxies. */
export function chatImageBody(request: ImageRequest): string {
  const content: string | ContentPart[] = request.image ? [{ type: 'text', text: request.prompt }, { type: 'image_url', image_url: { url: dataUrlOf(request.image) } }] : request.prompt;
  return JSON.stringify({ model: request.model, messages: [{ role: 'user', content }], modalities: ['image', 'text'], stream: true });
}

function dataUrlOf(image: ImageInput): string {
  return `data:${image.contentType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}

/** What a chat answer holds: its images (as the images endpoint's `data` entries) and its text. */
interface Collected {
  images: unknown[];
  text: string;
}

/** A whole chat completion (JSON) with images, read like an images-endpoint answer; the text is the caption. */
export function chatImagesOfJson(body: unknown, ctx: ImageReadContext): ImageGeneration {
  if (!isRecord(body)) throw badResponse('The chat answer from the gateway is not a JSON object.', ctx.requestId);
  if (body.error !== undefined && body.error !== null) throw ctx.failures.fromPayload(body.error, 200, ctx.requestId);
  const collected: Collected = { images: [], text: '' };
  const message = firstChoice(body)?.message;
  if (isRecord(message)) take(message, collected);
  return generationOf(collected, body.created, ctx);
}

/** A streamed chat answer (the whole SSE text, already read bounded): `delta.images` and `delta.content` of every chunk. */
export function chatImagesOfStream(text: string, ctx: ImageReadContext, maxEventChars: number): ImageGeneration {
  const collected: Collected = { images: [], text: '' };
  let created: unknown;
  let failure: unknown;
  const decoder = new SseDecoder(
    {
      onEvent: (type, data) => {
        if (failure !== undefined || data.trim() === '[DONE]') return;
        let chunk: unknown;
        try {
          chunk = JSON.parse(data);
        } catch {
          failure = badResponse('The gateway sent a stream event that is not valid JSON.', ctx.requestId);
          return;
        }
        // OpenRouter reports a failure after the 200 as an event, or as an `error` object in a chunk.
        if (isRecord(chunk) && chunk.error !== undefined && chunk.error !== null) failure = ctx.failures.fromPayload(chunk.error, 200, ctx.requestId);
        else if (type === 'error') failure = ctx.failures.fromPayload(chunk, 200, ctx.requestId);
        if (failure !== undefined || !isRecord(chunk)) return;
        created ??= chunk.created;
        const choice = firstChoice(chunk);
        for (const part of [choice?.delta, choice?.message]) if (isRecord(part)) take(part, collected);
      },
    },
    { maxEventChars },
  );
  decoder.push(Buffer.from(text, 'utf8'));
  decoder.end();
  if (failure !== undefined) throw failure;
  return generationOf(collected, created, ctx);
}

function firstChoice(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const choices = body.choices;
  return Array.isArray(choices) && isRecord(choices[0]) ? choices[0] : undefined;
}

/** Adds a message's (or a delta's) images and text; both are capped (the images by the reader, the text here). */
function take(part: Record<string, unknown>, into: Collected): void {
  if (Array.isArray(part.images)) {
    for (const image of part.images) if (into.images.length < MAX_COLLECTED_IMAGES) into.images.push(linkOf(image));
  }
  const text = typeof part.content === 'string' ? part.content : Array.isArray(part.content) ? part.content.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('') : '';
  if (text && into.text.length < MAX_CAPTION_CHARS) into.text += text.slice(0, MAX_CAPTION_CHARS - into.text.length);
}

/** `{type:"image_url", image_url:{url}}` (or `image_url` as a string) as an images-endpoint entry `{url}`. */
function linkOf(image: unknown): unknown {
  if (!isRecord(image)) return image;
  const link = image.image_url;
  if (typeof link === 'string') return { url: link };
  if (isRecord(link) && typeof link.url === 'string') return { url: link.url };
  return image;
}

function generationOf(collected: Collected, created: unknown, ctx: ImageReadContext): ImageGeneration {
  if (collected.images.length === 0) {
    const said = collected.text.trim() ? ` It answered: "${shorten(collected.text.trim(), 300)}"` : '';
    throw badResponse(`The gateway's chat answer holds no image: the model may not make images.${said}`, ctx.requestId);
  }
  const generation = imageGenerationOf({ created, data: collected.images }, ctx);
  const caption = collected.text.trim();
  if (!caption) return generation;
  return { ...generation, images: generation.images.map((image) => ({ ...image, caption: shorten(caption, MAX_CAPTION_CHARS) })) };
}
