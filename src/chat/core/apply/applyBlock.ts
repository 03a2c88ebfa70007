// A code block applied to a file's text, without asking any model: a unified diff applies its hunks (with a little
// fuzz, whitespace-insensitive context) or is refused saying which hunk does not fit; any other block replaces the
// selection or the whole file. The result is a list of edits, one per changed run of lines, that the editor can show
// for review one by one. The file's line endings, its byte order mark and its indentation are kept. Pure.
import { applyPatch, diffLines, parsePatch } from 'diff';
import { detectIndentation, looseLine, reindent } from './indentation';

/** Context lines a hunk may miss and still apply (the `diff` package's Levenshtein distance per hunk). */
export const FUZZ = 2;
/** Beyond this many changed lines the review gets one edit for the whole file instead of one per run. */
const MAX_EDIT_LENGTH = 20_000;

export interface TextEdit {
  /** UTF-16 offsets in the old text (as a VS Code document counts them). */
  start: number;
  end: number;
  text: string;
}

export type ApplyOutcome = { ok: true; text: string; edits: TextEdit[] } | { ok: false; reason: string };

export interface ApplyInput {
  /** The file's text now (a BOM, if any, first). */
  current: string;
  /** The block as applied (the path comment already taken off). */
  code: string;
  /** A unified diff's hunks are applied; otherwise the block replaces `range`, or the whole text. */
  diff: boolean;
  /** The selection to replace (offsets in `current`); absent: the whole file. */
  range?: { start: number; end: number };
  /** How the file is named in a refusal. */
  display: string;
}

const BOM = '\uFEFF';

/** The file's line break: CRLF when most of its lines end so. */
export function lineBreakOf(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function withBreak(text: string, eol: '\n' | '\r\n'): string {
  return eol === '\n' ? text : text.replace(/\n/g, '\r\n');
}

/** The new text of the file, and the edits from the current text to it; or why the block cannot be applied. */
export function applyBlock(input: ApplyInput): ApplyOutcome {
  const bom = input.current.startsWith(BOM) ? BOM : '';
  const eol = lineBreakOf(input.current);
  const body = toLf(input.current.slice(bom.length));
  const code = toLf(input.code.startsWith(BOM) ? input.code.slice(1) : input.code);
  const indentation = detectIndentation(body);
  let next: string;
  if (input.diff) {
    const patched = applyDiff(body, code, input.display);
    if (!patched.ok) return patched;
    next = patched.text;
  } else if (input.range) {
    const start = toLf(input.current.slice(bom.length, Math.max(bom.length, input.range.start))).length;
    const end = toLf(input.current.slice(bom.length, Math.max(bom.length, input.range.end))).length;
    next = body.slice(0, start) + reindent(code, indentation) + body.slice(end);
  } else {
    const whole = reindent(code, indentation);
    // A file that ended with a line break keeps it (a fence's content always ends with one; a file need not).
    next = body.endsWith('\n') || body === '' ? (whole.endsWith('\n') ? whole : `${whole}\n`) : whole.replace(/\n$/, '');
  }
  const text = bom + withBreak(next, eol);
  return { ok: true, text, edits: editsBetween(input.current, text) };
}

type Patched = { ok: true; text: string } | { ok: false; reason: string };

/** Applies a unified diff's hunks to LF text; context and removed lines match whatever their whitespace. */
export function applyDiff(body: string, patch: string, display: string): Patched {
  const normalized = normalizeHunks(patch);
  if (!normalized) return { ok: false, reason: 'The diff has no hunks (no @@ line) to apply.' };
  let parsed;
  try {
    parsed = parsePatch(normalized);
  } catch (error) {
    return { ok: false, reason: `The diff cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (parsed.length !== 1) return { ok: false, reason: parsed.length === 0 ? 'The diff has no hunks to apply.' : `The diff changes ${parsed.length} files; apply it with git (git apply).` };
  const indentation = detectIndentation(body);
  const patchOne = parsed[0];
  for (const hunk of patchOne.hunks) hunk.lines = hunk.lines.map((line) => (line.startsWith('+') ? `+${reindent(line.slice(1), indentation)}` : line));
  const options = { fuzzFactor: FUZZ, // The package asks about lines past the end of the file too (`line` undefined there).
  compareLine: (_n: number, line: string | undefined, _op: string, content: string) => line !== undefined && looseLine(line) === looseLine(content) };
  const result = applyPatch(body, patchOne, options);
  if (result !== false) return { ok: true, text: result };
  // Which hunk does not fit, so the refusal says where to look.
  const failing = patchOne.hunks.findIndex((hunk) => applyPatch(body, { ...patchOne, hunks: [hunk] }, options) === false);
  const where = failing >= 0 ? `hunk ${failing + 1} (near line ${patchOne.hunks[failing].oldStart})` : 'its hunks, in order,';
  return { ok: false, reason: `The diff does not match ${display}: ${where} was not found in the file (it may have changed since the reply). Nothing was changed.` };
}

/**
 * The diff with each hunk header recounted from its lines: models write `@@ ... @@`, or counts that do not add up,
 * and the `diff` package rejects both. Undefined when there is no hunk at all.
 */
export function normalizeHunks(patch: string): string | undefined {
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const out: string[] = [];
  let header = -1;
  let oldStart = 1;
  let newStart = 1;
  let removed = 0;
  let added = 0;
  let hunks = 0;
  const closeHunk = () => {
    if (header < 0) return;
    out[header] = `@@ -${oldStart},${removed} +${newStart},${added} @@`;
    header = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('@@')) {
      closeHunk();
      const numbers = hunkNumbers(line);
      // A hunk without line numbers starts where the previous one would leave off; applyPatch searches from there.
      oldStart = numbers?.old ?? oldStart + removed;
      newStart = numbers?.new ?? newStart + added;
      removed = 0;
      added = 0;
      header = out.length;
      hunks++;
      out.push(line);
      continue;
    }
    // A `---` line followed by `+++` starts the next file's headers; otherwise it is a removed `-- …` line.
    const nextFile = line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ');
    if (header < 0 || nextFile || !(line === '' || ' +-\\'.includes(line[0]))) {
      closeHunk();
      out.push(line);
      continue;
    }
    // An empty line inside a hunk is an empty context line whose leading space was lost.
    const kept = line === '' ? ' ' : line;
    if (kept[0] === '+') added++;
    else if (kept[0] === '-') removed++;
    else if (kept[0] === ' ') {
      removed++;
      added++;
    }
    out.push(kept);
  }
  closeHunk();
  return hunks > 0 ? `${out.join('\n')}\n` : undefined;
}

/** `-12,3 +12,4` of a hunk header; undefined when it has none. */
function hunkNumbers(line: string): { old: number; new: number } | undefined {
  const parts = line.slice(2, 200).trim().split(/\s+/);
  const minus = parts.find((p) => p.startsWith('-'));
  const plus = parts.find((p) => p.startsWith('+'));
  const start = (part: string | undefined) => {
    const value = Number.parseInt(part?.slice(1).split(',')[0] ?? '', 10);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  const old = start(minus);
  const added = start(plus);
  return old === undefined || added === undefined ? undefined : { old: Math.max(old, 1), new: Math.max(added, 1) };
}

/** The edits that turn `before` into `after`: one per changed run of whole lines, in order, not overlapping. */
export function editsBetween(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  const changes = diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return [{ start: 0, end: before.length, text: after }];
  const edits: TextEdit[] = [];
  let offset = 0;
  let open: TextEdit | undefined;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      open = undefined;
      offset += change.value.length;
      continue;
    }
    if (!open) {
      open = { start: offset, end: offset, text: '' };
      edits.push(open);
    }
    if (change.removed) {
      offset += change.value.length;
      open.end = offset;
    } else open.text += change.value;
  }
  return edits;
}
