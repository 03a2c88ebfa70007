// POST /v1/images/generations: real PNGs drawn from the prompt, returned as base64 or as signed links served under
// /files/ (valid one hour on the injected clock, or `[expires:N]` seconds). `[not-image]` in the prompt makes the "image" an HTML page.
import { randomBytes } from 'node:crypto';
import { bodyForModel, invalidRequest, isObject, SimErrorResponse } from './errors';
import { HTML_ERROR_PAGE } from './faults';
import { IMAGE_MODEL, isKnownModel, UNPRICED_IMAGE_MODEL } from './models';
import { encodePng } from './png';
import { hasKeyword, stableHash, withoutKeywords } from './replies';
import { linkLifetimeOf, UrlSigner } from './signing';

export const IMAGE_SIZES = ['256x256', '512x512', '1024x1024', '1792x1024', '1024x1792'] as const;
export const MAX_IMAGES_PER_REQUEST = 4;
const MAX_PROMPT_CHARS = 4000;
const KEPT_FILES = 64;

export interface ValidImageRequest {
  model: string;
  prompt: string;
  n: number;
  width: number;
  height: number;
  responseFormat: 'url' | 'b64_json';
}

export function validateImageRequest(raw: unknown): ValidImageRequest {
  const unpriced = typeof raw === 'object' && raw !== null && (raw as { model?: unknown }).model === UNPRICED_IMAGE_MODEL;
  const body = bodyForModel(raw, unpriced ? UNPRICED_IMAGE_MODEL : IMAGE_MODEL, (model) => isKnownModel(model) || unpriced, (model) => `${model} cannot generate images; use ${IMAGE_MODEL}`);
  if (typeof body.prompt !== 'string' || body.prompt.trim() === '') throw invalidRequest("'prompt' must be a non-empty string");
  if (body.prompt.length > MAX_PROMPT_CHARS) throw invalidRequest(`'prompt' is ${body.prompt.length} characters; the limit is ${MAX_PROMPT_CHARS}`);
  const n = body.n ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_IMAGES_PER_REQUEST) throw invalidRequest(`'n' must be an integer from 1 to ${MAX_IMAGES_PER_REQUEST}`);
  const size = body.size ?? '1024x1024';
  const sizeText = size === 'auto' ? '1024x1024' : size;
  if (typeof sizeText !== 'string' || !(IMAGE_SIZES as readonly string[]).includes(sizeText)) throw invalidRequest(`'size' must be one of ${IMAGE_SIZES.join(', ')} or auto`);
  const responseFormat = body.response_format ?? 'url';
  if (responseFormat !== 'url' && responseFormat !== 'b64_json') throw invalidRequest("'response_format' must be 'url' or 'b64_json'");
  const [width, height] = sizeText.split('x').map(Number);
  return { model: body.model, prompt: body.prompt, n, width, height, responseFormat };
}

export function promptOfImageBody(body: unknown): string {
  return isObject(body) && typeof body.prompt === 'string' ? body.prompt : '';
}

/** A picture that depends only on the seed: a diagonal gradient between two colours, with rings around a point. */
export function drawImage(seed: number, width: number, height: number): Buffer {
  const colour = (h: number): [number, number, number] => [(h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff];
  const [r1, g1, b1] = colour(seed);
  const [r2, g2, b2] = colour(Math.imul(seed ^ 0x9e3779b9, 2654435761) >>> 0);
  const cx = ((seed >>> 3) % 1000) / 1000 * width;
  const cy = ((seed >>> 13) % 1000) / 1000 * height;
  const ring = 12 + (seed % 24);
  const rgb = new Uint8Array(width * height * 3);
  let i = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      const d = Math.hypot(x - cx, y - cy);
      const shade = Math.floor(d / ring) % 2 === 0 ? 1 : 0.8;
      rgb[i++] = Math.round((r1 + (r2 - r1) * t) * shade);
      rgb[i++] = Math.round((g1 + (g2 - g1) * t) * shade);
      rgb[i++] = Math.round((b1 + (b2 - b1) * t) * shade);
    }
  }
  return encodePng(width, height, rgb);
}

interface StoredImage {
  bytes: Buffer;
  contentType: string;
}

export class GeneratedImages {
  private readonly files = new Map<string, StoredImage>();
  private readonly signer = new UrlSigner();

  constructor(private readonly now: () => number) {}

  generate(request: ValidImageRequest, origin: string): Record<string, unknown> {
    const created = Math.floor(this.now() / 1000);
    const notImage = hasKeyword(request.prompt, 'not-image');
    const revised = withoutKeywords(request.prompt);
    const data = Array.from({ length: request.n }, (_, index) => {
      const bytes = notImage ? Buffer.from(HTML_ERROR_PAGE, 'utf8') : drawImage(stableHash(`${revised}#${index}`), request.width, request.height);
      if (request.responseFormat === 'b64_json') return { b64_json: bytes.toString('base64'), revised_prompt: revised };
      const id = `img_${randomBytes(12).toString('hex')}`;
      this.keep(id, { bytes, contentType: 'image/png' });
      return { url: this.signer.url(origin, `${id}.png`, id, created + linkLifetimeOf(request.prompt)), revised_prompt: revised };
    });
    return { created, data };
  }

  /** Keeps bytes behind a signed link valid until `expiresAt` (Unix seconds): an edit's `url` answer. */
  linkTo(bytes: Buffer, origin: string, expiresAt: number): string {
    const id = `img_${randomBytes(12).toString('hex')}`;
    this.keep(id, { bytes, contentType: 'image/png' });
    return this.signer.url(origin, `${id}.png`, id, expiresAt);
  }

  /** The file behind a signed link, or the 403/404 to send. */
  file(id: string, sig: string | null, expires: string | null): StoredImage {
    const stored = this.files.get(id);
    if (!stored) throw new SimErrorResponse({ status: 404, code: 'not_found', message: `No image file for '${id}'` });
    const problem = this.signer.problem(id, sig, expires, this.now());
    if (problem) throw problem;
    return stored;
  }

  private keep(id: string, image: StoredImage): void {
    this.files.set(id, image);
    for (const oldest of this.files.keys()) {
      if (this.files.size <= KEPT_FILES) break;
      this.files.delete(oldest);
    }
  }
}
