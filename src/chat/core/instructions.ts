// The workspace's instruction files and prompt files, as the chat uses them: which files are read (AGENTS.md,
// .github/copilot-instructions.md, .github/instructions/*.instructions.md), which of them apply to the files in play
// (an `applyTo` glob in the front matter, matched by glob.ts without backtracking, under a budget), what is sent (one system message that names each
// file), and the `.prompt.md` files of .github/prompts/ as slash commands. Pure: the adapter reads the files.
import { compileGlob, DEFAULT_MATCH_STEPS, GlobBudgetExceeded, globMatches, type CompiledGlob, type MatchBudget } from './glob';
import { estimateTextTokens, TOKENS_PER_MESSAGE } from '../../chatProtocol/attachments';

/** Always read when present (relative to a workspace folder). */
export const ALWAYS_FILES = ['AGENTS.md', '.github/copilot-instructions.md'];
/** Read when their `applyTo` matches an attached or active file. */
export const SCOPED_FOLDER = '.github/instructions';
export const SCOPED_SUFFIX = '.instructions.md';
export const PROMPTS_FOLDER = '.github/prompts';
export const PROMPT_SUFFIX = '.prompt.md';
/** Files looked at per folder: a repository with more is not read further. */
export const MAX_FOLDER_FILES = 200;
/** The longest instruction or prompt file read (bytes); longer ones are left out, and the chip says so. */
export const MAX_INSTRUCTION_BYTES = 64 * 1024;

export interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** The `key: value` lines of a leading `---` block (no nesting: these files use flat front matter), and the rest. */
export function frontMatter(text: string): FrontMatter {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { fields: {}, body: source };
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---');
  if (end < 0) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of lines.slice(1, end)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    let value = line.slice(colon + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    if (key !== '' && !Object.prototype.hasOwnProperty.call(fields, key)) fields[key] = value;
  }
  return { fields, body: lines.slice(end + 1).join('\n').replace(/^\s*\n/, '') };
}

/** The globs of an `applyTo` (comma-separated, as VS Code writes them). */
export function applyToGlobs(applyTo: string | undefined): string[] {
  return (applyTo ?? '').split(',').map((g) => g.trim()).filter((g) => g !== '').slice(0, 50);
}

/**
 * Whether any of `files` (workspace-relative, `/`-separated) matches the globs; no globs: never (the file is opt-in).
 * A glob beyond the bounds is not used (`problems` says why); throws GlobBudgetExceeded when `budget` runs out.
 */
export function appliesTo(globs: readonly string[], files: readonly string[], budget: MatchBudget = { steps: DEFAULT_MATCH_STEPS }, problems: string[] = []): boolean {
  const compiled: CompiledGlob[] = [];
  for (const glob of globs) {
    const result = compileGlob(glob);
    if ('problem' in result) problems.push(result.problem);
    else compiled.push(result);
  }
  return compiled.length > 0 && files.some((file) => compiled.some((glob) => globMatches(glob, file, budget)));
}

export interface InstructionFile {
  /** As shown on the chip: the path in its folder (AGENTS.md, .github/instructions/py.instructions.md). */
  label: string;
  /** Where it is (the adapter opens it from the chip). */
  location: string;
  /** The text sent (the front matter taken off). */
  text: string;
  tokens: number;
}

/** An instruction file read from disk: the text with its front matter, or why it was left out. */
export interface ReadInstruction {
  label: string;
  location: string;
  scoped: boolean;
  text?: string;
  /** Why it was not read (too large, binary, outside the workspace); shown, never sent. */
  problem?: string;
}

/** The files that apply to `files`, with their text and estimated tokens; problems are kept for the chip's tooltip. */
export function applicable(read: readonly ReadInstruction[], files: readonly string[]): { files: InstructionFile[]; problems: string[] } {
  const result: InstructionFile[] = [];
  const problems: string[] = [];
  // One budget for every glob of the request: a repository's files cannot add up to a frozen editor either.
  const budget: MatchBudget = { steps: DEFAULT_MATCH_STEPS };
  for (const entry of read) {
    if (entry.problem !== undefined) {
      problems.push(`${entry.label}: ${entry.problem}`);
      continue;
    }
    const { fields, body } = frontMatter(entry.text ?? '');
    if (entry.scoped && !applies(entry.label, applyToGlobs(fields.applyTo), files, budget, problems)) continue;
    const text = body.trim();
    if (text === '') continue;
    result.push({ label: entry.label, location: entry.location, text, tokens: estimateTextTokens(text) });
  }
  return { files: result, problems };
}

/** Whether a scoped file applies; its glob problems and a spent budget are reported under its label (not applied). */
function applies(label: string, globs: readonly string[], files: readonly string[], budget: MatchBudget, problems: string[]): boolean {
  const found: string[] = [];
  try {
    return appliesTo(globs, files, budget, found);
  } catch (error) {
    if (!(error instanceof GlobBudgetExceeded)) throw error;
    found.push(error.message);
    return false;
  } finally {
    for (const problem of new Set(found)) problems.push(`${label}: ${problem}`);
  }
}

/** The system message that carries the instructions: each file under its own name, so the model can tell them apart. */
export function instructionsMessage(files: readonly InstructionFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const parts = files.map((f) => `## ${f.label}\n\n${f.text}`);
  return `The user's workspace gives these instructions. Follow them.\n\n${parts.join('\n\n')}`;
}

/** Estimated tokens of that message. */
export function instructionsTokens(files: readonly InstructionFile[]): number {
  const message = instructionsMessage(files);
  return message === undefined ? 0 : estimateTextTokens(message) + TOKENS_PER_MESSAGE;
}

/** A prompt file's slash command name: its file name without `.prompt.md`, when that is a usable command word. */
export function promptCommandName(fileName: string): string | undefined {
  if (!fileName.endsWith(PROMPT_SUFFIX)) return undefined;
  const name = fileName.slice(0, -PROMPT_SUFFIX.length);
  return /^[A-Za-z][A-Za-z0-9_-]{0,39}$/.test(name) ? name : undefined;
}
