// A file's indentation (tabs, or spaces by N) and the change of a block written with another: a model writes spaces
// into a file indented with tabs, and the other way round. Pure.

export interface Indentation {
  tabs: boolean;
  /** Spaces per level (for tabs, how wide a tab is counted when a line mixes them). */
  size: number;
}

/** Lines looked at to decide; enough for any file's habit. */
const SAMPLE_LINES = 2000;

function leading(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(0, i);
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** How `text` is indented, or undefined when no line is (nothing to go by). */
export function detectIndentation(text: string): Indentation | undefined {
  let tabs = 0;
  let spaces = 0;
  let unit = 0;
  for (const line of text.split('\n', SAMPLE_LINES)) {
    if (line.trim() === '') continue;
    const indent = leading(line);
    if (indent.startsWith('\t')) tabs++;
    else if (indent.length > 0) {
      // A lone space before `*` continues a block comment; it says nothing about the indentation.
      if (indent.length === 1 && line[1] === '*') continue;
      spaces++;
      unit = gcd(unit, indent.length);
    }
  }
  if (tabs === 0 && spaces === 0) return undefined;
  if (tabs > spaces) return { tabs: true, size: 4 };
  return { tabs: false, size: Math.min(8, Math.max(2, unit)) };
}

/** `code` indented the way `target` is: each line's level kept, written in the target's tabs or spaces. */
export function reindent(code: string, target: Indentation | undefined): string {
  const source = detectIndentation(code);
  if (!source || !target || (source.tabs === target.tabs && (source.tabs || source.size === target.size))) return code;
  return code
    .split('\n')
    .map((line) => {
      const indent = leading(line);
      if (indent === '') return line;
      let width = 0;
      for (const c of indent) width += c === '\t' ? source.size : 1;
      const level = Math.floor(width / source.size);
      const rest = width % source.size;
      const written = target.tabs ? '\t'.repeat(level) : ' '.repeat(level * target.size);
      return written + ' '.repeat(rest) + line.slice(indent.length);
    })
    .join('\n');
}

/** A line as compared when a diff's context is matched: whitespace runs count as one space, ends trimmed. */
export function looseLine(line: string): string {
  return line.trim().replace(/[ \t]+/g, ' ');
}
