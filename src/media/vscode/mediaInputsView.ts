// UI adapter: the questions Generate Image and Synthesize Speech ask (text, model, size, count, voice), each an input
// box or quick pick that validates as the user types, asked through the user seam. Each resolves undefined when the
// user cancels.
import * as vscode from 'vscode';
import { adviceFor } from '../../ui/core/errorAdvice';
import type { ModelChoices, PickItem, UserInterface } from '../../ui/vscode/userInterface';
import type { CatalogSnapshot } from '../../models/core/api';
import { mediaModelChoices } from '../core/modelChoices';
import { countProblem, IMAGE_SIZES, MAX_IMAGE_COUNT, sizeProblem, VOICES, voiceProblem } from '../core/mediaRequest';

/** The text of a single-line, or several-line, editor selection (trimmed); '' when nothing is selected. */
export function selectedText(): string {
  const editor = vscode.window.activeTextEditor;
  return editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
}

type Asks = Pick<UserInterface, 'input' | 'pickItem' | 'pickModel'>;

export async function askText(ui: Asks, title: string, prompt: string, placeholder: string, value: string, problem: (text: string) => string | undefined): Promise<string | undefined> {
  const text = await ui.input({
    title,
    prompt,
    placeHolder: placeholder,
    value,
    validate: (v) => (v.trim() === '' ? undefined : problem(v)),
  });
  if (text === undefined || problem(text)) return undefined;
  return text.trim();
}

/** A choice: its label is its value. */
type Choice = Omit<PickItem, 'id'>;
/** The id of "Other…" (no value is empty). */
const OTHER = '';

/** A quick pick of `choices` (the default first) plus "Other…", which asks for a typed value. */
async function pickOrType(ui: Asks, title: string, placeholder: string, choices: Choice[], typed: { prompt: string; problem: (v: string) => string | undefined }): Promise<string | undefined> {
  const other: PickItem = { label: '$(edit) Other…', id: OTHER, alwaysShow: true };
  const picked = await ui.pickItem([...choices.map((c) => ({ ...c, id: c.label })), other], { title, placeHolder: placeholder, matchOnDescription: false, ignoreFocusOut: true });
  if (picked === undefined) return undefined;
  if (picked !== OTHER) return picked;
  const value = await ui.input({ title, prompt: typed.prompt, validate: (v) => typed.problem(v.trim()) });
  return value?.trim() || undefined;
}

/**
 * The model of a kind: the configured default, or the first listed model of the kind, comes first, retiring ones
 * marked; the list fills while the picker is open (ui/modelPicker.ts). "Other model id…" takes any id.
 */
export async function askModel(ui: Asks, title: string, kind: 'image' | 'speech', configured: string | undefined, load: () => Promise<CatalogSnapshot | undefined>, now: () => number): Promise<string | undefined> {
  const choices = load().then(
    (snapshot): ModelChoices => mediaModelChoices(snapshot, kind, configured, now()),
    (error: unknown): ModelChoices => ({ ids: configured ? [configured] : [], placeholder: `Could not list the models (${adviceFor(error).message})` }),
  );
  const picked = await ui.pickModel(title, configured, choices);
  if (picked !== 'other') return picked;
  const typed = await ui.input({ title, prompt: `${kind === 'image' ? 'Image' : 'Speech'} model id`, value: configured, validate: (v) => (v.trim() ? undefined : 'Enter a model id.') });
  return typed?.trim() || undefined;
}

export function askSize(ui: Asks, title: string, preferred: string): Promise<string | undefined> {
  const sizes = [preferred, ...IMAGE_SIZES.filter((s) => s !== preferred)];
  return pickOrType(ui, title, 'Image size', sizes.map((s, i) => ({ label: s, description: i === 0 ? 'default' : undefined })), { prompt: 'Size, as WIDTHxHEIGHT', problem: sizeProblem });
}

export async function askCount(ui: Asks, title: string, preferred: number): Promise<number | undefined> {
  const counts = [preferred, ...[1, 2, 3, 4].filter((n) => n !== preferred)];
  const picked = await pickOrType(
    ui,
    title,
    'How many images?',
    counts.map((n, i) => ({ label: String(n), description: i === 0 ? 'default' : undefined })),
    { prompt: `Number of images, 1 to ${MAX_IMAGE_COUNT}`, problem: (v) => countProblem(Number(v)) },
  );
  return picked === undefined ? undefined : Number(picked);
}

export function askVoice(ui: Asks, title: string, preferred: string): Promise<string | undefined> {
  const voices = [preferred, ...VOICES.filter((v) => v !== preferred)];
  return pickOrType(ui, title, 'Voice', voices.map((v, i) => ({ label: v, description: i === 0 ? 'default' : undefined })), { prompt: 'Voice name, as the gateway knows it', problem: voiceProblem });
}
