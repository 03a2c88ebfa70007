// UI adapter: the one seam through which every feature talks to the user: notify, ask, pick, input, progress with
// cancel, advise, and what it hands to the OS (browser, clipboard, Explorer). Commands reach VS Code's window and env
// only through it, so a host test swaps in one recorder that answers every question and sees every message, while
// the files and records the commands change stay real. VS Code offers a test no way to answer a modal question or
// read a notification, which is why the seam exists.
import * as vscode from 'vscode';
import type { ErrorAdvice } from '../core/errorAdvice';
import { showAdvice } from './notify';
import { pickModelId, type ModelChoices } from './modelPicker';

export type { ModelChoices };

export interface InputOptions {
  title?: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  /** An error message for the text, or undefined when it is fine. */
  validate?(text: string): string | undefined;
}

/** A choice shown by its label (and description); picking it resolves with its id. */
export interface PickItem {
  label: string;
  id: string;
  description?: string;
}

export type ProgressReport = (message: string, increment?: number) => void;

export interface ProgressOptions {
  /** Offers a Cancel button; `signal` aborts when the user presses it. */
  cancellable?: boolean;
  /** A quieter spinner in the status bar instead of a notification. */
  inStatusBar?: boolean;
}

export interface UserInterface {
  /** A notification; resolves with the chosen action, undefined when dismissed. */
  notify(kind: 'info' | 'warning' | 'error', message: string, ...actions: string[]): Thenable<string | undefined>;
  /** A modal question; resolves with the chosen action, undefined when dismissed. */
  ask(kind: 'warning' | 'error', message: string, detail: string, ...actions: string[]): Thenable<string | undefined>;
  /** A failure with the actions that fix it (Set API Key…), which run when chosen. */
  advise(advice: ErrorAdvice, severity?: 'error' | 'warning'): void;
  /** A short note in the status bar. */
  status(message: string): void;
  /** Runs `task` under a progress indicator; `signal` aborts when the user cancels (only if `cancellable`). */
  withProgress<T>(title: string, task: (report: ProgressReport, signal: AbortSignal) => Promise<T>, options?: ProgressOptions): Thenable<T>;

  /** One line of text; undefined when dismissed. */
  input(options: InputOptions): Thenable<string | undefined>;
  /** One of `items`; undefined when dismissed. */
  pick(items: readonly string[], options: { title?: string; placeHolder: string }): Thenable<string | undefined>;
  /** The id of one of `items`; undefined when dismissed. */
  pickItem(items: readonly PickItem[], options: { title?: string; placeHolder: string }): Thenable<string | undefined>;
  /** A model from a list that arrives while the picker is open; `'other'` when the user wants to type an id. */
  pickModel(title: string, defaultModel: string, choices: Promise<ModelChoices>): Thenable<string | 'other' | undefined>;
  /** One of several workspace folders. */
  pickFolder(placeHolder: string): Thenable<vscode.WorkspaceFolder | undefined>;
  /** Where to save a file when there is no workspace folder. */
  saveDialog(defaultUri: vscode.Uri, filters: Record<string, string[]>): Thenable<vscode.Uri | undefined>;

  openExternal(url: string): Thenable<boolean>;
  copy(text: string): Thenable<void>;
  /** Opens a file in an editor, shows it in the Explorer, or in the operating system's file manager (`os`). */
  showFile(uri: vscode.Uri, how: 'open' | 'reveal' | 'os'): Thenable<unknown>;
}

export const vscodeUserInterface: UserInterface = {
  notify: (kind, message, ...actions) => {
    if (kind === 'error') return vscode.window.showErrorMessage(message, ...actions);
    if (kind === 'warning') return vscode.window.showWarningMessage(message, ...actions);
    return vscode.window.showInformationMessage(message, ...actions);
  },
  ask: (kind, message, detail, ...actions) =>
    kind === 'error' ? vscode.window.showErrorMessage(message, { modal: true, detail }, ...actions) : vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions),
  advise: (advice, severity) => void showAdvice(advice, severity),
  status: (message) => void vscode.window.setStatusBarMessage(message, 4000),
  withProgress: (title, task, options) =>
    vscode.window.withProgress({ location: options?.inStatusBar ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification, title, cancellable: options?.cancellable ?? false }, (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return task((message, increment) => progress.report({ message, increment }), controller.signal);
    }),

  input: ({ title, prompt, value, placeHolder, validate }) =>
    vscode.window.showInputBox({ title, prompt, value, placeHolder, ignoreFocusOut: true, validateInput: validate && ((text) => validate(text)) }),
  pick: (items, { title, placeHolder }) => vscode.window.showQuickPick([...items], { title, placeHolder, ignoreFocusOut: true }),
  pickItem: async (items, { title, placeHolder }) => (await vscode.window.showQuickPick([...items], { title, placeHolder, matchOnDescription: true }))?.id,
  pickModel: pickModelId,
  pickFolder: (placeHolder) => vscode.window.showWorkspaceFolderPick({ placeHolder }),
  saveDialog: (defaultUri, filters) => vscode.window.showSaveDialog({ defaultUri, filters, saveLabel: 'Download' }),

  // A string reaches the opener unchanged (VS Code >= 1.62 accepts one at runtime); a Uri would re-encode the
  // signed query of the link and break its signature.
  openExternal: (url) => vscode.env.openExternal(url as unknown as vscode.Uri),
  copy: (text) => vscode.env.clipboard.writeText(text),
  showFile: (uri, how) => vscode.commands.executeCommand(how === 'open' ? 'vscode.open' : how === 'os' ? 'revealFileInOS' : 'revealInExplorer', uri),
};
