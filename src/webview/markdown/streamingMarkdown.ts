import { BlockDom } from './blockDom';
import { BlockRuns } from './blockRuns';
import { lineStarts, stableLineCount } from './commitPlanner';
import { animationFrameScheduler, type FrameScheduler } from './frameScheduler';
import { MarkdownRenderer, type BlockView, type ParsedBlock, type ParsedText, type ReferenceTable } from './markdownRenderer';
import type { CodeAction, StreamingMarkdownOptions } from './streamingOptions';
import { builderFor, type FragmentBuilder } from './nodeBuilder';
import { LineEndingNormalizer, withoutDanglingSurrogate } from './textNormalizer';

export type { CodeAction, StreamingMarkdownOptions } from './streamingOptions';

interface CommittedBlock {
  dom: BlockDom;
  source: string;
  /** Normalised inline text, kept only when the block has a `]` and so might use a link definition seen later. */
  referenceKey?: string;
}

/** Blocks found final but not yet rendered (a large backlog is rendered over several frames). */
interface CommitQueue {
  parsed: ParsedText;
  region: string;
  starts: number[];
  stableLines: number;
  next: number;
  /** Number of kept blocks when the queue was made: those are the ones a new link definition may change. */
  committedBefore: number;
}

let sharedRenderer: MarkdownRenderer | undefined;

const FRAME_MS = 1000 / 60;

/** Complete lines parsed at once when looking for final blocks: a burst of text is taken in slices. */
const MAX_REGION_LENGTH = 4096;

/**
 * Renders markdown that arrives in pieces. Blocks that later text can no longer change are rendered once and kept;
 * only the open tail is re-rendered, in animation frames (an open code block grows line by line).
 *
 * Link definitions (`[label]: url`) apply to the whole document, also to blocks above them: when a definition becomes
 * final, the kept blocks whose text mentions its label are rendered again (once per new label).
 */
export class StreamingMarkdown {
  private readonly renderer: MarkdownRenderer;
  private readonly build: FragmentBuilder;
  private readonly scheduler: FrameScheduler;
  private readonly frameBudgetMs: number;
  private readonly minUpdateIntervalMs: number;
  private readonly maxUpdateIntervalMs: number;
  private readonly maxUpdateShare: number;
  private lastUpdateAt = -Infinity;
  /** What an update has recently cost, smoothed (milliseconds). */
  private updateCostMs = 0;
  private readonly normalizer = new LineEndingNormalizer();
  private readonly rawParts: string[] = [];
  private pendingParts: string[] = [];
  /** Normalised text not yet committed; always starts at a line start. */
  private tail = '';
  /** Length of `tail`'s complete lines when final blocks were last looked for. */
  private checkedCompleteLength = 0;
  private queue: CommitQueue | undefined;
  private readonly committedReferences: ReferenceTable = Object.create(null) as ReferenceTable;
  private readonly committed: CommittedBlock[] = [];
  private readonly runs: BlockRuns;
  private tailBlocks: BlockDom[] = [];
  /** The tail text the tail blocks show; undefined once a commit has taken blocks from them. */
  private renderedTailText: string | undefined;
  private cancelFrame: (() => void) | undefined;
  private domChanged = false;
  /** No more text will come (end() or finish() was called). */
  private ended = false;
  /** The DOM is final. */
  private complete = false;
  private readonly whenComplete: Array<() => void> = [];
  private disposed = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly options: StreamingMarkdownOptions = {},
  ) {
    this.renderer = options.renderer ?? (sharedRenderer ??= new MarkdownRenderer());
    this.build = builderFor(container.ownerDocument);
    this.scheduler = options.scheduler ?? animationFrameScheduler;
    this.frameBudgetMs = options.frameBudgetMs ?? 8;
    this.minUpdateIntervalMs = options.minUpdateIntervalMs ?? 50;
    this.maxUpdateIntervalMs = Math.max(this.minUpdateIntervalMs, options.maxUpdateIntervalMs ?? 250);
    this.maxUpdateShare = options.maxUpdateShare ?? 0.025;
    this.runs = new BlockRuns(container, options.runSize);
    container.addEventListener('click', this.onClick);
    container.addEventListener('auxclick', this.onClick);
    container.addEventListener('keydown', this.onKeyDown);
  }

  /** The full source appended so far. */
  get text(): string {
    if (this.rawParts.length > 1) this.rawParts.splice(0, this.rawParts.length, this.rawParts.join(''));
    return this.rawParts[0] ?? '';
  }

  append(delta: string): void {
    if (this.ended || this.disposed) throw new Error('StreamingMarkdown: append() after end(), finish() or dispose()');
    if (delta === '') return;
    this.rawParts.push(delta);
    const normalized = this.normalizer.push(delta);
    if (normalized !== '') this.pendingParts.push(normalized);
    this.requestFrame();
  }

  /** Applies all pending DOM work now (no frame budget) instead of in the next animation frames. */
  flush(): void {
    if (this.disposed || this.complete) return;
    if (this.ended) return this.end();
    this.cancelPendingFrame();
    this.update(Infinity);
  }

  /** The text is complete: renders everything that is left, synchronously. */
  end(): void {
    if (this.disposed || this.complete) return;
    this.markTextComplete();
    this.cancelPendingFrame();
    this.takePending();
    this.drainQueue(Infinity, true);
    this.queueTheRest();
    this.drainQueue(Infinity, true);
    this.completeRender();
  }

  /**
   * The text is complete: renders what is left in the next frames, within the frame budget like any backlog (end()
   * renders it at once, however much it is). Resolves once the DOM is final: the same DOM as end() gives.
   */
  finish(): Promise<void> {
    if (this.disposed || this.complete) return Promise.resolve();
    this.markTextComplete();
    this.cancelPendingFrame(); // an update due later: the next frame starts on the rest instead
    this.requestFrame(true);
    return new Promise((resolve) => this.whenComplete.push(resolve));
  }

  private markTextComplete(): void {
    if (this.ended) return;
    this.ended = true;
    this.pendingParts.push(this.normalizer.finish());
  }

  /** Queues all of the remaining text as final: the text is complete, so nothing can extend its last block. */
  private queueTheRest(): void {
    const parsed = this.renderer.parse(this.tail, this.committedReferences, false);
    const starts = lineStarts(this.tail);
    this.queue = { parsed, region: this.tail, starts, stableLines: starts.length - 1, next: 0, committedBefore: this.committed.length };
  }

  private completeRender(): void {
    for (const block of this.tailBlocks.splice(0)) block.remove();
    this.runs.dropEmptyLast();
    this.complete = true;
    this.reportRendered();
    this.settleWaiters();
  }

  private settleWaiters(): void {
    for (const resolve of this.whenComplete.splice(0)) resolve();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelPendingFrame();
    this.settleWaiters();
    this.container.removeEventListener('click', this.onClick);
    this.container.removeEventListener('auxclick', this.onClick);
    this.container.removeEventListener('keydown', this.onKeyDown);
  }

  /**
   * `catchUp`: finished blocks are waiting (a burst of text), so the very next frame is used, not the one at the end
   * of the update interval; the interval spaces out re-renders of the open tail, which waits until the burst is in.
   */
  private requestFrame(catchUp = false): void {
    if (this.cancelFrame) return;
    // Frames come every FRAME_MS, give or take: the frame nearest to the end of the interval is the one used, so
    // that an interval of 50 ms means every third frame rather than every third or fourth, depending on jitter.
    const earliest = catchUp ? 0 : this.updateIntervalMs() - FRAME_MS / 2;
    const onFrame = () => {
      this.cancelFrame = undefined;
      if (this.scheduler.now() - this.lastUpdateAt < earliest) this.requestFrame();
      else this.update();
    };
    // Wake up a little before the interval ends, so that the frame after it is the one used.
    const wait = earliest - (this.scheduler.now() - this.lastUpdateAt);
    this.cancelFrame =
      wait > 0 && this.scheduler.requestFrameAfter
        ? this.scheduler.requestFrameAfter(wait, onFrame)
        : this.scheduler.requestFrame(onFrame);
  }

  private updateIntervalMs(): number {
    const sharePaced = this.updateCostMs / this.maxUpdateShare;
    return Math.min(this.maxUpdateIntervalMs, Math.max(this.minUpdateIntervalMs, sharePaced));
  }

  private cancelPendingFrame(): void {
    this.cancelFrame?.();
    this.cancelFrame = undefined;
  }

  private update(budgetMs = this.frameBudgetMs): void {
    const startedAt = (this.lastUpdateAt = this.scheduler.now());
    const deadline = startedAt + budgetMs;
    this.takePending();
    // Every update makes progress: it renders at least one queued block, or looks for final blocks at least once.
    let mustProgress = !this.drainQueue(deadline, true);
    while (!this.queue && (mustProgress || this.scheduler.now() < deadline) && this.findStableBlocks()) {
      this.drainQueue(deadline, mustProgress);
      mustProgress = false;
    }
    if (this.queue || this.tail.lastIndexOf('\n') + 1 > this.checkedCompleteLength) {
      // Behind (e.g. a burst of text): keep the frame short and carry on next frame; the tail waits until caught up.
      this.requestFrame(true);
    } else if (this.ended) {
      // finish(): the complete lines are in; what is left is the last block or two, final now.
      this.queueTheRest();
      this.drainQueue(deadline, true);
      if (this.queue) this.requestFrame(true);
      else this.completeRender();
    } else {
      this.renderTail();
    }
    this.reportRendered();
    if (budgetMs !== Infinity) this.measureCost(startedAt);
  }

  /** What this update cost, the browser's rendering of it included when the scheduler can tell. */
  private measureCost(startedAt: number): void {
    const record = () => (this.updateCostMs = 0.7 * this.updateCostMs + 0.3 * (this.scheduler.now() - startedAt));
    if (this.scheduler.afterRendering) this.scheduler.afterRendering(record);
    else record();
  }

  private reportRendered(): void {
    if (!this.domChanged) return;
    this.domChanged = false;
    this.options.onRendered?.();
  }

  private takePending(): void {
    if (this.pendingParts.length === 0) return;
    this.tail += this.pendingParts.join('');
    this.pendingParts = [];
  }

  /**
   * Looks for final blocks, but only when a new line has been completed; queues them. A burst is looked at in slices
   * (a prefix of complete lines has the same final blocks as the whole); all of it when the slice has none.
   */
  private findStableBlocks(): boolean {
    const allComplete = this.tail.lastIndexOf('\n') + 1;
    if (allComplete <= this.checkedCompleteLength) return false;
    const slice = completeLinesWithin(this.tail, this.options.maxRegionLength ?? MAX_REGION_LENGTH);
    const lengths = slice > this.checkedCompleteLength && slice < allComplete ? [slice, allComplete] : [allComplete];
    for (const length of lengths) {
      this.checkedCompleteLength = length;
      const region = this.tail.slice(0, length);
      const parsed = this.renderer.parse(region, this.committedReferences, false);
      const starts = lineStarts(region);
      const stableLines = stableLineCount(parsed, region, starts);
      if (stableLines > 0) {
        this.queue = { parsed, region, starts, stableLines, next: 0, committedBefore: this.committed.length };
        return true;
      }
    }
    return false;
  }

  /**
   * Renders queued final blocks until the deadline (`atLeastOne`: even past it, so that every frame makes progress),
   * then takes the queue's text off the tail.
   */
  private drainQueue(deadline: number, atLeastOne: boolean): boolean {
    const queue = this.queue;
    if (!queue) return false;
    const { parsed, region, starts, stableLines } = queue;
    let rendered = false;
    while (queue.next < parsed.blocks.length && parsed.blocks[queue.next].endLine <= stableLines) {
      if ((rendered || !atLeastOne) && this.scheduler.now() > deadline) return rendered;
      const block = parsed.blocks[queue.next++];
      this.commitBlock(block, this.renderer.renderBlock(block, parsed.env), region.slice(starts[block.startLine], starts[block.endLine]));
      rendered = true;
    }
    this.queue = undefined;
    this.commitDefinitions(parsed, stableLines, queue.committedBefore);
    const consumed = starts[stableLines];
    this.tail = this.tail.slice(consumed);
    this.checkedCompleteLength = Math.max(0, this.checkedCompleteLength - consumed);
    this.renderedTailText = undefined;
    return true;
  }

  private commitBlock(block: ParsedBlock, view: BlockView, source: string): void {
    this.domChanged = true;
    let dom: BlockDom;
    if (this.tailBlocks[0]?.update(view)) {
      dom = this.tailBlocks.shift()!;
    } else {
      // The tail on screen is out of date from here on; it is rebuilt once the backlog is rendered.
      for (const stale of this.tailBlocks.splice(0)) stale.remove();
      dom = BlockDom.insert(view, this.build, this.runs.open, null, false);
    }
    if (this.runs.finished() && this.tailBlocks.length > 0) {
      const next = this.runs.open;
      for (const rest of this.tailBlocks) rest.appendTo(next);
    }
    this.committed.push({ dom, source, referenceKey: referenceKeyOf(block) });
    this.announce(dom.nodes);
  }

  /** Records the definitions of the committed lines; kept blocks from before `firstNew` that may use them re-render. */
  private commitDefinitions(parsed: ParsedText, stableLines: number, firstNew: number): void {
    const newLabels: string[] = [];
    for (const definition of parsed.definitions) {
      const label = definition.label;
      if (label === undefined || definition.startLine >= stableLines || label in this.committedReferences) continue;
      this.committedReferences[label] = parsed.env.references[label];
      newLabels.push(label);
    }
    if (newLabels.length === 0) return;
    for (let i = 0; i < firstNew; i++) {
      const block = this.committed[i];
      const key = block.referenceKey;
      if (key === undefined || !newLabels.some((label) => key.includes(label))) continue;
      const reparsed = this.renderer.parse(block.source, this.committedReferences, false);
      const html = reparsed.blocks.map((b) => this.renderer.renderBlock(b, reparsed.env)).map(viewHtml).join('');
      if (html === block.dom.html) continue;
      this.domChanged = true;
      const first = block.dom.nodes[0];
      const dom = BlockDom.insert({ kind: 'html', html }, this.build, first?.parentNode ?? this.runs.open, first ?? null, false);
      block.dom.remove();
      block.dom = dom;
    }
  }

  private renderTail(): void {
    const text = withoutDanglingSurrogate(this.tail);
    if (text === this.renderedTailText) return;
    this.renderedTailText = text;
    this.domChanged = true;
    const parsed = this.renderer.parse(text, this.committedReferences, true);
    const views = parsed.blocks.map((block) => this.renderer.renderBlock(block, parsed.env));
    let kept = 0;
    while (kept < views.length && kept < this.tailBlocks.length && this.tailBlocks[kept].update(views[kept])) kept++;
    for (const stale of this.tailBlocks.splice(kept)) stale.remove();
    if (this.tailBlocks.length === 0) this.runs.dropEmptyLast();
    if (views.length > kept) {
      const run = this.runs.open;
      for (const view of views.slice(kept)) this.tailBlocks.push(BlockDom.insert(view, this.build, run, null, true));
    }
  }

  private announce(nodes: readonly ChildNode[]): void {
    if (!this.options.onBlockCompleted) return;
    const text = nodes.map(readableText).join('').trim();
    if (text !== '') this.options.onBlockCompleted(text);
  }

  /** Enter on a focused link opens it, as it would on an anchor with an href. */
  private readonly onKeyDown = (event: KeyboardEvent): void => {
    const target = event.target;
    if (event.key !== 'Enter' || !(target instanceof HTMLAnchorElement) || !this.container.contains(target)) return;
    event.preventDefault();
    event.stopPropagation();
    const href = target.getAttribute('data-href');
    if (href) this.options.onLinkActivated?.(href);
  };

  private readonly onClick = (event: MouseEvent): void => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const anchor = target.closest('a');
    if (anchor && this.container.contains(anchor)) {
      // Handled here, once: nothing above (VS Code's webview shell listens on the window) may open it again.
      event.preventDefault();
      event.stopPropagation();
      const href = anchor.getAttribute('data-href');
      if (href && event.type === 'click') this.options.onLinkActivated?.(href);
      return;
    }
    const button = target.closest('button[data-action]');
    if (!button || !this.container.contains(button) || event.type !== 'click') return;
    const codeBlock = button.closest('.code-block');
    const code = codeBlock?.querySelector('pre code')?.textContent ?? '';
    this.options.onCodeAction?.(button.getAttribute('data-action') as CodeAction, code, codeBlock?.getAttribute('data-lang') ?? '');
  };
}

/** A kept block re-rendered for a new link definition has no code view at top level (code has no links). */
function viewHtml(view: BlockView): string {
  return view.kind === 'html' ? view.html : view.shell;
}

/** Length of the complete lines within the first `limit` characters (or of the first line, when longer). */
function completeLinesWithin(text: string, limit: number): number {
  if (text.length <= limit) return text.lastIndexOf('\n') + 1;
  const within = text.lastIndexOf('\n', limit - 1) + 1;
  return within > 0 ? within : text.indexOf('\n') + 1;
}

function referenceKeyOf(block: ParsedBlock): string | undefined {
  const inline = block.tokens.filter((token) => token.type === 'inline').map((token) => token.content).join('\n');
  if (!inline.includes(']')) return undefined;
  return inline.replace(/\s+/g, ' ').toLowerCase().toUpperCase();
}

function readableText(node: Node): string {
  if (node instanceof Element && node.classList.contains('code-toolbar')) return '';
  if (!node.hasChildNodes()) return node.textContent ?? '';
  return Array.from(node.childNodes, readableText).join('');
}
