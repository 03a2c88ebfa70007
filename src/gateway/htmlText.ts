// The readable text of an HTML error page (a proxy's or a CDN's), in linear time. The regexes this replaces
// (`<title[^>]*>([\s\S]*?)<\/title>`, `<[^>]*>`, `<script[\s\S]*?<\/script>`) rescanned to the end of the body from
// every `<` that never closed: a 64 KB body of `<` took 9 s. No `vscode` import.

const TAG_NAME_END = /[\s/>]/;

/** The text inside the first `<tag …>…</tag>` (tag in lower case), or undefined when there is none. */
export function elementText(html: string, tag: string): string | undefined {
  const lower = asciiLowerCase(html);
  const open = lower.indexOf(`<${tag}`);
  if (open < 0) return undefined;
  const openEnd = html.indexOf('>', open);
  if (openEnd < 0) return undefined;
  const close = lower.indexOf(`</${tag}>`, openEnd + 1);
  return close < 0 ? undefined : html.slice(openEnd + 1, close);
}

/** The text of `html`: tags become spaces, script and style elements go whole, the common entities are decoded. */
export function htmlText(html: string): string {
  const lower = asciiLowerCase(html);
  const parts: string[] = [];
  /** Raw-text elements found without their closing tag: none closes later either, so never search again. */
  const unclosed = new Set<string>();
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    const gt = lt < 0 ? -1 : html.indexOf('>', lt + 1);
    if (gt < 0) {
      parts.push(html.slice(at));
      break;
    }
    parts.push(html.slice(at, lt), ' ');
    at = gt + 1;
    const name = rawTextElementAt(lower, lt);
    if (name === undefined || unclosed.has(name)) continue;
    const close = lower.indexOf(`</${name}>`, lt);
    if (close < 0) unclosed.add(name);
    else at = close + name.length + 3;
  }
  return decodeEntities(parts.join(''));
}

function rawTextElementAt(lower: string, lt: number): 'script' | 'style' | undefined {
  for (const name of ['script', 'style'] as const) {
    if (lower.startsWith(name, lt + 1) && (lt + 1 + name.length >= lower.length || TAG_NAME_END.test(lower[lt + 1 + name.length]))) return name;
  }
  return undefined;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Lower case for A–Z only, so every index into the result is an index into the original (toLowerCase can change the length). */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}
