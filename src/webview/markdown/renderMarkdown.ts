import { MarkdownRenderer } from './markdownRenderer';
import { StreamingMarkdown } from './streamingMarkdown';

let renderer: MarkdownRenderer | undefined;

/**
 * Renders a complete markdown text (e.g. a user message or a reloaded reply) in one go, through the allowlist builder: the DOM a
 * StreamingMarkdown ends with for the same text. Link clicks are the caller's to handle.
 */
export function renderMarkdown(text: string, document: Document = window.document): DocumentFragment {
  renderer ??= new MarkdownRenderer();
  const host = document.createElement('div');
  const markdown = new StreamingMarkdown(host, { renderer });
  markdown.append(text);
  markdown.end();
  markdown.dispose();
  const fragment = document.createDocumentFragment();
  fragment.append(...Array.from(host.childNodes));
  return fragment;
}
