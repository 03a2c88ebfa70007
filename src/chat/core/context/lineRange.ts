// "Lines of a File…": which lines the user typed (`12-40`, `12`, `12-` for the rest of the file) and those lines of a
// text. Pure.

export interface LineRange {
  /** 1-based and inclusive. */
  start: number;
  end: number;
}

const RANGE = /^(\d+)\s*(?:(?:-|–|—|:|\.\.)\s*(\d+)?)?$/;

/** The range typed for a text of `total` lines, or why it cannot be attached. */
export function parseLineRange(input: string, total: number): LineRange | { error: string } {
  const match = RANGE.exec(input.trim());
  if (!match) return { error: `Type a line or a range of lines, from 1 to ${total}: 12-40, 12, or 12- for the rest of the file.` };
  const start = Number(match[1]);
  const open = match[2] === undefined && /\D\s*$/.test(input.trim());
  const end = open ? total : Number(match[2] ?? match[1]);
  if (start < 1 || end < 1) return { error: 'Lines are counted from 1.' };
  if (start > end) return { error: `The range ends (line ${end}) before it starts (line ${start}).` };
  if (end > total) return { error: `The file has ${total} line${total === 1 ? '' : 's'}.` };
  return { start, end };
}

/** Lines `start`..`end` (1-based, inclusive) of `text`, without the final line break. */
export function sliceLines(text: string, range: LineRange): string {
  return text.split(/\r?\n/).slice(range.start - 1, range.end).join('\n');
}

/** Lines a text has, the way an editor counts them (a final line break starts an empty last line). */
export function editorLineCount(text: string): number {
  return text.split(/\r?\n/).length;
}
