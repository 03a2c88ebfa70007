// UI adapter: the shared user seam (ui/userInterface.ts) plus the one question only the video commands ask. The
// commands reach VS Code's window, env and commands only through this (a unit test checks it).
import { vscodeUserInterface, type UserInterface } from '../../ui/vscode/userInterface';
import { askPromptText } from '../../ui/vscode/videoPromptInput';

export type { InputOptions, ModelChoices, ProgressReport } from '../../ui/vscode/userInterface';

export interface CommandUi extends UserInterface {
  /** The Generate Video prompt: seeded with the editor's selection, written in an editor when it spans lines. */
  askPrompt(title: string, validate: (text: string) => string | undefined): Thenable<string | undefined>;
}

export const vscodeCommandUi: CommandUi = { ...vscodeUserInterface, askPrompt: askPromptText };
