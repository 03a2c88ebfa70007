// What the chat view is told about the workspace's instruction files (the chip: which files, their tokens, whether
// they are on for this chat) and its prompt files (slash commands that send their text as a message). Pure and
// browser-safe; the webview only shows these, and answers with an `instructionsAction` naming a file by position.
import { cleanArray, cleanCount, cleanText, isRecord } from './validate';

export interface InstructionChip {
  label: string;
  tokens: number;
}

export interface PromptCommand {
  /** The command word (`/name`). */
  name: string;
  description: string;
  /** What is sent, as a message (never as a command), when `/name` is. */
  text: string;
}

export interface InstructionsState {
  /** Whether they are sent with this chat's messages. */
  enabled: boolean;
  /** The workspace is not trusted (Restricted Mode): no instruction or prompt file is read until it is. */
  restricted: boolean;
  files: InstructionChip[];
  /** Files found but not read (too large, binary, outside the workspace): shown, never sent. */
  problems: string[];
  prompts: PromptCommand[];
}

export const INSTRUCTION_LIMITS = { files: 50, label: 300, problems: 20, problem: 500, prompts: 50, promptName: 40, description: 300, promptText: 64 * 1024 } as const;

export type InstructionsAction = 'open' | 'toggle';
export const INSTRUCTIONS_ACTIONS: readonly InstructionsAction[] = ['open', 'toggle'];

function cleanChip(value: unknown): InstructionChip | undefined {
  if (!isRecord(value)) return undefined;
  const label = cleanText(value.label, INSTRUCTION_LIMITS.label);
  return label ? { label, tokens: cleanCount(value.tokens) ?? 0 } : undefined;
}

function cleanPrompt(value: unknown): PromptCommand | undefined {
  if (!isRecord(value) || typeof value.name !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(value.name)) return undefined;
  const text = cleanText(value.text, INSTRUCTION_LIMITS.promptText);
  return text === undefined ? undefined : { name: value.name, description: cleanText(value.description, INSTRUCTION_LIMITS.description) ?? '', text };
}

export function cleanInstructionsState(value: unknown): InstructionsState | undefined {
  if (!isRecord(value)) return undefined;
  return {
    enabled: value.enabled === true,
    restricted: value.restricted === true,
    files: cleanArray(value.files, INSTRUCTION_LIMITS.files, cleanChip),
    problems: cleanArray(value.problems, INSTRUCTION_LIMITS.problems, (p) => cleanText(p, INSTRUCTION_LIMITS.problem)),
    prompts: cleanArray(value.prompts, INSTRUCTION_LIMITS.prompts, cleanPrompt),
  };
}

/**
 * A message that starts with a prompt file's command (`/review focus on errors`): the prompt's text, then what was
 * typed after the command, as a message that is never read as a command (a file's text starting with `/video` must
 * not submit a paid job). Built-in commands (`builtIn`) keep their meaning; anything else is undefined.
 */
export function expandPrompt(message: string, prompts: readonly PromptCommand[], builtIn: readonly string[]): string | undefined {
  const text = message.trimStart();
  if (!text.startsWith('/')) return undefined;
  let end = 1;
  while (end < text.length && !/\s/.test(text[end])) end++;
  const name = text.slice(1, end);
  if (builtIn.includes(name.toLowerCase())) return undefined;
  const prompt = prompts.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!prompt) return undefined;
  const rest = text.slice(end).trim();
  return rest === '' ? prompt.text : `${prompt.text}\n\n${rest}`;
}

/** The prompt commands the slash menu offers for what is typed (a single `/word` at the start of the input). */
export function promptCompletions(input: string, prompts: readonly PromptCommand[]): PromptCommand[] {
  if (!input.startsWith('/') || /\s/.test(input)) return [];
  const prefix = input.slice(1).toLowerCase();
  return prompts.filter((p) => p.name.toLowerCase().startsWith(prefix));
}
