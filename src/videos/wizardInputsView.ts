// UI adapter: the two Generate Video steps that a plain input box or quick pick cannot do: the prompt (from the
// selection, or written over several lines in an editor) and the model (a picker that fills while it is open).
// Reached through CommandUi (commandUiView.ts).
import * as vscode from 'vscode';

/** The models to offer, and what the picker says about them. */
export interface ModelChoices {
  ids: string[];
  placeholder: string;
}

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

/**
 * Offers `defaultModel` at once and the gateway's list when `choices` arrives; choosing before it does just
 * stops listening. Resolves with the id, 'other' for "Other model id…", or undefined when dismissed.
 */
export async function pickModelId(title: string, defaultModel: string, choices: Promise<ModelChoices>): Promise<string | 'other' | undefined> {
  type Item = vscode.QuickPickItem & { other?: true };
  const other: Item = { label: '$(edit) Other model id…', other: true, alwaysShow: true };
  const itemsFor = (ids: string[]): Item[] => [...ids.map((id) => ({ label: id, description: id === defaultModel ? 'default' : undefined })), other];
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = 'Loading the gateway’s models…';
  pick.ignoreFocusOut = true;
  pick.busy = true;
  pick.items = itemsFor([defaultModel]);
  pick.activeItems = [pick.items[0]];
  let open = true;
  void choices.then((loaded) => {
    if (!open) return;
    pick.items = itemsFor(loaded.ids);
    pick.activeItems = [pick.items[0]];
    pick.placeholder = loaded.placeholder;
    pick.busy = false;
  });
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0] ?? pick.activeItems[0]);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  open = false;
  pick.dispose();
  if (!chosen) return undefined;
  return chosen.other ? 'other' : chosen.label;
}
