// What a reply's code block says about where it goes: a path in the fence's info string (```ts src/a.ts,
// ```ts:src/a.ts, ```ts path=src/a.ts, ```src/a.ts) or in a leading path comment (// src/a.ts, # file: a.py,
// <!-- a.html -->), and whether it is a unified diff. Pure: the model wrote all of this, so every read is bounded
// and nothing here uses a backtracking regex.

/** Longest path taken from a reply; anything longer is not a path a model means. */
const MAX_PATH = 400;
/** The info string and the first line are read only this far. */
const MAX_INFO = 500;

const PATH_KEYS = ['path', 'file', 'filepath', 'filename', 'title', 'name'];
const COMMENT_LABELS = ['path:', 'file:', 'filepath:', 'filename:', 'file path:'];

/** A token a model would write as a file path: no spaces or controls, with a folder separator or an extension. */
export function looksLikePath(token: string): boolean {
  if (token === '' || token.length > MAX_PATH || token.startsWith('!') || token.includes('://')) return false;
  for (let i = 0; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (code <= 32 || code === 127 || token[i] === '"' || token[i] === '`' || token[i] === '<' || token[i] === '>' || token[i] === '|' || token[i] === '*' || token[i] === '?') return false;
  }
  if (token.includes('/') || token.includes('\\')) return !token.endsWith('/') && !token.endsWith('\\');
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || dot === token.length - 1 || token.length - dot - 1 > 10) return false;
  for (let i = dot + 1; i < token.length; i++) if (!isAlnum(token.charCodeAt(i))) return false;
  return true;
}

function isAlnum(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function unquote(value: string): string {
  const first = value[0];
  return value.length >= 2 && (first === '"' || first === "'") && value.endsWith(first) ? value.slice(1, -1) : value;
}

/** The path the info string names, and its language word (the first word when that is not the path). */
export function infoTarget(info: string): { language: string; path?: string } {
  const words = info.slice(0, MAX_INFO).trim().split(/\s+/).filter((w) => w !== '');
  let language = words[0] ?? '';
  let path: string | undefined;
  const colon = language.indexOf(':');
  if (colon > 0 && looksLikePath(language.slice(colon + 1))) {
    path = language.slice(colon + 1);
    language = language.slice(0, colon);
  } else if (looksLikePath(language) && !language.includes('=')) {
    path = language;
    language = '';
  }
  for (const word of words.slice(1)) {
    if (path) break;
    const equals = word.indexOf('=');
    const value = equals > 0 && PATH_KEYS.includes(word.slice(0, equals).toLowerCase()) ? unquote(word.slice(equals + 1)) : word;
    if (looksLikePath(value)) path = value;
  }
  return path ? { language, path } : { language };
}

const COMMENTS: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['/*', '*/'],
  ['//', ''],
  ['--', ''],
  ['#', ''],
  [';', ''],
  ['%', ''],
];

/** The path a block's first line names as a comment (`// src/a.ts`, `# path: a.py`), if it does. */
export function commentPath(firstLine: string): string | undefined {
  let line = firstLine.slice(0, MAX_INFO).trim();
  const comment = COMMENTS.find(([open, close]) => line.startsWith(open) && (close === '' || line.endsWith(close)));
  if (!comment) return undefined;
  line = line.slice(comment[0].length, line.length - comment[1].length).trim();
  const label = COMMENT_LABELS.find((l) => line.toLowerCase().startsWith(l));
  if (label) line = line.slice(label.length).trim();
  return looksLikePath(line) ? line : undefined;
}

/** The first line of `code` and the rest (after its line break). */
function splitFirstLine(code: string): [string, string] {
  const end = code.indexOf('\n');
  return end < 0 ? [code, ''] : [code.slice(0, end).replace(/\r$/, ''), code.slice(end + 1)];
}

export interface BlockTarget {
  /** The path the block names (info string, path comment, or a diff's `+++` header), as written. */
  path?: string;
  /** The block as applied: without the path comment that named it. */
  code: string;
  /** A unified diff: its hunks are applied, not its text. */
  diff: boolean;
}

/** Where a block says it goes, and what of it is applied. */
export function blockTarget(code: string, info: string): BlockTarget {
  const { language, path: infoPath } = infoTarget(info);
  const diff = isUnifiedDiff(code, language);
  if (diff) return { path: infoPath ?? diffPath(code), code, diff };
  if (infoPath) return { path: infoPath, code, diff };
  const [first, rest] = splitFirstLine(code);
  const fromComment = commentPath(first);
  return fromComment ? { path: fromComment, code: rest, diff } : { code, diff };
}

/** A unified diff: the fence says `diff`/`patch` and a hunk header follows, or it has `---`/`+++` headers before one. */
export function isUnifiedDiff(code: string, language: string): boolean {
  let headers = 0;
  let lineStart = 0;
  while (lineStart < code.length) {
    const end = code.indexOf('\n', lineStart);
    const line = code.slice(lineStart, end < 0 ? code.length : end);
    if (line.startsWith('@@ -')) return headers >= 2 || language === 'diff' || language === 'patch';
    if (line.startsWith('--- ') || line.startsWith('+++ ')) headers++;
    if (end < 0) break;
    lineStart = end + 1;
  }
  return false;
}

/** The file a diff changes: its `+++` header (`b/` taken off), else its `---` header; none for /dev/null. */
export function diffPath(code: string): string | undefined {
  let minus: string | undefined;
  for (const raw of code.split('\n', 2000)) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('@@')) break;
    if (line.startsWith('+++ ')) return headerPath(line.slice(4)) ?? minus;
    if (line.startsWith('--- ')) minus = headerPath(line.slice(4));
  }
  return minus;
}

function headerPath(value: string): string | undefined {
  let path = value.split('\t')[0].trim();
  if (path === '/dev/null') return undefined;
  if (path.startsWith('a/') || path.startsWith('b/')) path = path.slice(2);
  return looksLikePath(path) ? path : undefined;
}

/**
 * The info string of the fenced block in `content` (a reply) whose text is `code` (as the chat view sent it), or
 * undefined when the reply has no such block. The path the host acts on comes from the stored reply, not from the view.
 */
export function fenceInfoFor(content: string, code: string): string | undefined {
  const wanted = code.replace(/\r\n/g, '\n').trimEnd();
  let open: { char: string; length: number; indent: number; info: string; body: string[] } | undefined;
  for (const line of content.split('\n')) {
    const trimmed = line.trimStart();
    const indent = line.length - trimmed.length;
    const char = trimmed[0];
    if (!open) {
      if (char !== '`' && char !== '~') continue;
      const length = runLength(trimmed, char);
      if (length >= 3 && !(char === '`' && trimmed.slice(length).includes('`'))) open = { char, length, indent, info: trimmed.slice(length).trim(), body: [] };
      continue;
    }
    if (char === open.char && runLength(trimmed, char) >= open.length && trimmed.slice(runLength(trimmed, char)).trim() === '') {
      if (open.body.join('\n').trimEnd() === wanted) return open.info;
      open = undefined;
      continue;
    }
    // A fence inside a list item is indented; so are its lines, by as much.
    let cut = 0;
    while (cut < open.indent && (line[cut] === ' ' || line[cut] === '\t')) cut++;
    open.body.push(line.slice(cut).replace(/\r$/, ''));
  }
  return open && open.body.join('\n').trimEnd() === wanted ? open.info : undefined;
}

function runLength(text: string, char: string): number {
  let n = 0;
  while (n < text.length && text[n] === char) n++;
  return n;
}

/** What the panel asks the editor side to apply. */
export interface ApplyRequest {
  code: string;
  /** The fence's info string (from the stored reply when the block was found there, else its language). */
  info: string;
  /** When the reply was written (epoch ms): a file saved after it is flagged as changed since. */
  replyAt?: number;
}
