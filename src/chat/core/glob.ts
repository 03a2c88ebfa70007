// The `applyTo` globs of a repository's instruction files, matched without backtracking. A glob is repository text:
// compiled to a regular expression (as glob libraries do), `*a*a*a…b` against a long file name backtracks for
// minutes and freezes the extension host. Here a glob is compiled, within bounds on its length, stars and braces, to
// folders of steps, and matched the way wildcards are matched without a regular expression: a star that fails is
// retried only from the last star, never from every earlier one (for `*` within a folder, and for `**` over folders).
// The work is at most the path's length times the glob's, counted against a budget that ends the matching.
//
// Supported: `*` (within a folder), `**` as a whole segment (any folders), `?`, `[abc]`, `[a-z]`, `[!x]`/`[^x]`,
// `{a,b}` (bounded), `\` escapes. Dot files match like any other file. A glob without a `/` also matches a file's name
// at any depth (as `applyTo` means `*.py`).

/** The bounds a glob from a repository must keep; one beyond them is not used (and the chip says so). */
export const GLOB_LIMITS = { chars: 512, stars: 64, braces: 8, alternatives: 64 } as const;

type Step =
  | { kind: 'char'; char: string }
  /** `?`: one character. */
  | { kind: 'one' }
  | { kind: 'class'; negate: boolean; ranges: Array<[string, string]> }
  /** `*`: any run of characters (within the folder: a folder's steps never see a `/`). */
  | { kind: 'star' };

/** A folder of the glob: its steps, or `**` (any number of folders, none included). */
type Segment = readonly Step[] | 'any-folders';

export interface CompiledGlob {
  readonly source: string;
  /** One list of steps per brace alternative, each with whether it is matched against the name too. */
  readonly alternatives: ReadonlyArray<{ segments: readonly Segment[]; byName: boolean }>;
}

/** Steps of matching left; the matching of every glob of one request shares it. */
export interface MatchBudget {
  steps: number;
}

/** Tens of milliseconds at most: a thousand times what a real workspace needs, far short of a frozen editor. */
export const DEFAULT_MATCH_STEPS = 1_000_000;

export class GlobBudgetExceeded extends Error {
  constructor() {
    super('matching the applyTo globs took too long; the rest were not applied');
  }
}

/** Compiles a glob from a repository, or says why it is not used. */
export function compileGlob(glob: string): CompiledGlob | { problem: string } {
  if (glob.length > GLOB_LIMITS.chars) return { problem: `applyTo glob longer than ${GLOB_LIMITS.chars} characters; not used` };
  let stars = 0;
  for (const char of glob) if (char === '*') stars++;
  if (stars > GLOB_LIMITS.stars) return { problem: `applyTo glob with more than ${GLOB_LIMITS.stars} stars; not used` };
  const expanded = expandBraces(glob);
  if ('problem' in expanded) return expanded;
  return { source: glob, alternatives: expanded.map((alternative) => ({ segments: alternative.split('/').map(segmentOf), byName: !alternative.includes('/') })) };
}

/** Whether `path` (`/`-separated) matches; throws GlobBudgetExceeded when the budget runs out. */
export function globMatches(glob: CompiledGlob, path: string, budget: MatchBudget): boolean {
  const slash = path.lastIndexOf('/');
  const name = slash >= 0 ? path.slice(slash + 1) : path;
  const folders = path.split('/');
  return glob.alternatives.some(({ segments, byName }) => matchFolders(segments, folders, budget) || (byName && slash >= 0 && matchFolders(segments, [name], budget)));
}

/** `{a,b}` groups expanded into plain globs, refused past the bounds; a `{` without a comma inside is literal. */
function expandBraces(glob: string): string[] | { problem: string } {
  let groups = 0;
  let results = [glob];
  for (;;) {
    const next: string[] = [];
    let changed = false;
    for (const text of results) {
      const group = firstGroup(text);
      if (!group) {
        next.push(text);
        continue;
      }
      changed = true;
      for (const option of group.options) next.push(text.slice(0, group.start) + option + text.slice(group.end + 1));
    }
    if (!changed) return results;
    if (++groups > GLOB_LIMITS.braces) return { problem: `applyTo glob with more than ${GLOB_LIMITS.braces} brace groups; not used` };
    if (next.length > GLOB_LIMITS.alternatives) return { problem: `applyTo glob with more than ${GLOB_LIMITS.alternatives} brace alternatives; not used` };
    results = next;
  }
}

/** The first top-level `{…,…}` of a glob: where it starts and ends, and its comma-separated options. */
function firstGroup(text: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = 0; start < text.length; start++) {
    if (text[start] === '\\') {
      start++;
      continue;
    }
    if (text[start] !== '{') continue;
    let depth = 0;
    let from = start + 1;
    const options: string[] = [];
    for (let i = start; i < text.length; i++) {
      const char = text[i];
      if (char === '\\') i++;
      else if (char === '{') depth++;
      else if (char === ',' && depth === 1) (options.push(text.slice(from, i)), (from = i + 1));
      else if (char === '}' && --depth === 0) {
        if (options.length === 0) break;
        options.push(text.slice(from, i));
        return { start, end: i, options };
      }
    }
  }
  return undefined;
}

function segmentOf(segment: string): Segment {
  if (segment === '**') return 'any-folders';
  const steps: Step[] = [];
  segmentSteps(segment, steps);
  return steps;
}

function segmentSteps(segment: string, steps: Step[]): void {
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i];
    if (char === '\\' && i + 1 < segment.length) steps.push({ kind: 'char', char: segment[++i] });
    else if (char === '*') {
      // A run of stars is one star.
      if (steps.at(-1)?.kind !== 'star') steps.push({ kind: 'star' });
    } else if (char === '?') steps.push({ kind: 'one' });
    else if (char === '[') {
      const parsed = classAt(segment, i);
      if (parsed) (steps.push(parsed.step), (i = parsed.end));
      else steps.push({ kind: 'char', char });
    } else steps.push({ kind: 'char', char });
  }
}

/** `[…]` starting at `start`, or undefined when it never closes (then `[` is literal). */
function classAt(segment: string, start: number): { step: Step; end: number } | undefined {
  let i = start + 1;
  const negate = segment[i] === '!' || segment[i] === '^';
  if (negate) i++;
  const ranges: Array<[string, string]> = [];
  for (let first = true; i < segment.length; i++, first = false) {
    let char = segment[i];
    if (char === ']' && !first) return { step: { kind: 'class', negate, ranges }, end: i };
    if (char === '\\' && i + 1 < segment.length) char = segment[++i];
    if (segment[i + 1] === '-' && i + 2 < segment.length && segment[i + 2] !== ']') {
      ranges.push([char, segment[i + 2]]);
      i += 2;
    } else ranges.push([char, char]);
  }
  return undefined;
}

/**
 * The wildcard match without backtracking past the last star, used twice: folders against the glob's segments
 * (`**` the star), and one folder's characters against a segment's steps (`*` the star). When an item fails after
 * a star, only that star takes one more item; earlier stars are never revisited, which is what keeps the work at
 * most the text's length times the pattern's.
 */
function wildcard<P, T>(pattern: readonly P[], text: readonly T[] | string, isStar: (p: P) => boolean, matches: (p: P, t: T) => boolean, budget: MatchBudget): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (--budget.steps < 0) throw new GlobBudgetExceeded();
    const item = pattern[p];
    if (item !== undefined && isStar(item)) {
      star = p++;
      resume = t;
    } else if (item !== undefined && matches(item, text[t] as T)) {
      p++;
      t++;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p]!)) p++;
  return p === pattern.length;
}

function matchFolders(segments: readonly Segment[], folders: readonly string[], budget: MatchBudget): boolean {
  return wildcard(segments, folders, (segment) => segment === 'any-folders', (segment, folder) => segment !== 'any-folders' && matchFolder(segment, folder, budget), budget);
}

function matchFolder(steps: readonly Step[], folder: string, budget: MatchBudget): boolean {
  return wildcard(steps, folder, (step) => step.kind === 'star', (step, char: string) => step.kind === 'char' ? step.char === char : step.kind === 'one' || (step.kind === 'class' && inClass(step, char)), budget);
}

function inClass(step: Extract<Step, { kind: 'class' }>, char: string): boolean {
  const found = step.ranges.some(([low, high]) => char >= low && char <= high);
  return found !== step.negate;
}
