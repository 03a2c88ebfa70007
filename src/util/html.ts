// Text into HTML made by the extension (webview pages). Browser-safe.

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Escapes text for Markdown (tree tooltips): every character Markdown or its inline HTML could read as markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`);
}

export interface PageParts {
  title: string;
  /** The Content-Security-Policy, as directives joined by "; ". */
  csp: string;
  /** The nonce its style-src allows for the page's one style element. */
  nonce: string;
  style: string;
  /** Already-escaped markup. */
  body: string;
}

/** A whole webview page around `body`, with its CSP and one nonce'd style element (the extension's script-free pages). */
export function htmlPage(parts: PageParts): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(parts.csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<style nonce="${escapeHtml(parts.nonce)}">${parts.style}</style>
</head>
<body>
${parts.body}
</body>
</html>`;
}
