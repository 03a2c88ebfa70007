// The one fake of the user seam (src/ui/vscode/userInterface.ts, with the video commands' extra question).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ErrorAdvice } from '../../src/ui/core/errorAdvice';
import { vscodeUserInterface, type BrowseList, type BrowseOptions, type EditorOptions, type InputOptions, type ModelChoices, type OpenDialogOptions, type PickItem, type PickOptions, type ProgressReport } from '../../src/ui/vscode/userInterface';
import type { CommandUi } from '../../src/videos/vscode/commandUi';

/**
 * Stands in for the user: records every message, answers modal questions with `answer`, and text inputs and
 * pickers from `inputs` (in order; a dismissal when empty). An answer the real input box would refuse fails. A
 * multi-pick's answer is its ids joined by newlines; an open dialog's, a file path. Editors open for real (a test
 * can read them), and are recorded.
 * Every feature's host tests use it: the commands talk to the user only through the one seam it stands in for.
 */
export class RecordingUi implements CommandUi {
  readonly opened: string[] = [];
  readonly shown: Array<{ kind: string; message: string }> = [];
  readonly asked: string[] = [];
  readonly copied: string[] = [];
  /** Every advice shown, with its actions. */
  readonly advised: ErrorAdvice[] = [];
  readonly statuses: string[] = [];
  readonly progress: string[] = [];
  readonly prompts: string[] = [];
  /** The save dialogs' button labels, in order. */
  readonly saveLabels: string[] = [];
  /** What was shown in an editor, as URI strings. */
  readonly editors: string[] = [];
  answer: string | undefined;
  inputs: string[] = [];

  /** What a notification resolves with (the user's click), set per test. */
  onNotify: (message: string) => Promise<string | undefined> = async () => undefined;

  /** Every message shown, in order. */
  get notes(): string[] {
    return this.shown.map((s) => s.message);
  }
  async notify(kind: 'info' | 'warning' | 'error', message: string): Promise<string | undefined> {
    this.shown.push({ kind, message });
    return this.onNotify(message);
  }
  async ask(_kind: 'warning' | 'error', message: string): Promise<string | undefined> {
    this.asked.push(message);
    return this.answer;
  }
  advise(advice: ErrorAdvice): void {
    this.advised.push(advice);
    this.shown.push({ kind: 'advice', message: advice.message });
  }
  status(message: string): void {
    this.statuses.push(message);
  }
  async withProgress<T>(title: string, task: (report: ProgressReport, signal: AbortSignal) => Promise<T>): Promise<T> {
    this.progress.push(title);
    return task(() => undefined, new AbortController().signal);
  }
  private next(what: string, validate?: (text: string) => string | undefined): string | undefined {
    this.prompts.push(what);
    const answer = this.inputs.shift();
    const problem = answer === undefined ? undefined : validate?.(answer);
    if (problem) throw new Error(`"${answer}" for ${what} would be refused: ${problem}`);
    return answer;
  }
  async input(options: InputOptions): Promise<string | undefined> {
    return this.next(options.prompt, options.validate);
  }
  async password(options: InputOptions): Promise<string | undefined> {
    return this.next(options.prompt, options.validate);
  }
  async pickMany(items: readonly PickItem[], options: PickOptions): Promise<string[] | undefined> {
    const answer = this.next(options.placeHolder)?.split('\n');
    for (const id of answer ?? []) assert.ok(items.some((item) => item.id === id), `${id} is offered`);
    return answer;
  }
  async browse<T>(options: BrowseOptions, load: (force: boolean) => Promise<BrowseList<T> | undefined>): Promise<T | undefined> {
    this.prompts.push(options.title);
    return (await load(false))?.value;
  }
  async openDialog(options: OpenDialogOptions): Promise<vscode.Uri | undefined> {
    const answer = this.next(options.title);
    return answer === undefined ? undefined : vscode.Uri.file(answer);
  }
  async showEditor(target: vscode.Uri | vscode.TextDocument, options?: EditorOptions): Promise<vscode.TextEditor> {
    this.editors.push(('uri' in target ? target.uri : target).toString());
    return vscodeUserInterface.showEditor(target, options);
  }
  async pick(items: readonly string[], options: { placeHolder: string }): Promise<string | undefined> {
    const answer = this.next(options.placeHolder);
    assert.ok(answer === undefined || items.includes(answer), `${answer} is offered`);
    return answer;
  }
  async pickItem(loading: readonly PickItem[] | PromiseLike<readonly PickItem[]>, options: PickOptions): Promise<string | undefined> {
    const items = await loading;
    const answer = this.next(options.placeHolder);
    assert.ok(answer === undefined || items.some((item) => item.id === answer), `${answer} is offered`);
    return answer;
  }
  async askPrompt(title: string, validate: (text: string) => string | undefined): Promise<string | undefined> {
    return this.next(title, validate);
  }
  async pickModel(title: string, _defaultModel: string | undefined, choices: Promise<ModelChoices>): Promise<string | undefined> {
    await choices;
    return this.next(title);
  }
  async pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
    return vscode.workspace.workspaceFolders?.[0];
  }
  async saveDialog(_defaultUri: vscode.Uri | undefined, _filters: Record<string, string[]>, label: string): Promise<vscode.Uri | undefined> {
    this.saveLabels.push(label);
    return undefined;
  }
  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }
  async copy(text: string): Promise<void> {
    this.copied.push(text);
  }
  async showFile(): Promise<void> {}
}

