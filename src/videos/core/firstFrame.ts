// Image to video: the first frame a job starts from, as the submission carries it. A workspace image (or one the
// chat attached) becomes a data URL: the dialect adapters put it where their gateway takes it (`frame_images`,
// `input_reference`, `image.url`, `img_url`). The file is read with the chat's rules (util/consentedRead.ts):
// bounded, and only after the user's yes when it lies outside the workspace. Pure Node (no `vscode`).
import { isAbsolute, join } from 'node:path';
import { ATTACHMENT_LIMITS } from '../../chatProtocol/attachments';
import { sniffImage } from '../../gateway/mediaTypes';
import { readConsented, type ReadPlace } from '../../util/consentedRead';
import type { FirstFrame } from './api';
import { VideoRequestError } from './videoRequest';

/**
 * The largest first frame sent: a chat's image attachment's limit. The frame travels inside the job's request, which
 * the job store keeps (for Resubmit), so it stays as small as an attached image.
 */
export const MAX_FIRST_FRAME_BYTES = ATTACHMENT_LIMITS.imageBytes;


/** The frame as a data URL; throws VideoRequestError when the bytes are not a PNG, JPEG, WebP or GIF image, or too large. */
export function frameDataUrl(bytes: Uint8Array, shown = 'The first frame'): string {
  if (bytes.length > MAX_FIRST_FRAME_BYTES) throw new VideoRequestError(`${shown} is larger than the ${MAX_FIRST_FRAME_BYTES / (1024 * 1024)} MB a first frame may be.`);
  const type = sniffImage(bytes);
  if (!type) throw new VideoRequestError(`${shown} is not a PNG, JPEG, WebP or GIF image.`);
  return `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')}`;
}

/** Reads the frame (a file with the consent rules, a relative path from the first workspace folder; or attached bytes) into a data URL. Throws FileRefusal or VideoRequestError. */
export async function readFirstFrame(source: FirstFrame, place: () => Promise<ReadPlace & { firstFolder?: string }>): Promise<string> {
  if ('data' in source) return frameDataUrl(source.data, 'The attached image');
  const where = await place();
  const path = isAbsolute(source.path) || !where.firstFolder ? source.path : join(where.firstFolder, source.path);
  const file = await readConsented(path, MAX_FIRST_FRAME_BYTES, where, (limit) => `a first frame may be up to ${limit}`);
  return frameDataUrl(file.bytes, `The first frame ${source.path}`);
}
