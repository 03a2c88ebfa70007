// The chat's slash commands: what the composer's menu offers and how a message that starts with one is read. Pure and
// browser-safe: the webview completes with it, the host reads the sent text with it.
import type { MediaKind } from './session';

export type SlashName = 'image' | 'video' | 'speak' | 'transcribe';

export interface SlashCommand {
  name: SlashName;
  /** The media turn it makes; none for /transcribe, which puts text into the context. */
  kind?: MediaKind;
  /** What follows the command, for the menu. */
  argument: string;
  description: string;
  /** Whether the command needs text after it. */
  needsText: boolean;
}

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: 'image', kind: 'image', argument: '<prompt>', description: 'Generate an image with the chat’s image model', needsText: true },
  { name: 'video', kind: 'video', argument: '<prompt>', description: 'Submit a video job; its status shows here and in Video Jobs', needsText: true },
  { name: 'speak', kind: 'speech', argument: '[text]', description: 'Read the last reply aloud (or the text given)', needsText: false },
  { name: 'transcribe', argument: '', description: 'Transcribe the attached audio files into the context of your next message', needsText: false },
];

export type SlashParse = { ok: true; command: SlashCommand; text: string } | { ok: false; problem: string };

/**
 * Reads a message as a slash command: undefined when it is not one (plain text, or `//…` to send a literal slash),
 * else the command and its text, or why it cannot run.
 */
export function parseSlash(message: string): SlashParse | undefined {
  const match = /^\/([A-Za-z]+)(?=\s|$)([\s\S]*)$/.exec(message.trimStart());
  if (!match) return undefined;
  const command = SLASH_COMMANDS.find((c) => c.name === match[1].toLowerCase());
  if (!command) return { ok: false, problem: `Unknown command /${match[1].slice(0, 40)}. Try ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(', ')}, or start with // to send a slash.` };
  const text = match[2].trim();
  if (command.needsText && text === '') return { ok: false, problem: `Type what to make after /${command.name}, for example “/${command.name} a lighthouse at dusk”.` };
  return { ok: true, command, text };
}

/**
 * The commands the menu offers for what is typed: the input is a single slash word at its start (no space yet).
 * Undefined when the menu should not show.
 */
export function slashCompletions(input: string): SlashCommand[] | undefined {
  const match = /^\/([A-Za-z]*)$/.exec(input);
  if (!match) return undefined;
  const prefix = match[1].toLowerCase();
  const found = SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix));
  return found.length > 0 ? found : undefined;
}
