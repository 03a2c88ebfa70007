// UI adapter: Compare Models… from the Command Palette. Asks the question (unless given), then starts Compare in the
// chat used last (a new one when none is open) the way the chat's own Compare button does, so the models are picked
// and the columns shown exactly as from the button; a question that was not compared goes into the chat's input.
import * as vscode from 'vscode';
import type { ChatPanel } from './chatPanel';

export interface CompareTarget {
  readonly activePanel: ChatPanel | undefined;
  newChat(): Promise<ChatPanel>;
}

/** `{ question?, models? }` for keybindings and scripts; with both, nothing is asked. */
export interface CompareOptions {
  question?: string;
  models?: string[];
}

export function compareOptions(raw: unknown): CompareOptions {
  if (typeof raw !== 'object' || raw === null) return {};
  const { question, models } = raw as Record<string, unknown>;
  return {
    question: typeof question === 'string' && question.trim() !== '' ? question : undefined,
    models: Array.isArray(models) ? models.filter((m): m is string => typeof m === 'string' && m !== '') : undefined,
  };
}

export async function compareModels(target: CompareTarget, raw?: unknown): Promise<void> {
  const options = compareOptions(raw);
  const question =
    options.question ??
    (await vscode.window.showInputBox({
      title: 'Compare Models',
      prompt: 'The question to ask 2 or 3 chat models at once; their replies stream side by side in the chat.',
      placeHolder: 'Ask a question',
      ignoreFocusOut: true,
      validateInput: (text) => (text.trim() === '' ? 'Type the question to compare.' : undefined),
    }));
  if (!question || question.trim() === '') return;
  const panel = target.activePanel ?? (await target.newChat());
  panel.reveal();
  if (!(await panel.bridge.startCompare(question, options.models ?? []))) panel.bridge.postDraft(question);
}
