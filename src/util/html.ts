// Text into HTML made by the extension (webview pages). Browser-safe.

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Escapes text for Markdown (tree tooltips, reports): every character Markdown, its inline HTML, math or a link finder
 * could read as markup is escaped, and line breaks and other control characters become spaces, so the text can start
 * no block of its own (a heading, a list, a rule).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(CONTROL, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>~&$:=]/g, (c) => `\\${c}`);
}

/** Text as a Markdown inline code span: without backticks or line breaks, which could end the span, it stays text. */
export function markdownCode(text: string): string {
  return `\`${text.replace(CONTROL, '?').replace(/`/g, '?')}\``;
}

// Line breaks (U+2028/9 too), other control characters and the bidirectional overrides that could disguise text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export interface PageParts {
  title: string;
  /** The Content-Security-Policy, as directives joined by "; ". */
  csp: string;
  /** The nonce the CSP allows for the page's own style element and scripts. */
  nonce: string;
  /** CSS for one nonce'd style element. */
  style?: string;
  /** Stylesheet URLs (the CSP's style-src allows them). */
  stylesheets?: readonly string[];
  /** Script URLs, each loaded with the nonce, after the body. */
  scripts?: readonly string[];
  /** `data-*` attributes of the body element. */
  data?: Readonly<Record<string, string>>;
  /** Already-escaped markup. */
  body: string;
}

/** A whole webview page around `body`: its CSP first, then its styles, the body and its scripts. */
export function htmlPage(parts: PageParts): string {
  const nonce = escapeHtml(parts.nonce);
  const head = [
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(parts.csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.title)}</title>`,
    ...(parts.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...(parts.style === undefined ? [] : [`<style nonce="${nonce}">${parts.style}</style>`]),
  ];
  const data = Object.entries(parts.data ?? {}).map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`).join('');
  const scripts = (parts.scripts ?? []).map((src) => `<script nonce="${nonce}" src="${escapeHtml(src)}"></script>`);
  return ['<!DOCTYPE html>', '<html lang="en">', '<head>', ...head, '</head>', `<body${data}>`, parts.body, ...scripts, '</body>', '</html>'].join('\n');
}
