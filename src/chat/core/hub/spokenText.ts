// The text of a reply as it is read aloud: the words, without the Markdown around them, cut to what the speech
// endpoint takes. A reply is model output, so every step is linear: links and emphasis are unwrapped by scanners, not
// by the regexes they replace (`!\[([^\]]*)\]\([^)]*\)` and `(\*|_|…)(\S(?:[\s\S]*?\S)?)\1` rescanned the rest of the
// reply from every `[` or `*` that never closed: 3.5 s for 64 KB).
const MAX_SPOKEN = 4096;
const EMPHASIS = ['**', '__', '*', '_', '~~'] as const;
const SPACE = /\s/;

export function spokenText(markdown: string): string {
  const text = unwrapEmphasis(
    unwrapLinks(unwrapLinks(markdown.replace(/```[\s\S]*?(```|$)/g, ' (code) '), '!['), '[')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, ''),
  )
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= MAX_SPOKEN) return text;
  const cut = text.slice(0, MAX_SPOKEN);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > MAX_SPOKEN / 2 ? cut.slice(0, end + 1) : cut;
}

/** `opener label](target)` becomes `label` (the first `]` after the opener, then `(` right after it, then the first `)`). */
function unwrapLinks(text: string, opener: '![' | '['): string {
  const out: string[] = [];
  let from = 0;
  for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at)) {
    const labelEnd = text.indexOf(']', at + opener.length);
    // No `]` after this opener means none after any later one either; the same holds for `)`.
    if (labelEnd < 0) break;
    if (text.charCodeAt(labelEnd + 1) !== 40) {
      at = labelEnd + 1; // every opener before this `]` ends its label here too, and fails the same way
      continue;
    }
    const targetEnd = text.indexOf(')', labelEnd + 2);
    if (targetEnd < 0) break;
    out.push(text.slice(from, at), text.slice(at + opener.length, labelEnd));
    at = from = targetEnd + 1;
  }
  out.push(text.slice(from));
  return out.join('');
}

/**
 * `**words**`, `__words__`, `*words*`, `_words_`, `~~words~~` become `words`: the words start and end with a
 * non-space, and the shortest such span of two or more characters wins, then one character. What the regex
 * `(\*\*|__|\*|_|~~)(\S(?:[\s\S]*?\S)?)\1` matched, found with one forward cursor per marker (starts only grow, so
 * each closing marker is looked for once).
 */
function unwrapEmphasis(text: string): string {
  const closers = EMPHASIS.map((marker) => new CloserCursor(text, marker));
  const out: string[] = [];
  let from = 0;
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (let m = 0; m < EMPHASIS.length && !matched; m++) {
      const marker = EMPHASIS[m];
      const inner = at + marker.length;
      if (!text.startsWith(marker, at) || inner >= text.length || SPACE.test(text[inner])) continue;
      let close = closers[m].firstFrom(inner + 2);
      if (close < 0 && text.startsWith(marker, inner + 1)) close = inner + 1;
      if (close < 0) continue;
      out.push(text.slice(from, at), text.slice(inner, close));
      at = from = close + marker.length;
      matched = true;
    }
    if (!matched) at++;
  }
  out.push(text.slice(from));
  return out.join('');
}

/** Finds, for growing positions, the first place at or after it where `marker` follows a non-space. */
class CloserCursor {
  #found = -2; // -2: not looked for yet; -1: there is none
  constructor(
    private readonly text: string,
    private readonly marker: string,
  ) {}

  firstFrom(position: number): number {
    if (this.#found === -1 || this.#found >= position) return this.#found;
    for (let at = this.text.indexOf(this.marker, position); at >= 0; at = this.text.indexOf(this.marker, at + 1)) {
      if (!SPACE.test(this.text[at - 1])) return (this.#found = at);
    }
    return (this.#found = -1);
  }
}
