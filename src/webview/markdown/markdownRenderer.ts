import MarkdownIt from 'markdown-it';
import { CodeHighlighter, escapeHtml } from './highlight';

type Token = MarkdownIt.Token;
type RuleBlock = MarkdownIt.ParserBlock.RuleBlock;

export interface LinkReference {
  href: string;
  title: string;
}

/** Normalised label → definition. Committed definitions sit on the prototype chain of each parse's own table. */
export type ReferenceTable = Record<string, LinkReference>;

/** A `[label]: url` definition; it produces no token, so its lines are tracked separately. */
export interface DefinitionSpan {
  startLine: number;
  endLine: number;
  /** Outside any container (a definition inside a quote or list ends with its container). */
  topLevel: boolean;
  /** Set only when this definition introduced the label (the first definition of a label wins). */
  label?: string;
}

export interface RenderEnv {
  references: ReferenceTable;
  /** True while the text may still grow: an open code block's partial last line is left unhighlighted. */
  streaming: boolean;
  definitions: DefinitionSpan[];
}

/** One top-level block: an opening token up to its matching close (or a lone fence / hr / code block token). */
export interface ParsedBlock {
  tokens: Token[];
  type: string;
  /** Line range [startLine, endLine) in the parsed text. */
  startLine: number;
  endLine: number;
}

/**
 * What a top-level block renders to. Code is kept as lines (highlighted, spans balanced per line) plus the partial
 * last line as plain text, so an open code block grows in the DOM instead of being rebuilt.
 */
export type BlockView =
  | { kind: 'html'; html: string }
  | { kind: 'code'; shell: string; lines: string[]; partial: string };

export interface ParsedText {
  blocks: ParsedBlock[];
  definitions: DefinitionSpan[];
  env: RenderEnv;
}

const HTTP_URL = /^https?:\/\//i;

export function isHttpUrl(url: string): boolean {
  return HTTP_URL.test(url);
}

/**
 * markdown-it configured for model output: no raw HTML, links only to http(s), images turned into links, fenced code
 * highlighted and wrapped with a toolbar, table alignment as classes (no inline styles, which a strict CSP blocks).
 */
export class MarkdownRenderer {
  readonly md: MarkdownIt;
  private readonly highlighter = new CodeHighlighter();

  constructor() {
    this.md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
    this.md.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
    trackDefinitions(this.md);
    this.md.core.ruler.push('gateway_links', restrictLinks);
    this.installRenderRules();
  }

  parse(text: string, committedReferences: ReferenceTable, streaming: boolean): ParsedText {
    const env: RenderEnv = { references: Object.create(committedReferences) as ReferenceTable, streaming, definitions: [] };
    const tokens = this.md.parse(text, env);
    return { blocks: splitTopLevelBlocks(tokens), definitions: env.definitions, env };
  }

  /** A top-level code block becomes a code view (so streaming can grow it line by line); anything else HTML. */
  renderBlock(block: ParsedBlock, env: RenderEnv): BlockView {
    const token = block.tokens[0];
    if (block.type === 'fence' || block.type === 'code_block') {
      const lang = block.type === 'fence' ? this.languageOf(token) : '';
      return { kind: 'code', shell: renderCodeShell(lang, ''), ...this.codeLines(token.content, lang, env.streaming) };
    }
    return { kind: 'html', html: this.md.renderer.render(block.tokens, this.md.options, env) };
  }

  /** The whole document in one go, as a non-streaming renderer would (renderMarkdown() and the bench baseline). */
  renderDocument(text: string): string {
    const env: RenderEnv = { references: Object.create(null) as ReferenceTable, streaming: false, definitions: [] };
    return this.md.render(text, env);
  }

  /**
   * While streaming, an open block's last line may be partial: it stays plain text (highlighting it would flicker as
   * it grows) and only complete lines are highlighted.
   */
  private codeLines(content: string, lang: string, streaming: boolean): { lines: string[]; partial: string } {
    if (!streaming) return { lines: this.highlighter.lines(content, lang), partial: '' };
    const lineEnd = content.lastIndexOf('\n') + 1;
    return { lines: this.highlighter.lines(content.slice(0, lineEnd), lang), partial: content.slice(lineEnd) };
  }

  private languageOf(token: Token): string {
    const info = token.info ? this.md.utils.unescapeAll(token.info).trim() : '';
    return info.split(/\s+/)[0] ?? '';
  }

  private installRenderRules(): void {
    const rules = this.md.renderer.rules;
    rules.fence = (tokens, idx, _options, env: RenderEnv) => {
      const lang = this.languageOf(tokens[idx]);
      const { lines, partial } = this.codeLines(tokens[idx].content, lang, env.streaming);
      return renderCodeShell(lang, lines.join('') + escapeHtml(partial));
    };
    rules.code_block = (tokens, idx) => renderCodeShell('', this.highlighter.lines(tokens[idx].content, '').join(''));
    rules.image = (tokens, idx, options, env, self) => {
      const token = tokens[idx];
      const src = token.attrGet('src') ?? '';
      const alt = self.renderInlineAsText(token.children ?? [], options, env);
      if (isHttpUrl(src) && !token.meta?.insideLink) {
        const title = token.attrGet('title');
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        return `<a class="md-image-link" data-href="${escapeHtml(src)}" ${LIVE_LINK_ATTRS}${titleAttr}>${escapeHtml(alt || src)}</a>`;
      }
      return `<span class="md-link-inert">${escapeHtml(alt)}</span>`;
    };
    const alignedCell: MarkdownIt.Renderer.RenderRule = (tokens, idx, options, _env, self) => {
      const token = tokens[idx];
      const style = token.attrGet('style');
      const align = style ? /text-align:(left|center|right)/.exec(style)?.[1] : undefined;
      if (!align) return self.renderToken(tokens, idx, options);
      return `<${token.tag} class="align-${align}">`;
    };
    rules.th_open = alignedCell;
    rules.td_open = alignedCell;
  }
}

/** A code block with its toolbar; `codeHtml` goes inside `<pre><code>` (empty for a code view's shell). */
export function renderCodeShell(lang: string, codeHtml: string): string {
  const langAttr = escapeHtml(lang);
  const langClass = /^[\w.+#-]+$/.test(lang) ? ` language-${lang}` : '';
  return (
    `<div class="code-block" data-lang="${langAttr}">` +
    `<div class="code-toolbar"><span class="code-lang">${langAttr}</span>` +
    codeButton('copy', 'Copy', 'copy') +
    codeButton('insert', 'Insert at Cursor', 'insert') +
    codeButton('new-file', 'Open in New File', 'new-file') +
    codeButton('apply', 'Apply (review the change first)', 'diff') +
    `</div><pre><code class="hljs${langClass}">${codeHtml}</code></pre></div>\n`
  );
}

function codeButton(action: string, label: string, icon: string): string {
  return `<button type="button" class="code-action" data-action="${action}" title="${label}" aria-label="${label}"><span class="codicon codicon-${icon}" aria-hidden="true"></span></button>`;
}

/**
 * Links keep their URL in `data-href`, never in `href`: the click handler opens it through the extension's check,
 * and VS Code's webview shell (which opens any clicked anchor that has an href) never sees a link to open. Without
 * an href an anchor is not focusable and not announced as a link, so it gets both back.
 */
const LIVE_LINK_ATTRS = 'tabindex="0" role="link"';

/** Links to anything but http(s) become inert spans; images inside links are flagged so they render as plain text. */
function restrictLinks(state: MarkdownIt.StateCore): void {
  for (const blockToken of state.tokens) {
    if (blockToken.type !== 'inline' || !blockToken.children) continue;
    let openLink: Token | undefined;
    for (const token of blockToken.children) {
      if (token.type === 'link_open') {
        openLink = token;
        const href = token.attrGet('href') ?? '';
        if (isHttpUrl(href)) {
          token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'href');
          token.attrSet('data-href', href);
          token.attrSet('tabindex', '0');
          token.attrSet('role', 'link');
        } else {
          token.tag = 'span';
          token.attrs = [['class', 'md-link-inert']];
          if (href) token.attrSet('title', href);
        }
      } else if (token.type === 'link_close') {
        if (openLink) token.tag = openLink.tag;
        openLink = undefined;
      } else if (token.type === 'image' && openLink) {
        token.meta = { ...(token.meta ?? {}), insideLink: true };
      }
    }
  }
}

/** Wraps markdown-it's reference rule to record where each top-level definition sits and which label it added. */
function trackDefinitions(md: MarkdownIt): void {
  const rules = (md.block.ruler as unknown as { __rules__: Array<{ name: string; fn: RuleBlock }> }).__rules__;
  const original = rules.find((rule) => rule.name === 'reference')?.fn;
  if (!original) throw new Error('markdown-it has no reference rule');
  md.block.ruler.at('reference', (state, startLine, endLine, silent) => {
    const env = state.env as Partial<RenderEnv>;
    const before = new Set(Object.keys(env.references ?? {}));
    if (!original(state, startLine, endLine, silent)) return false;
    if (!silent && env.definitions) {
      // Object.keys lists integer-like labels first, so look for the new key rather than taking the last one.
      const label = Object.keys(env.references ?? {}).find((key) => !before.has(key));
      env.definitions.push({ startLine, endLine: state.line, topLevel: state.level === 0, label });
    }
    return true;
  });
}

function splitTopLevelBlocks(tokens: Token[]): ParsedBlock[] {
  const blocks: ParsedBlock[] = [];
  let start = 0;
  while (start < tokens.length) {
    const first = tokens[start];
    let end = start;
    if (first.nesting === 1) {
      while (end < tokens.length && !(tokens[end].nesting === -1 && tokens[end].level === first.level)) end++;
    }
    const map = first.map ?? [0, 0];
    blocks.push({ tokens: tokens.slice(start, end + 1), type: first.type, startLine: map[0], endLine: map[1] });
    start = end + 1;
  }
  return blocks;
}
