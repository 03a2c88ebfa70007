import type { BlockView, ParsedBlock } from './markdownRenderer';

/**
 * The views of the open tail's blocks, by their source text: a block that later text left unchanged is not rendered
 * again at the next update, nor when it is committed (markdown-it's render and highlighting run once per block text).
 *
 * Only views that depend on nothing but the block's text are kept: complete lines (an open code block's partial last
 * line renders differently once the text is complete) and no `]` (a link reference resolves against definitions
 * anywhere in the text). Only the last update's blocks are kept, so the cache never outgrows the tail.
 */
export class BlockViews {
  private previous = new Map<string, BlockView>();
  private current = new Map<string, BlockView>();

  /** The view of the tail's `block`, whose text is `source`: the last update's when it was there. */
  view(block: ParsedBlock, source: string, render: () => BlockView): BlockView {
    if (!isContextFree(block, source)) return render();
    const view = this.previous.get(source) ?? this.current.get(source) ?? render();
    this.current.set(source, view);
    return view;
  }

  /** The view of a block being committed: the tail's when it showed the same text (then forgotten: it is final). */
  take(source: string, render: () => BlockView): BlockView {
    const view = this.current.get(source);
    if (view === undefined) return render();
    this.current.delete(source);
    return view;
  }

  /** An update of the tail begins: views not asked for since the previous one are dropped. */
  nextUpdate(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

function isContextFree(block: ParsedBlock, source: string): boolean {
  if (!source.endsWith('\n')) return false;
  for (const token of block.tokens) if (token.type === 'inline' && token.content.includes(']')) return false;
  return true;
}
