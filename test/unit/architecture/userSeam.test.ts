// The user is reached only through the UI seam (src/ui/vscode/): outside that folder no file calls VS Code's
// messages, questions, pickers, dialogs, editors-to-show or progress (`vscode.window.show*`, `withProgress`,
// `createQuickPick`, `createInputBox`). A call made around the seam is one a host test cannot answer or read, and
// one the seam's wording and behaviour (a password box that never loses an Enter, the save dialog's label) misses.
import * as assert from 'node:assert/strict';
import { loadSources, SEAM_FOLDER, userCalls } from './layering';

describe('the user seam rule: what counts as talking to the user (the rule itself is in layering.test.ts)', () => {
  const files = loadSources();

  it('finds the calls it looks for (the rule is not vacuous)', () => {
    const inSeam = files.filter((f) => f.path.startsWith(SEAM_FOLDER)).flatMap((f) => userCalls(f.text));
    for (const call of ['window.showInformationMessage', 'window.showQuickPick', 'window.withProgress', 'window.createQuickPick', 'window.createInputBox', 'window.showTextDocument']) assert.ok(inSeam.includes(call), `${call} in the seam`);
    assert.deepEqual(userCalls('const { showQuickPick } = vscode.window; // vscode.window.showInputBox\nawait window . withProgress(o, t);'), ['window.withProgress', 'showQuickPick']);
    assert.deepEqual(userCalls("const s = 'a // b'; vscode.window.showErrorMessage(s); /* window.showInputBox */"), ['window.showErrorMessage']);
    assert.deepEqual(userCalls('this.ui.showEditor(uri); statusBar.showMenu(); windowed.showX(); window.onDidChangeActiveTextEditor(f);'), []);
  });
});
