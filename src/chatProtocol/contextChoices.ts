// Each place the user can take context from, as the host's Add Context menu (a quick pick) and the page's `#`
// completion both offer it: one entry per source, so the two offer the same and a new source needs both words.
import type { ContextSource } from './messages';

export interface ContextChoice {
  /** The Add Context menu's item: a codicon, a title and what it takes. */
  icon: string;
  title: string;
  detail: string;
  /** The `#` completion's word and what it says of it. */
  word: string;
  hint: string;
}

/** In the Add Context menu's order. `menu` is the menu itself. */
export const CONTEXT_CHOICES: Readonly<Record<Exclude<ContextSource, 'menu'>, ContextChoice>> = {
  activeFile: { icon: 'file', title: 'Active File', detail: 'The whole file in the editor you used last', word: 'active', hint: 'The active file' },
  selection: { icon: 'selection', title: 'Selection', detail: 'What is selected in that editor', word: 'selection', hint: 'The selection' },
  lines: { icon: 'list-selection', title: 'Lines of a File…', detail: 'Lines N–M of that file or of any workspace file', word: 'lines', hint: 'Lines of a file…' },
  openEditors: { icon: 'files', title: 'Open Editors', detail: 'Every file open in an editor tab', word: 'editors', hint: 'All open editors' },
  workspaceFile: { icon: 'search', title: 'Workspace File…', detail: 'Pick files of the workspace (files.exclude and .gitignore are left out)', word: 'file', hint: 'A workspace file…' },
  problems: { icon: 'warning', title: 'Problems', detail: "The current file's errors and warnings", word: 'problems', hint: "The current file's problems" },
};

/** The `#` completion's order: a workspace file, the most asked for, first. */
export const HASH_ORDER: ReadonlyArray<keyof typeof CONTEXT_CHOICES> = ['workspaceFile', 'activeFile', 'selection', 'openEditors', 'problems', 'lines'];
