/** A change confined to one run of text between two tags of a block's HTML. */
export interface TextEdit {
  /** Which non-empty text run (each becomes one text node when parsed), counted from the start of the HTML. */
  run: number;
  /** The run's text before and after the change (entities decoded). */
  before: string;
  after: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/**
 * When `next` differs from `old` only inside one run of text between tags (an open paragraph, list item or table cell
 * that grew), the run and its text before and after; undefined for anything else (a tag or attribute changed, a run
 * appeared or vanished). Relies on our HTML escaping every `<`, `>` and `&` in text and attribute values (markdown-it
 * and highlight.js do), so `<` and `>` only delimit tags and `&` only starts one of four entities.
 */
export function findTextEdit(old: string, next: string): TextEdit | undefined {
  if (old === next) return undefined;
  const shorter = Math.min(old.length, next.length);
  let start = 0;
  while (start < shorter && old.charCodeAt(start) === next.charCodeAt(start)) start++;
  let sameEnd = 0;
  while (sameEnd < shorter - start && old.charCodeAt(old.length - 1 - sameEnd) === next.charCodeAt(next.length - 1 - sameEnd)) sameEnd++;
  const runStart = old.lastIndexOf('>', start - 1) + 1;
  if (runStart === 0 || old.lastIndexOf('<', start - 1) >= runStart) return undefined; // before any tag, or inside one
  // The changed part must end before the next tag, in both: then everything from that tag on is the same.
  const oldRunEnd = old.indexOf('<', start);
  const nextRunEnd = next.indexOf('<', start);
  if (oldRunEnd === -1 || nextRunEnd === -1 || oldRunEnd < old.length - sameEnd || nextRunEnd < next.length - sameEnd) return undefined;
  const before = decodeText(old.slice(runStart, oldRunEnd));
  const after = decodeText(next.slice(runStart, nextRunEnd));
  if (before === undefined || after === undefined || before === '' || after === '') return undefined;
  return { run: countTextRuns(old, runStart), before, after };
}

/** Non-empty runs of text between tags that start before `end`. */
function countTextRuns(html: string, end: number): number {
  let runs = 0;
  for (let i = html.indexOf('>'); i !== -1 && i + 1 < end; i = html.indexOf('>', i + 1)) if (html[i + 1] !== '<') runs++;
  return runs;
}

function decodeText(html: string): string | undefined {
  if (!html.includes('&')) return html;
  let unknown = false;
  const text = html.replace(/&[^;&]*;?/g, (entity) => {
    const decoded = ENTITIES[entity];
    if (decoded === undefined) unknown = true;
    return decoded ?? '';
  });
  return unknown ? undefined : text;
}
