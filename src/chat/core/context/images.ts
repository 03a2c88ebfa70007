// Images pasted or dropped into the chat: the type is read from the bytes (never trusted from the name or the
// webview), and the size checked against the limit before anything is kept.
import { ATTACHMENT_LIMITS, type ImageType } from '../../../chatProtocol/attachments';
import { formatSize } from './fileCheck';

/** The image type the bytes start with, if it is one the chat sends. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  return undefined;
}

export const IMAGE_EXTENSIONS = /\.(png|jpe?g|webp|gif)$/i;

export type ImageVerdict = { ok: true; mimeType: ImageType } | { ok: false; reason: string };

export function imageSizeRefusal(name: string, size: number, maxBytes: number = ATTACHMENT_LIMITS.imageBytes): string {
  return `${name} is ${formatSize(size)}; images up to ${formatSize(maxBytes)} can be attached. Make it smaller and try again.`;
}

export function checkImage(name: string, bytes: Uint8Array, maxBytes: number = ATTACHMENT_LIMITS.imageBytes): ImageVerdict {
  if (bytes.length === 0) return { ok: false, reason: `${name} is empty.` };
  if (bytes.length > maxBytes) return { ok: false, reason: imageSizeRefusal(name, bytes.length, maxBytes) };
  const mimeType = sniffImageType(bytes);
  if (!mimeType) return { ok: false, reason: `${name} is not a PNG, JPEG, WebP or GIF image; it was not attached.` };
  return { ok: true, mimeType };
}
