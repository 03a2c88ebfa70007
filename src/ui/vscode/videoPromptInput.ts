// UI adapter: the Generate Video step that a plain input box cannot do: the prompt (from the selection, or written
// over several lines in an editor). The model picker that fills while it is open is modelPicker.ts. Reached
// through the videos' CommandUi (videos/vscode/commandUi.ts), which adds it to the user seam.
import * as vscode from 'vscode';

/** One line in an input box, or (button, or a multi-line selection) several lines in an editor. */
export async function askPromptText(title: string, validate: (text: string) => string | undefined): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
  if (selected.includes('\n')) return askPromptInEditor(title, selected, validate);
  const box = vscode.window.createInputBox();
  const editorButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Write a longer prompt, over several lines, in an editor' };
  box.title = title;
  box.prompt = 'Describe the video. For a prompt over several lines, use the editor button.';
  box.placeholder = 'A paper boat drifting down a rain-soaked street at dusk';
  box.value = selected;
  box.ignoreFocusOut = true;
  box.buttons = [editorButton];
  const answer = await new Promise<{ text: string; inEditor: boolean } | undefined>((resolve) => {
    box.onDidChangeValue((value) => (box.validationMessage = value.trim() === '' ? undefined : validate(value)));
    box.onDidAccept(() => {
      const problem = validate(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      resolve({ text: box.value.trim(), inEditor: false });
      box.hide();
    });
    box.onDidTriggerButton(() => {
      resolve({ text: box.value, inEditor: true });
      box.hide();
    });
    box.onDidHide(() => resolve(undefined));
    box.show();
  });
  box.dispose();
  if (!answer) return undefined;
  return answer.inEditor ? askPromptInEditor(title, answer.text, validate) : answer.text;
}

async function askPromptInEditor(title: string, initial: string, validate: (text: string) => string | undefined): Promise<string | undefined> {
  const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: initial });
  await vscode.window.showTextDocument(document, { preview: false });
  const use = 'Use as Prompt';
  for (;;) {
    const choice = await vscode.window.showInformationMessage(`${title}: write the prompt in the new editor, then choose "${use}".`, use, 'Cancel');
    const text = document.getText().trim();
    if (choice !== use) {
      await closeUntitled(document);
      return undefined;
    }
    const problem = validate(text);
    if (!problem) {
      await closeUntitled(document);
      return text;
    }
    void vscode.window.showErrorMessage(problem);
  }
}

/** Closes an untitled editor without asking to save it. */
async function closeUntitled(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}
