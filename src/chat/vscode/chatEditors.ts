// UI adapter: what the chat does with the text editors. It remembers the editor used last (a focused chat panel is
// not an editor, yet its buttons mean the file the user was just in), reads a selection for Ask About Selection,
// inserts a code block at the cursor and opens one in a new file.
import * as vscode from 'vscode';
import { languageIdFor } from '../core/fenceLanguage';
import { selectionPrompt } from '../core/markdownText';
import type { UserInterface } from '../../ui/vscode/userInterface';

export class ChatEditors implements vscode.Disposable {
  private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) this.lastEditor = editor;
  });

  constructor(private readonly ui: Pick<UserInterface, 'notify' | 'showEditor'>) {}

  /** The editor whose selection Ask About Selection takes: the active one, else the one used last. */
  get selectionEditor(): vscode.TextEditor | undefined {
    return vscode.window.activeTextEditor ?? this.lastEditor;
  }

  /** The editor a chat takes context from: the one used last, even when the chat now covers it. */
  contextEditor(): vscode.TextEditor | undefined {
    return vscode.window.activeTextEditor ?? (this.lastEditor && !this.lastEditor.document.isClosed ? this.lastEditor : undefined) ?? vscode.window.visibleTextEditors[0];
  }

  /** The selections of `editor` as a chat draft (a fenced block with language and file name each), or undefined when nothing is selected. */
  selectionDraft(editor: vscode.TextEditor | undefined): string | undefined {
    const selections = editor?.selections.filter((s) => !s.isEmpty) ?? [];
    if (!editor || selections.length === 0) return undefined;
    const document = editor.document;
    const fileName = document.isUntitled ? document.fileName : vscode.workspace.asRelativePath(document.uri, false);
    return selections
      .map((s) => selectionPrompt({ text: document.getText(s), languageId: document.languageId, fileName, startLine: s.start.line + 1, endLine: s.end.character === 0 && s.end.line > s.start.line ? s.end.line : s.end.line + 1 }))
      .join('');
  }

  /** Replaces every selection of the target editor (the active one, else the one used last) with `code`. */
  async insertAtCursor(code: string): Promise<void> {
    const editor = this.targetEditor();
    if (!editor) {
      void this.ui.notify('warning', 'Open a file to insert the code into.');
      return;
    }
    const applied = await editor.edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, code);
    });
    if (!applied) void this.ui.notify('warning', 'The code could not be inserted (is the editor read-only?).');
  }

  /** Opens `code` in a new untitled editor beside the chat, in the language its fence names. */
  async openInNewFile(code: string, fence: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ content: code, language: languageIdFor(fence, await vscode.languages.getLanguages()) });
    await this.ui.showEditor(document, { preview: false, column: vscode.ViewColumn.Beside });
  }

  /** The editor a code block goes into (Insert at Cursor, Apply): the active one, else the one used last, if visible. */
  targetEditor(): vscode.TextEditor | undefined {
    const candidates = [vscode.window.activeTextEditor, this.lastEditor];
    return candidates.find((e) => e !== undefined && vscode.window.visibleTextEditors.includes(e)) ?? vscode.window.visibleTextEditors[0];
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
