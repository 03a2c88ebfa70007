// .gitignore rules for the workspace file picker, matched by the `ignore` package (git's own semantics), each
// .gitignore applied from the folder it sits in, deeper files last so they override. The files come from a cloned
// repository, so nothing in them may freeze the host: `ignore` turns a pattern into a regular expression, and a
// pattern with many wildcards, above all `**` in the middle, backtracks polynomially in the depth of the path. So
// a pattern is kept only within a wildcard budget, a folder keeps a bounded number of rules, and a very deep or
// long path is judged by its ancestor folder (an ignored folder ignores everything in it, as in git).
import ignore, { type Ignore } from 'ignore';

export const GITIGNORE_LIMITS = {
  /** Rules kept per workspace folder, all its .gitignore files together; later lines are not applied. */
  rulesPerFolder: 1000,
  /** Characters of one pattern. */
  patternChars: 512,
  /** Runs of `*` in one pattern. */
  starRuns: 4,
  /** `**` inside a pattern (a leading `**` and a trailing `/**` cost nothing more than a plain name). */
  innerGlobstars: 1,
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
  let inner = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
      continue;
    }
    if (line[i] !== '*') continue;
    const start = i;
    while (line[i + 1] === '*') i++;
    runs++;
    const globstar = i > start;
    const leading = start === 0 || (start === 1 && (line[0] === '/' || line[0] === '!'));
    const trailing = i === line.length - 1 || (i === line.length - 2 && line[i + 1] === '/');
    if (globstar && !leading && !trailing) inner++;
  }
  return runs <= GITIGNORE_LIMITS.starRuns && inner <= GITIGNORE_LIMITS.innerGlobstars;
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
      if (!isRule(line) || !withinBudget(line)) continue;
      lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
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
