// UI adapter: Apply for a reply's code block. No model is asked: the block (a unified diff, or text for the selection
// or the whole file) is turned into edits by chat/core/apply, shown in VS Code's Refactor Preview (a WorkspaceEdit
// whose edits need confirmation, one per changed run of lines, each of which can be left out), and applied only when
// the user accepts; the editor's one undo takes the whole apply back. The file is chosen, in order: the path the
// block names, the active editor's selection, its file, a file the user picks. A path that resolves (links
// followed) outside the workspace needs an explicit yes, as context attachments do; so does a file that configures
// tools or runs code (chat/core/apply/runsCode.ts), with a question that says what the change would run.
// Questions and warnings go through the one seam to the user (ui/vscode/userInterface.ts).
import { promises as fs } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { applyBlock, type TextEdit } from '../core/apply/applyBlock';
import { blockTarget, type ApplyRequest } from '../core/apply/applyTarget';
import { runsCode, runsCodeQuestion } from '../core/apply/runsCode';
import { insideFolders, realFolders } from '../../util/fileConsent';
import type { CodeApply } from '../../chatProtocol/codeApply';
import type { UserInterface } from '../../ui/vscode/userInterface';

export interface ApplyDeps {
  /** The editor Apply falls back to: the active one, else the one used last (a focused chat panel is not an editor). */
  editor(): vscode.TextEditor | undefined;
  /** Apply's questions (modal) and warnings; replaceable so tests can answer. */
  ui: Pick<UserInterface, 'ask' | 'notify'>;
  /** Picks the file when nothing else names one. */
  pickFile(): Promise<vscode.Uri | undefined>;
  /** Shows the file applied to, in `column`. */
  show(uri: vscode.Uri, column: vscode.ViewColumn): Thenable<unknown>;
}

export const APPLY_ANYWAY = 'Apply Anyway';

export const defaultApplyDeps = (editor: () => vscode.TextEditor | undefined, ui: Pick<UserInterface, 'ask' | 'openDialog' | 'notify' | 'showEditor'>): ApplyDeps => ({
  editor,
  ui,
  pickFile: async () => ui.openDialog({ defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri, openLabel: 'Apply to This File', title: 'Apply the Code Block to…' }),
  show: (uri, column) => ui.showEditor(uri, { preview: false, column }),
});

interface Target {
  uri: vscode.Uri;
  /** The selection to replace; absent: the whole file (or the diff's hunks). */
  range?: vscode.Range;
  /** The file does not exist yet: the block creates it. */
  create: boolean;
}

/** Applies a code block after review; undefined when nothing was offered (no target, refused, no change). */
export async function applyCodeBlock(request: ApplyRequest, deps: ApplyDeps): Promise<Omit<CodeApply, 'at'> | undefined> {
  const block = blockTarget(request.code, request.info);
  const target = await chooseTarget(block.path, block.diff, deps);
  if (!target) return undefined;
  const display = vscode.workspace.asRelativePath(target.uri, false);
  const place = await placeOf(target);
  const asked = place.outside;
  if (place.outside && !(await confirm(deps, outsideQuestion(target, place, display)))) return undefined;
  const document = target.create ? undefined : await vscode.workspace.openTextDocument(target.uri);
  const current = document?.getText() ?? '';
  const range = target.range && document ? { start: document.offsetAt(target.range.start), end: document.offsetAt(target.range.end) } : undefined;
  const outcome = applyBlock({ current, code: block.code, diff: block.diff, range, display });
  const warn = (message: string) => void deps.ui.notify('warning', message);
  if (!outcome.ok) return void warn(outcome.reason);
  if (outcome.edits.length === 0) return void warn(`${display} already has this code; there is nothing to apply.`);
  const runs = place.path !== undefined ? runsCode(place.path, { before: current, after: outcome.text }) : undefined;
  if (runs && !asked && !(await confirm(deps, runsCodeQuestion(place.path !== display ? `${display} (really ${place.path})` : display, runs)))) return undefined;
  const changed = document && (document.isDirty || (await changedSince(target.uri, request.replyAt)));
  const edit = reviewEdit(target, document, outcome.edits, changed ? `${display} changed since the reply` : display);
  const applied = await vscode.workspace.applyEdit(edit);
  // Where the file is shown already, else beside the chat (which stays in view).
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === target.uri.toString());
  if (applied) await deps.show(target.uri, shown?.viewColumn ?? vscode.ViewColumn.Beside);
  return { path: display, outcome: applied ? 'applied' : 'discarded' };
}

async function chooseTarget(path: string | undefined, diff: boolean, deps: ApplyDeps): Promise<Target | undefined> {
  if (path) return namedTarget(path);
  const editor = deps.editor();
  if (editor) {
    const selection = editor.selection;
    // A diff's hunks say where they go in the file; a selection matters only to a block that replaces it.
    return { uri: editor.document.uri, range: !diff && !selection.isEmpty ? selection : undefined, create: false };
  }
  const picked = await deps.pickFile();
  return picked && { uri: picked, create: false };
}

/** The file a path names: in the first workspace folder that has it, else (not there yet) created in the first. */
async function namedTarget(path: string): Promise<Target | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const relative = path.replace(/\\/g, '/').replace(/^\.\//, '');
  const candidates = isAbsolute(path) ? [path] : folders.map((folder) => join(folder, relative));
  for (const candidate of candidates) {
    const stat = await fs.stat(candidate).catch(() => undefined);
    if (stat?.isFile()) return { uri: vscode.Uri.file(candidate), create: false };
  }
  return candidates[0] ? { uri: vscode.Uri.file(candidates[0]), create: true } : undefined;
}

interface Place {
  /** The real path (links resolved; for a new file, its folder's) relative to the workspace folder holding it, or
   * absolute when none does; undefined for a file not on disk (an untitled editor: the user's own). */
  path?: string;
  /** The real path, when it differs from the path named (a link), or when it could not be resolved. */
  real?: string;
  outside: boolean;
}

/** Where the file really is: inside a workspace folder, or outside (asked about). */
async function placeOf(target: Target): Promise<Place> {
  if (target.uri.scheme !== 'file') return { outside: false };
  const path = target.uri.fsPath;
  const real = target.create ? await realParent(path) : await fs.realpath(path).catch(() => undefined);
  const roots = await realFolders((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
  const inside = real !== undefined ? insideFolders(real, roots) : undefined;
  if (inside !== undefined) return { path: inside, outside: false };
  return { path: real ?? path, real, outside: true };
}

/** The question before a path outside the workspace, saying also what the file runs when it is such a file. */
function outsideQuestion(target: Target, place: Place, display: string): string {
  const path = target.uri.fsPath;
  const where = place.real && place.real !== path ? `${display} leads to ${place.real}, outside the workspace.` : `${place.real ?? path} is outside the workspace.`;
  const runs = runsCode(place.path ?? path);
  return `${where}${runs ? ` It is ${runs.what}.` : ''} Apply the code block there?`;
}

async function confirm(deps: ApplyDeps, question: string): Promise<boolean> {
  return (await deps.ui.ask('warning', question, '', APPLY_ANYWAY)) === APPLY_ANYWAY;
}

/** A new file's real path: its nearest existing folder resolved, the rest as named. */
async function realParent(path: string): Promise<string | undefined> {
  let folder = dirname(path);
  const rest: string[] = [path.slice(folder.length + 1)];
  for (let depth = 0; depth < 64; depth++) {
    const real = await fs.realpath(folder).catch(() => undefined);
    if (real !== undefined) return join(real, ...rest);
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    rest.unshift(folder.slice(parent.length + 1));
    folder = parent;
  }
  return undefined;
}

async function changedSince(uri: vscode.Uri, replyAt: number | undefined): Promise<boolean> {
  if (replyAt === undefined || uri.scheme !== 'file') return false;
  const stat = await fs.stat(uri.fsPath).catch(() => undefined);
  return stat !== undefined && stat.mtimeMs > replyAt;
}

/** One edit per changed run of lines, each needing confirmation: Refactor Preview lists them to accept or leave out. */
function reviewEdit(target: Target, document: vscode.TextDocument | undefined, edits: readonly TextEdit[], description: string): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  const metadata = (label: string): vscode.WorkspaceEditEntryMetadata => ({ needsConfirmation: true, label, description });
  if (!document) {
    edit.createFile(target.uri, { ignoreIfExists: false }, metadata('Create the file'));
    edit.insert(target.uri, new vscode.Position(0, 0), edits.map((e) => e.text).join(''), metadata('Its content'));
    return edit;
  }
  edits.forEach((change, index) => {
    const range = new vscode.Range(document.positionAt(change.start), document.positionAt(change.end));
    const lines = range.start.line === range.end.line || range.end.character > 0 ? `${range.start.line + 1}–${range.end.line + 1}` : `${range.start.line + 1}–${range.end.line}`;
    const what = change.start === change.end ? `insert at line ${range.start.line + 1}` : change.text === '' ? `remove lines ${lines}` : `lines ${lines}`;
    edit.replace(target.uri, range, change.text, metadata(`Change ${index + 1} of ${edits.length}: ${what}`));
  });
  return edit;
}
