// The DOMPurify configuration the renderer sanitised with before it built its nodes itself (nodeBuilder.ts): the
// browser tests check that the builder gives the same DOM on the corpus, and the render bench's naive baseline uses it.
import DOMPurify from 'dompurify';
import type { Config, UponSanitizeAttributeHookEvent } from 'dompurify';

/** Exactly the tags our markdown renderer and highlight.js emit; everything else is dropped. */
const ALLOWED_TAGS = [
  'a', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol',
  'p', 'pre', 's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
// No `href`: links carry their URL in `data-href` only (see markdownRenderer.ts), so no anchor is ever live.
const ALLOWED_ATTR = ['title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-href', 'data-lang', 'data-action', 'tabindex', 'role'];

/** Class tokens we emit: highlight.js scopes (`hljs-title function_`), our own `md-`/`code-` names, codicons, alignment. */
const ALLOWED_CLASS = /^(?:hljs(?:-[a-z0-9-]+)?|[a-z]+_+|language-[\w.+#-]+|md-[a-z-]+|code-[a-z-]+|codicon(?:-[a-z-]+)?|align-(?:left|center|right))$/;
const SAFE_URL = /^https?:\/\//i;
const INERT_DOCUMENT_USES = 16;

/**
 * A private DOMPurify instance (its hooks never leak into other users of DOMPurify on the page). The HTML is parsed in
 * an inert document (no browsing context: nothing loads or runs there) and sanitised in place, so the nodes inserted
 * are exactly the nodes that were checked, never serialised and parsed again (and no import copy is made).
 */
export function createSanitizer(window: Window & typeof globalThis): (html: string) => DocumentFragment {
  const purify = DOMPurify(window);
  const config: Config & { IN_PLACE: true } = {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOWED_URI_REGEXP: SAFE_URL,
    // Attributes whose values are never URLs; the strict URL check above would otherwise reject them.
    ADD_URI_SAFE_ATTR: ['start', 'type', 'aria-label', 'aria-hidden', 'data-lang', 'data-action', 'tabindex', 'role'],
    IN_PLACE: true,
  };
  purify.setConfig(config);
  purify.addHook('uponSanitizeAttribute', (node: Element, event: UponSanitizeAttributeHookEvent) => {
    if (event.attrName === 'class') {
      const kept = event.attrValue.split(/\s+/).filter((token) => ALLOWED_CLASS.test(token));
      event.attrValue = kept.join(' ');
      if (kept.length === 0) event.keepAttr = false;
    } else if (event.attrName === 'type' && !(node.tagName === 'BUTTON' && event.attrValue === 'button')) {
      event.keepAttr = false;
    } else if ((event.attrName === 'tabindex' || event.attrName === 'role') && !(node.tagName === 'A' && event.attrValue === (event.attrName === 'role' ? 'link' : '0'))) {
      event.keepAttr = false;
    }
  });
  const implementation = window.document.implementation;
  let inert: Document | undefined;
  let uses = 0;
  return (html) => {
    // DOMPurify leaves a NodeIterator on the document it walks, and every node later moved out of that document pays
    // for all of its iterators; so an inert document serves a few calls only, then a new one is made.
    if (!inert || ++uses > INERT_DOCUMENT_USES) {
      inert = implementation.createHTMLDocument('');
      uses = 0;
    }
    inert.body.innerHTML = '<div>' + html + '</div>';
    const root = inert.body.firstChild as HTMLElement;
    purify.sanitize(root);
    const fragment = inert.createDocumentFragment();
    fragment.append(...Array.from(root.childNodes));
    inert.body.replaceChildren();
    return fragment;
  };
}
