/**
 * Builds the DOM of a block from the HTML our renderer made (markdown-it with `html: false`, highlight.js, our toolbar)
 * with an allowlist applied per node: no browser HTML parse and no sanitiser walk afterwards. Only the tags and
 * attributes below are ever created, so whatever the string holds, nothing else reaches the DOM; the rules are the
 * ones the DOMPurify configuration had (the browser tests compare the two on the corpus and on hostile output).
 *
 * The grammar read is the one our renderer writes: `<tag name="value" …>`, `</tag>`, and text in which `&`, `<`, `>`,
 * `"` (and highlight.js's `'`) are escaped. Anything outside it (a `<` that starts no tag, an unquoted or unterminated
 * attribute) is kept as text, so it shows instead of becoming markup.
 */

/** Exactly the tags our markdown renderer and highlight.js emit; everything else is dropped (its text kept). */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'a', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol',
  'p', 'pre', 's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
]);
// No `href`: links carry their URL in `data-href` only (see markdownRenderer.ts), so no anchor is ever live.
export const ALLOWED_ATTRIBUTES: ReadonlySet<string> = new Set([
  'title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-href', 'data-lang', 'data-action', 'tabindex', 'role',
]);
const VOID_TAGS = new Set(['br', 'hr']);

/** Class tokens we emit: highlight.js scopes (`hljs-title function_`), our own `md-`/`code-` names, codicons, alignment. */
const ALLOWED_CLASS = /^(?:hljs(?:-[a-z0-9-]+)?|[a-z]+_+|language-[\w.+#-]+|md-[a-z-]+|code-[a-z-]+|codicon(?:-[a-z-]+)?|align-(?:left|center|right))$/;
const SAFE_URL = /^https?:\/\//i;
/** What a URL check ignores, as browsers do when they read a URL (so `java\tscript:` is seen as `javascript:`). */
const URL_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;
/** Attribute values that could close a comment, CDATA or raw-text element if the DOM were ever serialised and parsed again. */
const VALUE_BREAKOUT = /(?:--!?|\])>|<\/(?:style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i;
const WHITESPACE = /\s+/;

/** The value `name` may have on `<tag>`, or undefined when the attribute is not allowed there. */
export function allowedAttributeValue(tag: string, name: string, raw: string): string | undefined {
  if (!ALLOWED_ATTRIBUTES.has(name)) return undefined;
  let value = raw.trim();
  if (name === 'class') {
    const kept = value.split(WHITESPACE).filter((token) => ALLOWED_CLASS.test(token));
    if (kept.length === 0) return undefined;
    value = kept.join(' ');
  } else if (name === 'type') {
    if (tag !== 'button' || value !== 'button') return undefined;
  } else if (name === 'tabindex' || name === 'role') {
    if (tag !== 'a' || value !== (name === 'role' ? 'link' : '0')) return undefined;
  }
  if (value.includes('/>') || VALUE_BREAKOUT.test(value)) return undefined;
  if (name === 'data-href' && value !== '' && !SAFE_URL.test(value.replace(URL_WHITESPACE, ''))) return undefined;
  return value;
}

export type FragmentBuilder = (html: string) => DocumentFragment;

/** Checked element prototypes by their tag's exact source (null: a tag that is dropped); bounded, as texts are untrusted. */
const PROTOTYPE_LIMIT = 2048;

const builders = new WeakMap<Document, FragmentBuilder>();

/** One builder per document for every view in it (they share the cache of checked tags). */
export function builderFor(document: Document): FragmentBuilder {
  let build = builders.get(document);
  if (!build) builders.set(document, (build = createBuilder(document)));
  return build;
}

interface Open {
  tag: string;
  /** Where the element's children go: the element, or its parent's target when the tag was dropped. */
  target: Node;
}

export function createBuilder(document: Document): FragmentBuilder {
  const prototypes = new Map<string, Element | null>();

  /** The checked element for a start tag's source, or null when the tag is dropped; undefined when it is no tag. */
  const elementFor = (source: string, tag: string): Element | null => {
    let prototype = prototypes.get(source);
    if (prototype === undefined) {
      prototype = checkedElement(document, source, tag);
      if (prototypes.size >= PROTOTYPE_LIMIT) prototypes.clear();
      prototypes.set(source, prototype);
    }
    return prototype && (prototype.cloneNode(false) as Element);
  };

  return (html) => {
    const fragment = document.createDocumentFragment();
    const open: Open[] = [];
    let target: Node = fragment;
    let text = '';
    const flushText = () => {
      if (text === '') return;
      target.appendChild(document.createTextNode(decodeEntities(text)));
      text = '';
    };
    let position = 0;
    while (position < html.length) {
      const lt = html.indexOf('<', position);
      if (lt === -1) {
        text += html.slice(position);
        break;
      }
      text += html.slice(position, lt);
      const tag = readTag(html, lt);
      if (!tag) {
        text += '<';
        position = lt + 1;
        continue;
      }
      flushText();
      position = tag.end;
      if (tag.closing) {
        let match = open.length - 1;
        while (match >= 0 && open[match].tag !== tag.name) match--;
        if (match < 0) continue;
        open.length = match;
        target = match > 0 ? open[match - 1].target : fragment;
        continue;
      }
      const element = elementFor(html.slice(lt, tag.end), tag.name);
      if (element) target.appendChild(element);
      if (VOID_TAGS.has(tag.name) || tag.selfClosing) continue;
      open.push({ tag: tag.name, target: element ?? target });
      target = element ?? target;
    }
    flushText();
    return fragment;
  };
}

interface TagSource {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Index just past the `>`. */
  end: number;
}

const NAME_START = /[a-zA-Z]/;

/**
 * Reads the tag at `start` (a `<`) in the grammar our renderer writes; undefined when it is not such a tag. With
 * `attributes`, collects each attribute's name (lower case) and raw value.
 */
function readTag(html: string, start: number, attributes?: Array<[string, string]>): TagSource | undefined {
  let i = start + 1;
  const closing = html[i] === '/';
  if (closing) i++;
  if (!NAME_START.test(html[i] ?? '')) return undefined;
  const nameStart = i;
  while (i < html.length && isNameChar(html.charCodeAt(i))) i++;
  const name = html.slice(nameStart, i).toLowerCase();
  let selfClosing = false;
  for (;;) {
    while (html[i] === ' ' || html[i] === '\n' || html[i] === '\t') i++;
    const ch = html[i];
    if (ch === '>') return { name, closing, selfClosing, end: i + 1 };
    if (ch === '/' && html[i + 1] === '>') {
      selfClosing = true;
      i++;
      continue;
    }
    if (closing || ch === undefined) return undefined;
    // An attribute: name="value" (ours are always quoted) or a bare name.
    const attrStart = i;
    while (i < html.length && isNameChar(html.charCodeAt(i))) i++;
    if (i === attrStart) return undefined;
    const attrName = attributes && html.slice(attrStart, i).toLowerCase();
    if (html[i] !== '=') {
      if (attributes) attributes.push([attrName!, '']);
      continue;
    }
    if (html[i + 1] !== '"') return undefined;
    const close = html.indexOf('"', i + 2);
    if (close === -1) return undefined;
    if (attributes) attributes.push([attrName!, html.slice(i + 2, close)]);
    i = close + 1;
  }
}

/** Letters, digits, `-`, `_`, `:` and `.`: tag and attribute names as our renderer writes them. */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 95 || code === 58 || code === 46
  );
}

/** A fresh element for a start tag, its attributes checked, or null when the tag is not allowed. */
function checkedElement(document: Document, source: string, tag: string): Element | null {
  if (!ALLOWED_TAGS.has(tag)) return null;
  const element = document.createElement(tag);
  const attributes: Array<[string, string]> = [];
  readTag(source, 0, attributes);
  const seen = new Set<string>();
  for (const [name, raw] of attributes) {
    if (seen.has(name)) continue; // the first of two wins, as in the HTML parser
    seen.add(name);
    const value = allowedAttributeValue(tag, name, decodeEntities(raw));
    if (value !== undefined) element.setAttribute(name, value);
  }
  return element;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the entities our escaping writes (named and numeric); any other `&` stays as it is. */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    const semi = text.indexOf(';', amp + 1);
    const body = semi === -1 || semi - amp > 10 ? undefined : text.slice(amp + 1, semi);
    const decoded = body === undefined ? undefined : decodeEntity(body);
    if (decoded !== undefined) {
      out += text.slice(last, amp) + decoded;
      last = semi + 1;
    }
    amp = text.indexOf('&', decoded !== undefined ? last : amp + 1);
  }
  return out + text.slice(last);
}

function decodeEntity(body: string): string | undefined {
  if (body[0] !== '#') return NAMED_ENTITIES[body];
  const hex = body[1] === 'x' || body[1] === 'X';
  const digits = body.slice(hex ? 2 : 1);
  if (digits === '' || !(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = parseInt(digits, hex ? 16 : 10);
  // What the HTML parser does with the few code points it will not produce.
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(code);
}
