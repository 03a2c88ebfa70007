// UI adapter: Add to Model Gateway Chat: files from the Explorer (the one clicked, or every one selected), the
// editor's selection, or `{ paths?, selection? }` from the palette or another extension, into the context of the chat
// used last (a new chat when none is open). Everything goes through the chat's own Add Context (ChatContext and the
// workspace context provider), so the same rules apply: a file outside the workspace, through a link, or named like a
// credential is attached only after the user's yes; binary and oversized files are refused, saying why.
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { ChatContext } from '../core/chatContext';

/** What the chat manager offers the command. */
export interface AddToChatTarget {
  /** The chat used last with its context, else a new chat's. */
  targetContext(): Promise<{ context: ChatContext; reveal(): void }>;
  notify(message: string): void;
}

export type AddToChatAsk = { kind: 'uris'; uris: vscode.Uri[] } | { kind: 'selection' } | { kind: 'menu' } | { kind: 'invalid'; problem: string };

const MAX_PATHS = 50;

/** Where a path leads: relative paths from the first workspace folder (on disk). */
function uriOfPath(path: string): vscode.Uri | undefined {
  if (isAbsolute(path)) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder && vscode.Uri.file(resolve(folder.uri.fsPath, path));
}

/**
 * Reads the command's arguments: the Explorer passes the clicked file and the selected ones; the palette nothing (the
 * Add Context menu then asks); a caller `{ paths?: string[], selection?: boolean }`.
 */
export function addToChatAsk(first: unknown, selected: unknown): AddToChatAsk {
  if (first instanceof vscode.Uri) {
    const many = Array.isArray(selected) ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
    return { kind: 'uris', uris: many.length > 0 ? many.slice(0, MAX_PATHS) : [first] };
  }
  if (first === undefined || first === null) return { kind: 'menu' };
  if (typeof first !== 'object' || Array.isArray(first)) return { kind: 'invalid', problem: 'The argument must be an object { paths?, selection? }.' };
  const { paths, selection, ...rest } = first as { paths?: unknown; selection?: unknown };
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) return { kind: 'invalid', problem: `Unknown field ${unknown.slice(0, 40)}; the fields are paths and selection.` };
  if (selection !== undefined && typeof selection !== 'boolean') return { kind: 'invalid', problem: 'selection must be true or false.' };
  if (paths !== undefined && (!Array.isArray(paths) || paths.some((p) => typeof p !== 'string' || p.trim() === ''))) return { kind: 'invalid', problem: 'paths must be a list of file paths.' };
  if (Array.isArray(paths) && paths.length > MAX_PATHS) return { kind: 'invalid', problem: `At most ${MAX_PATHS} paths at once.` };
  if (paths && paths.length > 0) {
    const uris = (paths as string[]).map(uriOfPath);
    if (uris.some((u) => u === undefined)) return { kind: 'invalid', problem: 'A relative path needs a workspace folder; give an absolute path.' };
    return { kind: 'uris', uris: uris as vscode.Uri[] };
  }
  return selection ? { kind: 'selection' } : { kind: 'menu' };
}

/** Runs Add to Model Gateway Chat; the chat is shown with what was attached. */
export async function addToChat(target: AddToChatTarget, first?: unknown, selected?: unknown): Promise<void> {
  const ask = addToChatAsk(first, selected);
  if (ask.kind === 'invalid') return target.notify(`Add to Model Gateway Chat: ${ask.problem}`);
  const { context, reveal } = await target.targetContext();
  reveal();
  if (ask.kind === 'uris') await context.addUris(ask.uris.map((u) => u.toString()));
  else await context.add(ask.kind === 'selection' ? 'selection' : 'menu');
}
