// Saving a result to disk. Pure Node (no vscode). The bytes come through the gateway's result fetcher (the proxy
// the API calls use; redirects followed under the one link rule; the key only to the gateway's origin). Everything
// about the file is chosen here, not by the server: the name comes from the job id, the extension from an allowlist
// by Content-Type, the size is capped, and the file is created exclusively (a name that exists, even as a dangling
// link, is never written through). The bytes go to a `.part` file beside it, which gets the name only once complete,
// so a crash or a kill mid-download never leaves a partial video under the name.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { openResult, ResultFetchError, type OpenResultOptions, type ResultFetchErrorCode } from '../../gateway/resultFetch';
import { formatBytes } from '../../util/bytes';
import { createNewFile, NewFileError, openNewFile } from '../../util/newFile';

export { isWindowsReservedName, resultFileStem } from './resultFileName';

export type DownloadErrorCode = ResultFetchErrorCode | 'http_status' | 'incomplete' | 'not_video' | 'too_large' | 'file';

export class DownloadError extends Error {
  override readonly name = 'DownloadError';
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_DOWNLOAD_BYTES = 2 * 1024 ** 3;

const VIDEO_EXTENSIONS: Record<string, string> = { 'video/mp4': '.mp4', 'video/webm': '.webm', 'video/quicktime': '.mov' };
const DEFAULT_EXTENSION = '.mp4';

/** The type a saved video plays as, by the extension videoExtensionFor gave it. */
export function videoTypeOfFile(file: string): string {
  const extension = file.slice(file.lastIndexOf('.')).toLowerCase();
  return Object.keys(VIDEO_EXTENSIONS).find((type) => VIDEO_EXTENSIONS[type] === extension) ?? 'video/mp4';
}

/**
 * The extension for a body of this Content-Type, or why it is refused: only video/* and application/octet-stream
 * are saved (anything else is usually an error or sign-in page); unknown video types get `.mp4`.
 */
export function videoExtensionFor(contentType: string | undefined): ExtensionChoice {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === '') return { ok: false, reason: 'The server did not say what it sent (no Content-Type), so it was not saved as a video.' };
  if (type === 'application/octet-stream' || /^video\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type)) return { ok: true, extension: VIDEO_EXTENSIONS[type] ?? DEFAULT_EXTENSION };
  const shown = type.length > 60 ? `${type.slice(0, 59)}…` : type;
  const hint = type.startsWith('text/html') ? ' (a web page: often a sign-in or error page)' : '';
  return { ok: false, reason: `The link sent ${shown}${hint} instead of a video, so nothing was saved.` };
}

const THUMBNAIL_TYPES: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/webp': '.webp' };

/** The extension a result's thumbnail is kept under, by its Content-Type: only PNG, JPEG and WebP stills are kept. */
export function thumbnailExtensionFor(contentType: string | undefined): ExtensionChoice {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const extension = Object.hasOwn(THUMBNAIL_TYPES, type) ? THUMBNAIL_TYPES[type] : undefined;
  return extension ? { ok: true, extension } : { ok: false, reason: `The thumbnail link sent ${type.slice(0, 60) || 'no Content-Type'} instead of a PNG, JPEG or WebP image, so it was not kept.` };
}

export type ExtensionChoice = { ok: true; extension: string } | { ok: false; reason: string };

/** How to reach the link (`connection.resultFetchOptions()` gives the proxy and the gateway's credentials). */
export type DownloadOptions = Pick<OpenResultOptions, 'proxy' | 'env' | 'credentials' | 'signal' | 'maxRedirects' | 'timeoutMs' | 'idleTimeoutMs'> & SaveOptions;

interface SaveOptions {
  /** Called as bytes arrive; `total` is the Content-Length when the server sent one. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** The most bytes written; a larger body stops the download. */
  maxBytes?: number;
  /** The extension a body of this Content-Type is saved under, or why it is refused (videoExtensionFor without). */
  fileType?: (contentType: string | undefined) => ExtensionChoice;
}

export interface DownloadResult {
  file: string;
  bytes: number;
  contentType: string | undefined;
  /** The link the bytes finally came from (after redirects). */
  finalUrl: string;
}

/**
 * Streams `url` into a new file in `directory` named `stem` plus the extension its Content-Type allows. A refused
 * type or size writes nothing; a failed or cancelled download removes what it wrote.
 */
export async function downloadResult(url: string, directory: string, stem: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  let created: { file: string; handle: FileHandle } | undefined;
  try {
    const response = await openResult(url, { ...options, method: 'GET' });
    const fileType = options.fileType ?? videoExtensionFor;
    const refusal = refusalOf(response.status, response.headers, maxBytes, fileType);
    if (refusal) {
      response.body.destroy();
      throw refusal;
    }
    const contentType = response.headers['content-type'];
    const total = lengthOf(response.headers);
    const extension = (fileType(contentType) as { extension: string }).extension;
    created = await createPartFile(directory, `${stem}${extension}`);
    let received = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        received += chunk.length;
        if (received > maxBytes) throw tooLarge(maxBytes);
        await writeAll(created, chunk);
        options.onProgress?.(received, total);
      }
    } finally {
      response.body.destroy();
    }
    if (total !== undefined && received !== total) throw new DownloadError('incomplete', `Received ${received} of ${total} bytes; the connection broke before the whole video arrived.`);
    await created.handle.datasync();
    await created.handle.close();
    const file = await publish(created.file, directory, stem, extension);
    return { file, bytes: received, contentType, finalUrl: response.finalUrl };
  } catch (error) {
    if (created) {
      await created.handle.close().catch(() => undefined);
      await fs.rm(created.file, { force: true }).catch(() => undefined);
    }
    throw downloadErrorOf(error, created !== undefined);
  }
}

/** The file the bytes go to until they are all there: `<name>.<pid>-<random>.part`, created exclusively. */
async function createPartFile(directory: string, name: string): Promise<{ file: string; handle: FileHandle }> {
  const file = join(directory, `${name}.${process.pid}-${randomBytes(4).toString('hex')}.part`);
  const handle = await openNewFile(file);
  if (handle === 'exists') throw new NewFileError(`Could not create ${file}: it exists`);
  return { file, handle };
}

/**
 * Gives the complete `.part` file its name: `stem + extension`, or `stem (2)…` when taken. A hard link fails when
 * the name exists (even as a dangling link), so nothing is written over or through; where links are not supported,
 * the name is reserved by an exclusive create and the file renamed over it.
 */
async function publish(part: string, directory: string, stem: string, extension: string): Promise<string> {
  for (let n = 1; n < 10_000; n++) {
    const file = join(directory, n === 1 ? `${stem}${extension}` : `${stem} (${n})${extension}`);
    try {
      await fs.link(part, file);
      await fs.rm(part, { force: true });
      return file;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
      const reserved = await createNewFile(directory, stem, extension, n);
      await reserved.handle.close();
      await fs.rename(part, reserved.file);
      return reserved.file;
    }
  }
  throw new NewFileError(`Too many files named like ${stem}${extension} in ${directory}.`);
}

/** Why a response is not saved: an error status, a body that is not a video, or a declared size over the limit. */
function refusalOf(status: number, headers: Record<string, string>, maxBytes: number, fileType: (contentType: string | undefined) => ExtensionChoice): DownloadError | undefined {
  if (status !== 200) return new DownloadError('http_status', statusMessage(status), status);
  const type = fileType(headers['content-type']);
  if (!type.ok) return new DownloadError('not_video', type.reason);
  const total = lengthOf(headers);
  return total !== undefined && total > maxBytes ? tooLarge(maxBytes, total) : undefined;
}

function lengthOf(headers: Record<string, string>): number | undefined {
  const value = headers['content-length'];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function statusMessage(status: number): string {
  if (status === 403) return 'The server refused the download (HTTP 403). A signed result link stops working when it expires.';
  if (status === 404) return 'The result file is gone (HTTP 404).';
  if (status === 410) return 'The result file is gone (HTTP 410). A signed result link stops working when it expires.';
  return `The download failed with HTTP ${status}.`;
}

/** The fetcher's failures as DownloadErrors; a network failure once the file was begun means an incomplete video. */
function downloadErrorOf(error: unknown, writing: boolean): DownloadError {
  if (error instanceof DownloadError) return error;
  if (error instanceof NewFileError) return new DownloadError('file', error.message);
  if (error instanceof ResultFetchError) {
    if (writing && error.code === 'network') return new DownloadError('incomplete', `The connection broke before the whole video arrived (${error.message}).`);
    return new DownloadError(error.code, error.message);
  }
  return new DownloadError('network', `The download failed: ${error instanceof Error ? error.message : String(error)}`);
}

function tooLarge(maxBytes: number, total?: number): DownloadError {
  const size = total === undefined ? 'The video is larger than' : `The video (${formatBytes(total)}) is larger than`;
  return new DownloadError('too_large', `${size} the download limit of ${formatBytes(maxBytes)} (modelGateway.video.maxDownloadMB); nothing was kept.`);
}

async function writeAll(target: { file: string; handle: FileHandle }, chunk: Uint8Array): Promise<void> {
  try {
    for (let offset = 0; offset < chunk.length; ) offset += (await target.handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
  } catch (error) {
    throw new DownloadError('file', `Could not write ${target.file}: ${(error as Error).message}`);
  }
}
