// The user is reached only through the UI seam (src/ui/vscode/): outside that folder no file calls VS Code's
// messages, questions, pickers, dialogs, editors-to-show or progress (`vscode.window.show*`, `withProgress`,
// `createQuickPick`, `createInputBox`). A call made around the seam is one a host test cannot answer or read, and
// one the seam's wording and behaviour (a password box that never loses an Enter, the save dialog's label) misses.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const src = join(__dirname, '../../../../src');
const SEAM_FOLDER = 'ui/vscode/';
/** VS Code's own names for talking to the user; caught as `window.<name>` and, for a destructured one, bare. */
const WINDOW_CALLS = new Set(['withProgress', 'createQuickPick', 'createInputBox']);
const isUserCall = (name: string) => name.startsWith('show') || WINDOW_CALLS.has(name);
const VSCODE_NAMES = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showQuickPick', 'showInputBox', 'showOpenDialog', 'showSaveDialog', 'showTextDocument', 'showWorkspaceFolderPick', 'showNotebookDocument', 'createQuickPick', 'createInputBox'];

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `text` with its comments blanked (a comment may name an API it explains); strings are kept. */
export function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  let quote: string | undefined;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = undefined;
      i++;
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      out += c;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);

/** The calls of `text` that talk to the user past the seam: `window.<name>` (spaces allowed around the dot) and the bare VS Code names. */
export function userCalls(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  for (let at = code.indexOf('window'); at >= 0; at = code.indexOf('window', at + 1)) {
    if (isWordChar(code[at - 1]) || isWordChar(code[at + 6])) continue;
    let i = at + 6;
    while (code[i] === ' ' || code[i] === '\n' || code[i] === '\t' || code[i] === '\r') i++;
    if (code[i] !== '.') continue;
    i++;
    while (code[i] === ' ' || code[i] === '\n' || code[i] === '\t' || code[i] === '\r') i++;
    let name = '';
    while (isWordChar(code[i])) name += code[i++];
    if (isUserCall(name)) found.push(`window.${name}`);
  }
  for (const name of VSCODE_NAMES) {
    for (let at = code.indexOf(name); at >= 0; at = code.indexOf(name, at + 1)) {
      if (isWordChar(code[at - 1]) || isWordChar(code[at + name.length]) || code[at - 1] === '.') continue;
      found.push(name);
    }
  }
  return found;
}

describe('the user seam (src/ui/vscode/) is the only way to the user', () => {
  const files = listSources(src).map((file) => ({ path: relative(src, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));

  it('finds the calls it looks for (the rule is not vacuous)', () => {
    const inSeam = files.filter((f) => f.path.startsWith(SEAM_FOLDER)).flatMap((f) => userCalls(f.text));
    for (const call of ['window.showInformationMessage', 'window.showQuickPick', 'window.withProgress', 'window.createQuickPick', 'window.createInputBox', 'window.showTextDocument']) assert.ok(inSeam.includes(call), `${call} in the seam`);
    assert.deepEqual(userCalls('const { showQuickPick } = vscode.window; // vscode.window.showInputBox\nawait window . withProgress(o, t);'), ['window.withProgress', 'showQuickPick']);
    assert.deepEqual(userCalls("const s = 'a // b'; vscode.window.showErrorMessage(s); /* window.showInputBox */"), ['window.showErrorMessage']);
    assert.deepEqual(userCalls('this.ui.showEditor(uri); statusBar.showMenu(); windowed.showX(); window.onDidChangeActiveTextEditor(f);'), []);
  });

  it('has no call of vscode.window.show*, withProgress, createQuickPick or createInputBox outside src/ui/vscode/', () => {
    const offending = files.filter((f) => !f.path.startsWith(SEAM_FOLDER)).map((f) => ({ file: f.path, calls: userCalls(f.text) })).filter((f) => f.calls.length > 0);
    assert.deepEqual(offending, [], offending.map((f) => `${f.file}: ${f.calls.join(', ')}`).join('\n'));
  });
});
