// Which files configure tools or run code: Git's own files and hooks, VS Code's workspace configuration, CI
// workflows, package.json scripts, .envrc, Makefiles. A reply's block aimed at one of them can change what runs on this
// machine (a core.fsmonitor in .git/config, a task that runs when the folder opens) or in CI, so Apply asks first and
// says what the change would run. Decided on the real path (links resolved), relative to the workspace folder that
// holds it; names are compared without case, as on case-insensitive file systems where `.GIT/config` is `.git/config`.
// Pure.

/** A file that runs code or configures what runs. */
export interface RunsCode {
  /** What the file is and what a change to it would run, for the question ("Git's configuration, which can …"). */
  readonly what: string;
}

/** What Git runs: its hooks on commit, checkout, merge and push, and the programs its configuration names. */
const GIT_HOOK = 'a Git hook, which Git runs on commit, checkout, merge or push';
const MAKEFILES = new Set(['makefile', 'gnumakefile', 'bsdmakefile']);

/**
 * Whether the file at `path` (its real path relative to the workspace folder holding it, or the absolute real path
 * when no folder does) runs code or configures what runs. `change`, when known, is the file's text before and after:
 * a package.json change that leaves its scripts alone runs nothing new.
 */
export function runsCode(path: string, change?: { before: string; after: string }): RunsCode | undefined {
  const segments = path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.').map((s) => s.toLowerCase());
  const name = segments.at(-1) ?? '';
  const git = segments.indexOf('.git');
  if (git >= 0) {
    if (git === segments.length - 1) return { what: 'where Git finds the repository (a `gitdir:` line), and with it the configuration and hooks Git runs' };
    if (segments[git + 1] === 'hooks') return { what: GIT_HOOK };
    if (name === 'config' || name === 'config.worktree') return { what: 'Git\'s configuration, which names programs Git runs (core.fsmonitor, core.hooksPath, core.pager, core.sshCommand, aliases, filter drivers)' };
    return { what: 'a file of Git\'s own (.git/), which decides what Git runs (its configuration names programs, its hooks run on commit)' };
  }
  if (segments.includes('.husky') || segments.includes('.githooks')) return { what: GIT_HOOK };
  const vscode = segments.indexOf('.vscode');
  if (vscode >= 0 || name.endsWith('.code-workspace')) {
    if (name === 'tasks.json') return { what: 'VS Code tasks, which run commands, some as soon as the folder opens (`"runOn": "folderOpen"`)' };
    if (name === 'launch.json') return { what: 'VS Code debug configurations, which run programs and tasks when debugging starts' };
    if (name === 'settings.json') return { what: 'VS Code workspace settings, which name programs VS Code and its extensions run (terminal profiles, formatters, linters, interpreters)' };
    return { what: 'VS Code workspace configuration, which can run tasks and name programs VS Code runs' };
  }
  const github = segments.indexOf('.github');
  if (github >= 0 && (segments[github + 1] === 'workflows' || segments[github + 1] === 'actions')) {
    return { what: 'a GitHub Actions workflow, which runs on GitHub, with the repository\'s secrets, once pushed' };
  }
  if (name === 'package.json') {
    if (change && sameScripts(change.before, change.after)) return undefined;
    return { what: 'package.json scripts, which npm runs (install, test and their pre- and post- scripts)' };
  }
  if (name === '.envrc') return { what: 'a direnv script, which runs in your shell whenever you enter the folder' };
  if (MAKEFILES.has(name) || name.endsWith('.mk')) return { what: 'a Makefile, whose recipes run as shell commands with make' };
  return undefined;
}

/** Both texts are JSON with equal `scripts` (an unreadable one counts as a change: it cannot be told apart). */
function sameScripts(before: string, after: string): boolean {
  const a = scriptsOf(before);
  const b = scriptsOf(after);
  return a !== undefined && b !== undefined && a === b;
}

function scriptsOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    return JSON.stringify((parsed as Record<string, unknown>).scripts ?? null);
  } catch {
    return undefined;
  }
}

/** The question before applying to such a file. */
export function runsCodeQuestion(display: string, found: RunsCode): string {
  return `${display} is ${found.what}. A change to it can run code on this computer or in CI. Apply the code block there?`;
}
