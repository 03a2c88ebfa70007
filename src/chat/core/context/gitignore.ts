// .gitignore rules for the workspace file picker, matched by the `ignore` package (git's own semantics), each
// .gitignore applied from the folder it sits in, deeper files last so they override. The files come from a cloned
// repository, so nothing in them may freeze the host: `ignore` turns a pattern into a regular expression, and one
// with many wildcards (above all two `**`) backtracks polynomially in the length and depth of the path. So a
// pattern is kept only within a wildcard budget (`*?` rewritten `?*`, which matches the same), a folder keeps a
// bounded number of rules, and a very deep or long path is judged by its ancestor folder (an ignored folder ignores
// everything in it, as in git). Patterns over the budget are rare in real repositories; they are not applied.
import ignore, { type Ignore } from 'ignore';

export const GITIGNORE_LIMITS = {
  /** Rules kept per workspace folder, all its .gitignore files together; later lines are not applied. */
  rulesPerFolder: 500,
  /** Characters of one pattern. */
  patternChars: 512,
  /** Runs of `*` in one pattern. */
  starRuns: 3,
  /** `**` in one pattern, besides a trailing one (`build/**` costs no more than `build/`). */
  globstars: 1,
  /** A path deeper or longer than this is judged by its ancestor folder within both limits. */
  pathSegments: 32,
  pathChars: 1024,
} as const;

function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  return path.slice(start, end);
}

/** Whether a line is a pattern `ignore` matches in bounded time (comments and blank lines cost nothing). */
export function withinBudget(line: string): boolean {
  if (line.length > GITIGNORE_LIMITS.patternChars) return false;
  let runs = 0;
  let globstars = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] !== '*') continue;
    const start = i;
    while (line[i + 1] === '*') i++;
    runs++;
    const trailing = i === line.length - 1 || (i === line.length - 2 && line[i + 1] === '/');
    if (i > start && !trailing) globstars++;
  }
  return runs <= GITIGNORE_LIMITS.starRuns && globstars <= GITIGNORE_LIMITS.globstars;
}

/**
 * The same pattern with each run of `*` and `?` inside a name written as its `?`s then one `*` (`*?*?` is `??*`:
 * at least two characters either way); `ignore` turns `*?` into a regex that backtracks, `?*` into one that does not.
 */
export function canonicalStars(line: string): string {
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i++;
    } else if (c === '*' || c === '?') {
      let end = i;
      let questions = 0;
      while (line[end] === '*' || line[end] === '?') questions += line[end++] === '?' ? 1 : 0;
      const run = line.slice(i, end);
      out += questions === 0 || questions === run.length ? run : `${'?'.repeat(questions)}*`;
      i = end - 1;
    } else out += c;
  }
  return out;
}

function isRule(line: string): boolean {
  const text = line.trim();
  return text !== '' && !text.startsWith('#');
}

/** The part of a path the rules judge: the path itself, or its deepest ancestor folder within the limits (with a trailing '/'). */
function judged(path: string): string {
  const segments = path.split('/');
  if (segments.length <= GITIGNORE_LIMITS.pathSegments && path.length <= GITIGNORE_LIMITS.pathChars) return path;
  let folder = '';
  for (const segment of segments.slice(0, GITIGNORE_LIMITS.pathSegments)) {
    if (folder.length + segment.length + 1 > GITIGNORE_LIMITS.pathChars) break;
    folder += `${segment}/`;
  }
  return folder;
}

export class IgnoreRules {
  private readonly layers: Array<{ base: string; matcher: Ignore }> = [];
  private kept = 0;

  /** Adds the lines of one .gitignore found in `base` (relative to the workspace folder). Deeper files go last. */
  add(base: string, content: string): void {
    const lines: string[] = [];
    for (const line of content.split('\n')) {
      if (this.kept >= GITIGNORE_LIMITS.rulesPerFolder) break;
      const pattern = canonicalStars(line.endsWith('\r') ? line.slice(0, -1) : line);
      if (!isRule(pattern) || !withinBudget(pattern)) continue;
      lines.push(pattern);
      this.kept++;
    }
    if (lines.length > 0) this.layers.push({ base: trimSlashes(base), matcher: ignore().add(lines) });
  }

  /** Whether a file (path relative to the workspace folder, '/'-separated) is ignored. */
  ignores(path: string): boolean {
    const subject = judged(path);
    let ignored = false;
    for (const { base, matcher } of this.layers) {
      if (base !== '' && !subject.startsWith(`${base}/`)) continue;
      const relative = base === '' ? subject : subject.slice(base.length + 1);
      if (relative === '') continue;
      try {
        const result = matcher.test(relative);
        if (result.ignored) ignored = true;
        else if (result.unignored) ignored = false;
      } catch {
        // `ignore` refuses paths git could not have (`./x`, absolute); such a path is not matched.
      }
    }
    return ignored;
  }
}
