// Images through chat completions (as OpenRouter and Vercel's gateway send them: `modalities:["image","text"]`, the
// images in `choices[0].message.images[]` or, streamed, in `delta.images`, with a caption in `content`) and
// POST /v1/images/edits (OpenAI's multipart form: `image`, `prompt`, optional `mask` of the image's size, `n`,
// `response_format`). An edit draws a new picture of the source's size, seeded by the prompt and the source bytes.
import { bodyForModel, invalidRequest, isObject } from './errors';
import type { SseFrame } from './exchange';
import { drawImage, MAX_IMAGES_PER_REQUEST } from './images';
import { IMAGE_MODEL, isKnownModel } from './models';
import { stableHash, withoutKeywords } from './replies';

export interface ValidChatImageRequest {
  model: string;
  prompt: string;
  stream: boolean;
  /** The image in the user message, when it is an edit. */
  source?: Buffer;
}

/** Whether a chat body asks for images (`modalities` naming `image`). */
export function asksForImages(body: unknown): boolean {
  return isObject(body) && Array.isArray(body.modalities) && body.modalities.includes('image');
}

export function validateChatImageRequest(raw: unknown): ValidChatImageRequest {
  const body = bodyForModel(raw, IMAGE_MODEL, isKnownModel, (model) => `${model} cannot make images; use ${IMAGE_MODEL}`);
  const messages = body.messages;
  const last = Array.isArray(messages) ? messages.at(-1) : undefined;
  if (!isObject(last) || last.role !== 'user') throw invalidRequest("The last message must be the user's");
  let prompt = '';
  let source: Buffer | undefined;
  if (typeof last.content === 'string') prompt = last.content;
  else if (Array.isArray(last.content)) {
    for (const part of last.content) {
      if (!isObject(part)) continue;
      if (part.type === 'text' && typeof part.text === 'string') prompt += part.text;
      if (part.type === 'image_url' && isObject(part.image_url) && typeof part.image_url.url === 'string') source = dataUrlBytes(part.image_url.url);
    }
  }
  if (prompt.trim() === '') throw invalidRequest('The user message has no text');
  return { model: body.model, prompt, stream: body.stream === true, ...(source && { source }) };
}

function dataUrlBytes(url: string): Buffer {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:image/') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) throw invalidRequest('image_url must be a base64 data: URL of an image');
  return Buffer.from(url.slice(comma + 1), 'base64');
}

/** The chat answer with one image: a JSON completion, or its stream (caption, then the image, then the end). */
export function chatImageAnswer(request: ValidChatImageRequest, created: number): { json: Record<string, unknown> } | { frames: SseFrame[] } {
  const prompt = withoutKeywords(request.prompt);
  const [width, height] = request.source ? pngSize(request.source) : [256, 256];
  const png = drawImage(stableHash(`${prompt}#${request.source ? stableHash(request.source.toString('base64')) : 0}`), width, height);
  const images = [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }];
  const caption = `${request.source ? 'Edited' : 'Here is'}: ${prompt}`;
  const id = `chatcmpl-img${stableHash(prompt).toString(16)}`;
  const usage = { prompt_tokens: Math.ceil(request.prompt.length / 4), completion_tokens: 1290, total_tokens: Math.ceil(request.prompt.length / 4) + 1290, cost: 0.039 };
  if (!request.stream) {
    return { json: { id, object: 'chat.completion', created, model: request.model, choices: [{ index: 0, message: { role: 'assistant', content: caption, images }, finish_reason: 'stop' }], usage } };
  }
  const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}): SseFrame => ({
    text: `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    paced: false,
  });
  return {
    frames: [
      { text: ': PROCESSING\n\n', paced: false },
      chunk({ role: 'assistant', content: caption }),
      chunk({ images }),
      chunk({}, 'stop', { usage }),
      { text: 'data: [DONE]\n\n', paced: false },
    ],
  };
}

export interface ValidImageEdit {
  model: string;
  prompt: string;
  n: number;
  responseFormat: 'url' | 'b64_json';
  image: Buffer;
  width: number;
  height: number;
}

/** Reads OpenAI's multipart edit form; the errors are OpenAI's (a mask must be a PNG of the image's size). */
export function validateImageEdit(contentType: string | undefined, bytes: Buffer): ValidImageEdit {
  const boundary = /boundary=([^;]+)/.exec(contentType ?? '')?.[1]?.replace(/^"|"$/g, '');
  if (!contentType?.startsWith('multipart/form-data') || !boundary) throw invalidRequest('The edit must be sent as multipart/form-data');
  const fields = parseMultipart(bytes, boundary);
  const text = (name: string) => fields.get(name)?.data.toString('utf8');
  const model = text('model') ?? IMAGE_MODEL;
  if (model !== IMAGE_MODEL) throw invalidRequest(`${model} cannot edit images; use ${IMAGE_MODEL}`);
  const prompt = text('prompt') ?? '';
  if (prompt.trim() === '') throw invalidRequest("'prompt' is required");
  const image = fields.get('image') ?? fields.get('image[]');
  if (!image?.fileName) throw invalidRequest("'image' is required (a file)");
  const [width, height] = pngSize(image.data);
  const mask = fields.get('mask');
  if (mask) {
    const [mw, mh] = pngSize(mask.data);
    if (mw !== width || mh !== height) throw invalidRequest(`The mask is ${mw}x${mh}; it must be the image's size, ${width}x${height}`);
  }
  const n = Number(text('n') ?? '1');
  if (!Number.isInteger(n) || n < 1 || n > MAX_IMAGES_PER_REQUEST) throw invalidRequest(`'n' must be an integer from 1 to ${MAX_IMAGES_PER_REQUEST}`);
  const responseFormat = text('response_format') ?? 'b64_json';
  if (responseFormat !== 'url' && responseFormat !== 'b64_json') throw invalidRequest("'response_format' must be 'url' or 'b64_json'");
  return { model, prompt, n, responseFormat, image: image.data, width, height };
}

/** A PNG's width and height (from its IHDR), or a 400. */
export function pngSize(bytes: Buffer): [number, number] {
  const isPng = bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.toString('latin1', 12, 16) === 'IHDR';
  if (!isPng) throw invalidRequest('The image must be a PNG');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width * height > 4096 * 4096) throw invalidRequest(`A ${width}x${height} image is not taken`);
  return [width, height];
}

/** The parts of a multipart body by field name (test infrastructure: the client's own bodies, bounded by the exchange). */
function parseMultipart(bytes: Buffer, boundary: string): Map<string, { data: Buffer; fileName?: string }> {
  const parts = new Map<string, { data: Buffer; fileName?: string }>();
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes.subarray(start, start + 2).toString() === '--') break;
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) break;
    const part = bytes.subarray(start + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, headEnd).toString('utf8');
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const fileName = /filename="([^"]*)"/.exec(head)?.[1];
    if (name !== undefined) parts.set(name, { data: part.subarray(headEnd + 4), ...(fileName !== undefined && { fileName }) });
    at = next;
  }
  return parts;
}

/** The edit's answer, in the generations endpoint's shape; url answers are kept by `keep` (a signed link). */
export function editAnswer(edit: ValidImageEdit, created: number, link: (bytes: Buffer) => string): Record<string, unknown> {
  const seed = stableHash(edit.image.toString('base64'));
  const data = Array.from({ length: edit.n }, (_, index) => {
    const bytes = drawImage(stableHash(`${withoutKeywords(edit.prompt)}#${seed}#${index}`), edit.width, edit.height);
    return edit.responseFormat === 'b64_json' ? { b64_json: bytes.toString('base64') } : { url: link(bytes) };
  });
  return { created, data, usage: { input_tokens: 323, output_tokens: 4160, total_tokens: 4483 } };
}
