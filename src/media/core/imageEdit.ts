// Edit Image: an image file on disk and a prompt in, a new image out. The source (and mask) are read with the chat's
// own rules for files (util/consentedRead.ts): the real path resolved, regular files only, bounded by
// the media size limit, and a file outside the workspace (or named like a credential) read only after the user's
// yes. The edit goes through the same media core as Generate Image (generateImages: the route, the history, the
// checks); the result is kept in the Media history and, for a source inside the workspace, written beside it under a
// new name. The original is never written. Pure Node (no `vscode`).
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname } from 'node:path';
import { MEDIA_EXTENSIONS, sniffImage } from '../../gateway/mediaTypes';
import type { ImageInput } from '../../gateway/types';
import { FileRefusal as EditError, readConsented, type ReadPlace } from '../../util/consentedRead';
import type { MediaEntry } from './mediaEntry';
import { generateImages, type ImageOutcome, type MediaCallOptions, type MediaCoreDeps } from './mediaGeneration';
import { MediaRequestError } from './mediaRequest';
import { writeUnderFreeName } from './workspaceSave';

/** `modelGateway.editImage`'s argument. */
export interface EditAsk {
  /** The image file (absolute path). */
  path: string;
  prompt: string;
  /** A PNG of the image's size: where the image may change (`/images/edits` only). */
  mask?: string;
  model?: string;
}

/** Where the files are read from (util/consentedRead.ts's place). */
export type EditPlace = ReadPlace;

export interface EditOutcome extends ImageOutcome {
  /** The new file beside the original, when the original is inside the workspace. */
  written?: string;
}

/** A file that may not or cannot be read (declined, or unreadable): the one refusal of util/consentedRead.ts. */
export { EditError };

/** Reads `{ path, prompt, mask?, model? }` from a command argument; throws a MediaRequestError on a wrong field. */
export function editAskOf(argument: unknown): EditAsk {
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) throw new MediaRequestError('The argument must be an object { path, prompt, mask?, model? }.');
  const a = argument as Record<string, unknown>;
  const unknown = Object.keys(a).find((k) => !['path', 'prompt', 'mask', 'model'].includes(k));
  if (unknown) throw new MediaRequestError(`Unknown field ${unknown}; the fields are path, prompt, mask, model.`);
  if (typeof a.path !== 'string' || a.path.trim() === '') throw new MediaRequestError('Give the image as path, a string.');
  if (typeof a.prompt !== 'string') throw new MediaRequestError('Give the prompt as a string.');
  for (const name of ['mask', 'model'] as const) if (a[name] !== undefined && typeof a[name] !== 'string') throw new MediaRequestError(`${name} must be a string.`);
  return { path: a.path, prompt: a.prompt, ...(typeof a.mask === 'string' && { mask: a.mask }), ...(typeof a.model === 'string' && { model: a.model }) };
}

/** Edits the image at `ask.path`: reads it (and the mask), asks the gateway, keeps the result and writes it beside the original. */
export async function editImage(deps: MediaCoreDeps, ask: EditAsk, place: EditPlace, options: MediaCallOptions = {}): Promise<EditOutcome> {
  const maxBytes = deps.settings(options.profile).maxBytes;
  const source = await readImage(ask.path, maxBytes, place, 'image');
  const mask = ask.mask === undefined ? undefined : await readImage(ask.mask, maxBytes, place, 'mask');
  if (mask && mask.image.contentType !== 'image/png') throw new MediaRequestError(`The mask ${mask.display} must be a PNG.`);
  const outcome = await generateImages(deps, { prompt: ask.prompt, count: 1, size: 'auto', image: source.image, ...(ask.model !== undefined && { model: ask.model }), ...(mask && { mask: mask.image }) }, options);
  if (!source.inside) return outcome;
  const written = await writeBeside(deps.history, source.realPath, outcome.entry);
  return { ...outcome, written };
}

interface ReadImage {
  image: ImageInput;
  realPath: string;
  display: string;
  /** The real path is inside a workspace folder. */
  inside: boolean;
}

async function readImage(path: string, maxBytes: number, place: EditPlace, what: 'image' | 'mask'): Promise<ReadImage> {
  const file = await readConsented(path, maxBytes, place, (limit) => `images up to ${limit} are sent (modelGateway.media.maxSizeMB)`);
  const contentType = sniffImage(file.bytes);
  if (!contentType) throw new EditError('unreadable', `The ${what} ${path} is not a PNG, JPEG, WebP or GIF image.`);
  return { image: { data: file.bytes, contentType }, realPath: file.realPath, display: file.display, inside: file.inside };
}

/** `<name>-edited.<ext>` beside the original (`… (2)` when taken), created exclusively: the original is never written. */
async function writeBeside(history: MediaCoreDeps['history'], sourceRealPath: string, entry: MediaEntry): Promise<string> {
  const file = entry.files[0];
  const stem = basename(sourceRealPath, extname(sourceRealPath));
  // The kept copy was written by the history a moment ago, from bytes already checked against the size limit.
  const bytes = await readFile(history.filePath(file));
  return writeUnderFreeName(dirname(sourceRealPath), `${stem}-edited.${MEDIA_EXTENSIONS[file.contentType]}`, bytes);
}
