// UI adapter: the one seam through which every feature talks to the user: notify, ask, pick, input, progress with
// cancel, advise, and what it hands to the OS (browser, clipboard, Explorer). Commands reach VS Code's window and env
// only through it, so a host test swaps in one recorder that answers every question and sees every message, while
// the files and records the commands change stay real. VS Code offers a test no way to answer a modal question or
// read a notification, which is why the seam exists.
// Editors count as talking to the user too: opening a document in an editor goes through `showEditor`, so that
// `vscode.window.show*`, `withProgress`, `createQuickPick` and `createInputBox` appear only in this folder (a
// layering test checks it). Reading editors (the active one, its selection) stays with the features: it asks the
// user nothing.
import * as vscode from 'vscode';
import { acceptOnEnter } from '../core/acceptingInput';
import type { ErrorAdvice } from '../core/errorAdvice';
import { showAdvice } from './notify';
import { pickModelId, type ModelChoices } from './modelPicker';
import { browseList, type BrowseList, type BrowseOptions } from './listPicker';

export type { ModelChoices };
export type { BrowseList, BrowseOptions, BrowseRow } from './listPicker';

export interface InputOptions {
  title?: string;
  prompt: string;
  value?: string;
  placeHolder?: string;
  /** An error message for the text, or undefined when it is fine. */
  validate?(text: string): string | undefined;
  /** Whether the box stays open when focus moves elsewhere (it does unless this is false). */
  ignoreFocusOut?: boolean;
}

/** A choice shown by its label (and description, detail); picking it resolves with its id. */
export interface PickItem {
  label: string;
  id: string;
  description?: string;
  detail?: string;
  /** Shown whatever the user types (an "Other…" entry). */
  alwaysShow?: boolean;
  /** Ticked when a multi-pick opens. */
  picked?: boolean;
}

export interface PickOptions {
  title?: string;
  placeHolder: string;
  /** Typing matches the description too (by default it does, for `pickItem` and `pickMany`). */
  matchOnDescription?: boolean;
  /** Whether the picker stays open when focus moves elsewhere. */
  ignoreFocusOut?: boolean;
}

export interface OpenDialogOptions {
  title: string;
  /** The button's label ("Apply to This File"); VS Code's own when absent. */
  openLabel?: string;
  defaultUri?: vscode.Uri;
  filters?: Record<string, string[]>;
}

export interface EditorOptions {
  /** Opens as a preview tab (replaced by the next one opened); VS Code's setting decides when absent. */
  preview?: boolean;
  /** Where: beside the active editor, or a given column; the active group when absent. */
  column?: vscode.ViewColumn;
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
  ask(kind: 'warning' | 'error', message: string, detail: string | undefined, ...actions: string[]): Thenable<string | undefined>;
  /** A failure with the actions that fix it (Set API Key…), which run when chosen. */
  advise(advice: ErrorAdvice, severity?: 'error' | 'warning'): void;
  /** A short note in the status bar. */
  status(message: string): void;
  /** Runs `task` under a progress indicator; `signal` aborts when the user cancels (only if `cancellable`). */
  withProgress<T>(title: string, task: (report: ProgressReport, signal: AbortSignal) => Promise<T>, options?: ProgressOptions): Thenable<T>;

  /** One line of text; undefined when dismissed. */
  input(options: InputOptions): Thenable<string | undefined>;
  /**
   * A secret, typed into a masked box; undefined when dismissed. Enter always takes the text typed: it is checked
   * on Enter itself, so an Enter pressed right after a paste is never lost (see ui/core/acceptingInput.ts).
   */
  password(options: InputOptions): Thenable<string | undefined>;
  /** One of `items`; undefined when dismissed. */
  pick(items: readonly string[], options: { title?: string; placeHolder: string }): Thenable<string | undefined>;
  /** The id of one of `items`; undefined when dismissed. */
  /**
   * One item's id. `items` may still be loading: the picker shows at once, busy until they arrive, so no gap opens
   * between two steps of a flow (in a gap VS Code gives the focus back to the editor, and a webview taking it late
   * closes the next step's picker).
   */
  pickItem(items: readonly PickItem[] | PromiseLike<readonly PickItem[]>, options: PickOptions): Thenable<string | undefined>;
  /** The ids of the items ticked (in the list's order); undefined when dismissed. */
  pickMany(items: readonly PickItem[], options: PickOptions): Thenable<string[] | undefined>;
  /**
   * A list in groups that shows at once, busy until `load` answers, with a Refresh button (which loads again with
   * `force`) and buttons on each row. `choose` runs for the row accepted or the row button pressed (the picker
   * closes first). A load that answers undefined closes the picker (it words its own failures). Resolves with the first load's value.
   */
  browse<T>(options: BrowseOptions, load: (force: boolean) => Promise<BrowseList<T> | undefined>, choose: (row: string, action?: string) => void): Promise<T | undefined>;

  /** A model from a list that arrives while the picker is open; `'other'` when the user wants to type an id. */
  pickModel(title: string, defaultModel: string | undefined, choices: Promise<ModelChoices>): Thenable<string | 'other' | undefined>;
  /** One of several workspace folders. */
  pickFolder(placeHolder: string): Thenable<vscode.WorkspaceFolder | undefined>;
  /** Where to save a file; `label` is the dialog's button ("Export"). */
  saveDialog(defaultUri: vscode.Uri | undefined, filters: Record<string, string[]>, label: string): Thenable<vscode.Uri | undefined>;
  /** One file to open; undefined when dismissed. */
  openDialog(options: OpenDialogOptions): Thenable<vscode.Uri | undefined>;
  /** Shows a document in an editor. */
  showEditor(target: vscode.Uri | vscode.TextDocument, options?: EditorOptions): Thenable<vscode.TextEditor>;

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

  input: ({ title, prompt, value, placeHolder, validate, ignoreFocusOut }) =>
    vscode.window.showInputBox({ title, prompt, value, placeHolder, ignoreFocusOut: ignoreFocusOut ?? true, validateInput: validate && ((text) => validate(text)) }),
  password: ({ title, prompt, value, placeHolder, validate, ignoreFocusOut }) => {
    const box = vscode.window.createInputBox();
    box.title = title;
    box.prompt = prompt;
    box.value = value ?? '';
    box.placeholder = placeHolder;
    box.password = true;
    box.ignoreFocusOut = ignoreFocusOut ?? true;
    // showInputBox checks the text asynchronously and ignores an Enter that comes before the check of the latest
    // text has returned; here Enter is checked synchronously (a pasted key followed at once by Enter is kept).
    return acceptOnEnter(box, (text) => validate?.(text));
  },
  pick: (items, { title, placeHolder }) => vscode.window.showQuickPick([...items], { title, placeHolder, ignoreFocusOut: true }),
  pickItem: async (items, { title, placeHolder, matchOnDescription, ignoreFocusOut }) =>
    (await vscode.window.showQuickPick<PickItem>(Promise.resolve(items).then((list): PickItem[] => [...list]), { title, placeHolder, matchOnDescription: matchOnDescription ?? true, ignoreFocusOut }))?.id,
  pickMany: async (items, { title, placeHolder, matchOnDescription, ignoreFocusOut }) =>
    (await vscode.window.showQuickPick([...items], { title, placeHolder, canPickMany: true, matchOnDescription: matchOnDescription ?? true, ignoreFocusOut }))?.map((item) => item.id),
  browse: browseList,
  pickModel: pickModelId,
  pickFolder: (placeHolder) => vscode.window.showWorkspaceFolderPick({ placeHolder }),
  saveDialog: (defaultUri, filters, label) => vscode.window.showSaveDialog({ defaultUri, filters, saveLabel: label }),
  openDialog: async ({ title, openLabel, defaultUri, filters }) => (await vscode.window.showOpenDialog({ title, openLabel, defaultUri, filters, canSelectFiles: true, canSelectFolders: false, canSelectMany: false }))?.[0],
  showEditor: (target, options) => vscode.window.showTextDocument(target as vscode.TextDocument, { preview: options?.preview, viewColumn: options?.column }),

  // A string reaches the opener unchanged (VS Code >= 1.62 accepts one at runtime); a Uri would re-encode the
  // signed query of the link and break its signature.
  openExternal: (url) => vscode.env.openExternal(url as unknown as vscode.Uri),
  copy: (text) => vscode.env.clipboard.writeText(text),
  showFile: (uri, how) => vscode.commands.executeCommand(how === 'open' ? 'vscode.open' : how === 'os' ? 'revealFileInOS' : 'revealInExplorer', uri),
};
