// UI adapter: the questions Generate Image and Synthesize Speech ask (text, model, size, count, voice), each an input
// box or quick pick that validates as the user types. Each resolves undefined when the user cancels.
import * as vscode from 'vscode';
import { adviceFor } from '../../ui/core/errorAdvice';
import { pickModelId, type ModelChoices } from '../../ui/vscode/modelPicker';
import type { CatalogSnapshot } from '../../models/core/api';
import { countProblem, IMAGE_SIZES, MAX_IMAGE_COUNT, sizeProblem, VOICES, voiceProblem } from '../core/mediaRequest';

/** The text of a single-line, or several-line, editor selection (trimmed); '' when nothing is selected. */
export function selectedText(): string {
  const editor = vscode.window.activeTextEditor;
  return editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
}

export async function askText(title: string, prompt: string, placeholder: string, value: string, problem: (text: string) => string | undefined): Promise<string | undefined> {
  const text = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder: placeholder,
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? undefined : problem(v)),
  });
  if (text === undefined || problem(text)) return undefined;
  return text.trim();
}

interface Choice extends vscode.QuickPickItem {
  value?: string;
  other?: true;
}

/** A quick pick of `choices` (the default first) plus "Other…", which asks for a typed value. */
async function pickOrType(title: string, placeholder: string, choices: Choice[], typed: { prompt: string; problem: (v: string) => string | undefined }): Promise<string | undefined> {
  const other: Choice = { label: '$(edit) Other…', other: true, alwaysShow: true };
  const picked = await vscode.window.showQuickPick([...choices, other], { title, placeHolder: placeholder, ignoreFocusOut: true });
  if (!picked) return undefined;
  if (!picked.other) return picked.value ?? picked.label;
  const value = await vscode.window.showInputBox({ title, prompt: typed.prompt, ignoreFocusOut: true, validateInput: (v) => typed.problem(v.trim()) });
  return value?.trim() || undefined;
}

/**
 * The model of a kind: the configured default, or the first listed model of the kind, comes first; the list fills
 * while the picker is open (ui/modelPicker.ts). "Other model id…" takes any id.
 */
export async function askModel(title: string, kind: 'image' | 'speech', configured: string | undefined, load: () => Promise<CatalogSnapshot | undefined>): Promise<string | undefined> {
  const choices = load().then(
    (snapshot): ModelChoices => {
      const listed = (snapshot?.models ?? []).filter((m) => m.kind === kind).map((m) => m.id);
      const ids = configured ? [configured, ...listed.filter((id) => id !== configured)] : listed;
      return { ids, placeholder: listed.length > 0 ? `Choose the ${kind} model` : `The gateway lists no ${kind} model; enter one with "Other model id…"` };
    },
    (error: unknown): ModelChoices => ({ ids: configured ? [configured] : [], placeholder: `Could not list the models (${adviceFor(error).message})` }),
  );
  const picked = await pickModelId(title, configured, choices);
  if (picked !== 'other') return picked;
  const typed = await vscode.window.showInputBox({ title, prompt: `${kind === 'image' ? 'Image' : 'Speech'} model id`, value: configured, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'Enter a model id.') });
  return typed?.trim() || undefined;
}

export function askSize(title: string, preferred: string): Promise<string | undefined> {
  const sizes = [preferred, ...IMAGE_SIZES.filter((s) => s !== preferred)];
  return pickOrType(title, 'Image size', sizes.map((s, i) => ({ label: s, description: i === 0 ? 'default' : undefined })), { prompt: 'Size, as WIDTHxHEIGHT', problem: sizeProblem });
}

export async function askCount(title: string, preferred: number): Promise<number | undefined> {
  const counts = [preferred, ...[1, 2, 3, 4].filter((n) => n !== preferred)];
  const picked = await pickOrType(
    title,
    'How many images?',
    counts.map((n, i) => ({ label: String(n), description: i === 0 ? 'default' : undefined })),
    { prompt: `Number of images, 1 to ${MAX_IMAGE_COUNT}`, problem: (v) => countProblem(Number(v)) },
  );
  return picked === undefined ? undefined : Number(picked);
}

export function askVoice(title: string, preferred: string): Promise<string | undefined> {
  const voices = [preferred, ...VOICES.filter((v) => v !== preferred)];
  return pickOrType(title, 'Voice', voices.map((v, i) => ({ label: v, description: i === 0 ? 'default' : undefined })), { prompt: 'Voice name, as the gateway knows it', problem: voiceProblem });
}
