import { MarkdownRenderer } from './markdownRenderer';
import { createSanitizer, type FragmentSanitizer } from './sanitizer';

let renderer: MarkdownRenderer | undefined;
let sanitizer: FragmentSanitizer | undefined;

/** Renders a complete markdown text (e.g. a user message or a reloaded reply) in one go, sanitised. */
export function renderMarkdown(text: string, document: Document = window.document): DocumentFragment {
  renderer ??= new MarkdownRenderer();
  sanitizer ??= createSanitizer(document.defaultView ?? window);
  return sanitizer(renderer.renderDocument(text));
}
