// What the user must agree to before a file is attached, and the question that asks it. A file whose real path
// (links resolved) is outside the workspace folders (their real paths too), or whose name or content looks like a
// credential, is sent only after an explicit yes; the question names the real path and the kind of secret found,
// never the secret.
import { promises as fs } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { isSecretPath } from './credentials';

/** The real paths of the workspace folders (a folder that cannot be resolved counts as itself). */
export function realFolders(folders: readonly string[]): Promise<string[]> {
  return Promise.all(folders.map((folder) => fs.realpath(folder).catch(() => folder)));
}

/** The path relative to the folder that holds it, or undefined when no folder does. */
export function insideFolders(path: string, folders: readonly string[]): string | undefined {
  for (const folder of folders) {
    const rel = relative(folder, path);
    if (rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('../') && !rel.startsWith('..\\'))) return rel;
  }
  return undefined;
}

/** Whether two absolute paths name the same place (Windows compares without case: `c:\\` from a URI, `C:\\` from realpath). */
export function samePath(a: string, b: string): boolean {
  return process.platform === 'win32' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export interface FileFacts {
  /** The path as the user sees it (relative to the workspace when inside it). */
  display: string;
  /** Where it really is, every link resolved; undefined when it has no file on disk (an untitled editor). */
  realPath?: string;
  /** The path named is a link (or sits in a linked folder) to somewhere else. */
  linked: boolean;
  /** The real path is outside every workspace folder. */
  outside: boolean;
  /** The name of the path or of its real path looks like it holds credentials. */
  secretName: boolean;
}

/** The facts about a path on disk: `path` as named, `realPath` where it leads, `folders` the workspace's real paths. */
export function factsOf(display: string, path: string, realPath: string, folders: readonly string[]): FileFacts {
  const realRelative = insideFolders(realPath, folders);
  const outside = realRelative === undefined;
  return { display, realPath, linked: !samePath(realPath, path), outside, secretName: isSecretPath(display) || isSecretPath(realRelative ?? realPath) };
}

const SENDS = 'Attaching it sends its content to the gateway.';

/** The question to ask before attaching, or undefined when nothing needs the user's yes. */
export function consentQuestion(facts: FileFacts, contentKind?: string): string | undefined {
  const secrets = facts.secretName ? 'looks like it holds secrets (keys, passwords or tokens)' : undefined;
  const found = contentKind ? `contains what looks like ${contentKind}` : undefined;
  if (facts.outside && facts.realPath) {
    const where = facts.linked ? `${facts.display} links to ${facts.realPath}, outside the workspace.` : `${facts.realPath} is outside the workspace.`;
    const why = [secrets, found].filter(Boolean).join(' and ');
    return `${where}${why ? ` It ${why}.` : ''} ${SENDS}`;
  }
  if (secrets || found) return `${facts.display} ${[secrets, found].filter(Boolean).join(' and ')}. ${SENDS}`;
  return undefined;
}
