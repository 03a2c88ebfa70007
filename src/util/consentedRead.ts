// A file the user named, to be sent to the gateway (an image to edit, a video's first frame): read with the chat's
// own rules for attachments. The real path is resolved first, only a regular file is read, the read stops at the
// limit, and a file outside the workspace (or named like a credential) is read only after the user's yes.
import { basename } from 'node:path';
import { formatBytes } from './bytes';
import { consentQuestion, factsOf, insideFolders } from './fileConsent';
import { notAFileRefusal, readBounded, resolveFile } from './fileRead';

/** Where files are read from: the workspace's real folders, and who is asked before a file outside them is read. */
export interface ReadPlace {
  /** The workspace folders' real paths. */
  roots: readonly string[];
  /** Asks the consent question; true to go on. */
  confirm(question: string): PromiseLike<boolean>;
  /** Files the extension itself keeps (the Media history): read without asking. */
  ownFolder?: string;
}

export class FileRefusal extends Error {
  override readonly name = 'FileRefusal';
  constructor(
    readonly code: 'declined' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

export interface ConsentedFile {
  bytes: Uint8Array;
  realPath: string;
  /** The name as the user sees it. */
  display: string;
  /** The real path is inside a workspace folder. */
  inside: boolean;
}

/** The limit in words, for "… is 9 MB; <limit>": e.g. "images up to 8 MB are sent (modelGateway.media.maxSizeMB)". */
export type LimitWords = (maxBytes: string) => string;

/** Reads `path` (absolute) with the rules above; throws FileRefusal when it may not or cannot be read. */
export async function readConsented(path: string, maxBytes: number, place: ReadPlace, limit: LimitWords): Promise<ConsentedFile> {
  const tooLarge = (size: number) => `${path} is ${formatBytes(size)}; ${limit(formatBytes(maxBytes))}.`;
  let resolved;
  try {
    resolved = await resolveFile(path);
  } catch (error) {
    throw new FileRefusal('unreadable', `Cannot read ${path}: ${(error as Error).message}`);
  }
  if (resolved.kind !== 'file') throw new FileRefusal('unreadable', notAFileRefusal(path, resolved.kind, resolved.realPath === path ? undefined : resolved.realPath));
  if (resolved.size > maxBytes) throw new FileRefusal('unreadable', tooLarge(resolved.size));
  const facts = factsOf(path, path, resolved.realPath, place.ownFolder ? [...place.roots, place.ownFolder] : place.roots);
  const question = consentQuestion(facts);
  if (question !== undefined && !(await place.confirm(question))) throw new FileRefusal('declined', `Nothing was sent: ${path} was not read.`);
  const read = await readBounded(resolved.realPath, maxBytes);
  if (!read.ok) throw new FileRefusal('unreadable', 'kind' in read ? notAFileRefusal(path, read.kind) : tooLarge(read.atLeast));
  const bytes = new Uint8Array(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length);
  return { bytes, realPath: resolved.realPath, display: basename(path), inside: insideFolders(resolved.realPath, place.roots) !== undefined };
}
