// What an image request sends and how its answer is read, by route (types.ts's ImageRoute): the images endpoints
// (`/images/generations` JSON, `/images/edits` multipart) or a chat completion that returns images (chatImages.ts).
// The client sends it as paid work (never retried once it may have reached the gateway). No `vscode` import.
import type { Dispatcher } from 'undici';
import { chatImageBody, chatImagesOfJson, chatImagesOfStream } from './chatImages';
import { imageAnswerLimit, imageGenerationOf, type ImageReadContext } from './mediaReaders';
import { MEDIA_EXTENSIONS } from './mediaTypes';
import { multipartBody, type FormPart } from './multipart';
import { readBody, readJson, type AttemptContext } from './responseReaders';
import { headerText, type Headers } from './retry';
import type { ImageGeneration, ImageInput, ImageRequest, ImageRoute } from './types';

export interface ImageCall {
  /** Below the base URL. */
  path: string;
  body: string | Buffer;
  contentType: string;
  accept: string;
  read(res: Dispatcher.ResponseData, ctx: AttemptContext): Promise<ImageGeneration>;
}

export interface ImageCallContext {
  route: ImageRoute;
  /** The generations path (the profile's setting; `/images/generations` by default). */
  imagesPath: string;
  maxBytes: number;
  baseUrl: string;
  nowSeconds: number;
}

export function imageCallOf(request: ImageRequest, call: ImageCallContext): ImageCall {
  const requested = typeof request.n === 'number' && Number.isInteger(request.n) && request.n > 0 ? request.n : 1;
  const limit = imageAnswerLimit(requested, call.maxBytes);
  const readContext = (ctx: AttemptContext): ImageReadContext => ({ requested, maxBytes: call.maxBytes, baseUrl: call.baseUrl, nowSeconds: call.nowSeconds, requestId: ctx.requestId, failures: ctx.failures });
  if (call.route === 'chat') {
    return {
      path: '/chat/completions',
      body: chatImageBody(request),
      contentType: 'application/json',
      accept: 'text/event-stream, application/json;q=0.9',
      async read(res, ctx) {
        const type = headerText(res.headers as Headers, 'content-type') ?? '';
        if (!type.includes('text/event-stream')) return chatImagesOfJson(await readJson(res, ctx, limit), readContext(ctx));
        const text = (await readBody(res, ctx, limit, "The gateway's answer")).toString('utf8');
        return chatImagesOfStream(text, readContext(ctx), limit);
      },
    };
  }
  const read = async (res: Dispatcher.ResponseData, ctx: AttemptContext) => imageGenerationOf(await readJson(res, ctx, limit), readContext(ctx));
  if (!request.image) {
    const body: ImageRequest = { model: request.model, prompt: request.prompt };
    if (request.n !== undefined) body.n = request.n;
    if (request.size !== undefined) body.size = request.size;
    if (request.response_format !== undefined) body.response_format = request.response_format;
    return { path: call.imagesPath, body: JSON.stringify(body), contentType: 'application/json', accept: 'application/json', read };
  }
  const parts: FormPart[] = [
    { name: 'model', value: request.model },
    { name: 'prompt', value: request.prompt },
    { name: 'image', file: fileOf(request.image, 'image') },
  ];
  if (request.mask) parts.push({ name: 'mask', file: fileOf(request.mask, 'mask') });
  if (request.n !== undefined) parts.push({ name: 'n', value: String(request.n) });
  if (request.size !== undefined && request.size !== 'auto') parts.push({ name: 'size', value: request.size });
  if (request.response_format !== undefined) parts.push({ name: 'response_format', value: request.response_format });
  const { body, contentType } = multipartBody(parts);
  return { path: editsPath(call.imagesPath), body, contentType, accept: 'application/json', read };
}

/** `/images/edits` beside the generations path (`…/generations` → `…/edits`), the OpenAI layout. */
export function editsPath(imagesPath: string): string {
  return imagesPath.endsWith('/generations') ? `${imagesPath.slice(0, -'/generations'.length)}/edits` : '/images/edits';
}

/** The file as sent: our own name (never the user's), with the extension of its sniffed type. */
function fileOf(image: ImageInput, stem: string): { data: Uint8Array; contentType: string; fileName: string } {
  return { data: image.data, contentType: image.contentType, fileName: `${stem}.${MEDIA_EXTENSIONS[image.contentType]}` };
}
