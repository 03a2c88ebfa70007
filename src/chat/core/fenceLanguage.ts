// Which VS Code language a code block's fence names ("Open in New File"): the fence's own name when VS Code knows
// it, else a common alias of one it knows, else plain text. Pure, so the table is tested without VS Code.

/** Common fence names to VS Code language ids. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript', js: 'javascript', py: 'python', sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', shell: 'shellscript',
  yml: 'yaml', md: 'markdown', rs: 'rust', rb: 'ruby', kt: 'kotlin', 'c++': 'cpp', cs: 'csharp', 'c#': 'csharp', golang: 'go', jsonc: 'jsonc', tsx: 'typescriptreact', jsx: 'javascriptreact',
};

/** The language id for a fence name, among the ids VS Code `known`s (`vscode.languages.getLanguages()`). */
export function languageIdFor(fence: string, known: readonly string[]): string {
  const name = fence.trim().toLowerCase();
  if (name === '') return 'plaintext';
  if (known.includes(name)) return name;
  const alias = Object.hasOwn(LANGUAGE_ALIASES, name) ? LANGUAGE_ALIASES[name] : undefined;
  return alias && known.includes(alias) ? alias : 'plaintext';
}
