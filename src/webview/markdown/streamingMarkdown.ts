import { BlockDom } from './blockDom';
import { BlockRuns } from './blockRuns';
import { animationFrameScheduler, type FrameScheduler } from './frameScheduler';
import { MarkdownRenderer, type BlockView } from './markdownRenderer';
import type { CodeAction, StreamingMarkdownOptions } from './streamingOptions';
import { builderFor, type FragmentBuilder } from './nodeBuilder';
import { StreamPlanner, type Commit, type PlanSink } from './streamPlanner';
import { LineEndingNormalizer } from './textNormalizer';
import type { WorkerChannel } from './markdownWorker';
import type { WorkerOp } from './workerProtocol';

export type { CodeAction, StreamingMarkdownOptions } from './streamingOptions';

let sharedRenderer: MarkdownRenderer | undefined;

const FRAME_MS = 1000 / 60;

/**
 * Renders markdown that arrives in pieces. Blocks that later text can no longer change are rendered once and kept;
 * only the open tail is re-rendered, in animation frames (an open code block grows line by line).
 *
 * Link definitions (`[label]: url`) apply to the whole document, also to blocks above them: when a definition becomes
 * final, the kept blocks whose text mentions its label are rendered again (once per new label).
 *
 * With a worker (`options.worker`), the parsing, rendering and highlighting happen there (StreamPlanner in the worker)
 * and the page only builds and inserts what it sends; the page's own planner mirrors what was applied, so end() (and a
 * worker that fails) carries on from there synchronously, with the same final DOM.
 */
export class StreamingMarkdown implements PlanSink {
  private readonly planner: StreamPlanner;
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
  private readonly committed: BlockDom[] = [];
  private readonly runs: BlockRuns;
  private tailBlocks: BlockDom[] = [];
  /** The worker's channel while it plans this stream; the ops it sent, not yet applied; whether it said `done`. */
  private channel: WorkerChannel | undefined;
  private readonly incoming: WorkerOp[] = [];
  private unsent = '';
  private sendTimer: ReturnType<typeof setTimeout> | undefined;
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
    this.planner = new StreamPlanner(options.renderer ?? (sharedRenderer ??= new MarkdownRenderer()), this, options.maxRegionLength);
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
    this.channel = options.worker?.open(
      (ops) => this.receive(ops),
      () => this.leaveWorker(),
    );
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
    if (this.channel && this.sendTimer === undefined) {
      // The worker gets the text a frame after it comes, so that it is ahead when the page updates (every 50 ms at
      // most): one message a frame, not one per delta, and one timer a frame, not one per burst of deltas.
      this.sendTimer = setTimeout(() => {
        this.sendTimer = undefined;
        this.takePending();
        this.sendNow(false);
      }, FRAME_MS);
    }
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
    // What the worker sent is applied; what it has not sent yet is planned here, from where that left off.
    this.applyIncoming(Infinity);
    if (this.complete) return;
    this.closeChannel();
    this.takePending();
    const now = this.now;
    this.planner.drainQueue(Infinity, true, now);
    this.planner.queueTheRest();
    this.planner.drainQueue(Infinity, true, now);
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
    if (this.channel) {
      // The worker commits the rest and says `done`; its ops are applied in frames as they come.
      this.takePending();
      this.sendNow(true);
    } else {
      this.requestFrame(true);
    }
    return new Promise((resolve) => this.whenComplete.push(resolve));
  }

  private markTextComplete(): void {
    if (this.ended) return;
    this.ended = true;
    this.pendingParts.push(this.normalizer.finish());
  }

  private completeRender(): void {
    this.closeChannel();
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
    this.closeChannel();
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

  private readonly now = () => this.scheduler.now();

  private update(budgetMs = this.frameBudgetMs): void {
    const startedAt = (this.lastUpdateAt = this.scheduler.now());
    const deadline = startedAt + budgetMs;
    if (this.channel) this.updateFromWorker(deadline);
    else this.updateHere(deadline);
    this.reportRendered();
    if (budgetMs !== Infinity) this.measureCost(startedAt);
  }

  /** Plans on the page: final blocks first (within the budget), then the open tail. */
  private updateHere(deadline: number): void {
    const { planner, now } = this;
    this.takePending();
    // Every update makes progress: it renders at least one queued block, or looks for final blocks at least once.
    let mustProgress = !planner.drainQueue(deadline, true, now);
    while (!planner.queued && (mustProgress || now() < deadline) && planner.findStableBlocks()) {
      planner.drainQueue(deadline, mustProgress, now);
      mustProgress = false;
    }
    if (planner.behind) {
      // Behind (e.g. a burst of text): keep the frame short and carry on next frame; the tail waits until caught up.
      this.requestFrame(true);
    } else if (this.ended) {
      // finish(): the complete lines are in; what is left is the last block or two, final now.
      planner.queueTheRest();
      planner.drainQueue(deadline, true, now);
      if (planner.queued) this.requestFrame(true);
      else this.completeRender();
    } else {
      const tail = planner.tailViews();
      if (tail) this.showTail(tail);
    }
  }

  /** The worker plans: its ops are applied in order, final blocks within the budget. */
  private updateFromWorker(deadline: number): void {
    this.takePending();
    this.sendNow(false);
    if (this.applyIncoming(deadline)) this.requestFrame(true);
  }

  /**
   * Applies the worker's ops in order until the deadline (at least one block); a tail is shown only when no later one
   * is waiting. True when ops are left for the next frame.
   */
  private applyIncoming(deadline: number): boolean {
    const ops = this.incoming;
    let applied = 0;
    let committed = false;
    for (; applied < ops.length; applied++) {
      const op = ops[applied];
      if (op.kind === 'commit') {
        if (committed && this.now() > deadline) break;
        this.planner.adopt(op.commit);
        this.commit(op.commit);
        committed = true;
      } else if (op.kind === 'recommit') {
        this.planner.adoptRecommit(op.index, op.html);
        this.recommit(op.index, op.html);
      } else if (op.kind === 'batchEnd') {
        this.planner.endBatch(op.consumed, op.definitions);
      } else if (op.kind === 'tail') {
        if (!ops.slice(applied + 1).some((later) => later.kind === 'tail')) this.showTail(op.views);
      } else {
        ops.length = 0;
        this.completeRender();
        return false;
      }
    }
    ops.splice(0, applied);
    return ops.length > 0;
  }

  private receive(ops: WorkerOp[]): void {
    if (this.disposed || this.complete) return;
    this.incoming.push(...ops);
    // Applied at the update interval, as the page's own planner finds blocks: each update costs the browser a layout
    // and paint, so a frame per message of the worker (one a frame while text flows) would cost more than it saves.
    // A backlog left over by the frame budget, and the end of the text, are taken in the very next frames.
    this.requestFrame(this.ended);
  }

  /** The worker failed: what it sent is applied, and the page plans the rest itself from there. */
  private leaveWorker(): void {
    this.channel = undefined;
    if (this.disposed || this.complete) return;
    this.applyIncoming(Infinity);
    if (this.complete) return;
    this.unsent = '';
    this.planner.forgetTail();
    this.requestFrame(true);
  }

  private closeChannel(): void {
    if (this.sendTimer !== undefined) clearTimeout(this.sendTimer);
    this.sendTimer = undefined;
    this.channel?.close();
    this.channel = undefined;
    this.incoming.length = 0;
  }

  /** Sends the text taken so far to the worker (`end`: and that no more will come). */
  private sendNow(end: boolean): void {
    if (this.sendTimer !== undefined) clearTimeout(this.sendTimer);
    this.sendTimer = undefined;
    if (!this.channel || (this.unsent === '' && !end)) return;
    this.channel.send(this.unsent, end);
    this.unsent = '';
  }

  /** What an update cost, the browser's rendering of it included when the scheduler can tell. */
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
    const text = this.pendingParts.join('');
    this.pendingParts = [];
    this.planner.push(text);
    if (this.channel) this.unsent += text;
  }

  /** PlanSink: a final block, shown by the first tail block when that can become it, else built after the others. */
  commit(commit: Commit): void {
    this.domChanged = true;
    let dom: BlockDom;
    if (this.tailBlocks[0]?.update(commit.view)) {
      dom = this.tailBlocks.shift()!;
    } else {
      // The tail on screen is out of date from here on; it is rebuilt once the backlog is rendered.
      for (const stale of this.tailBlocks.splice(0)) stale.remove();
      dom = BlockDom.insert(commit.view, this.build, this.runs.open, null, false);
    }
    if (this.runs.finished() && this.tailBlocks.length > 0) {
      const next = this.runs.open;
      for (const rest of this.tailBlocks) rest.appendTo(next);
    }
    this.committed.push(dom);
    this.announce(dom.nodes);
  }

  /** PlanSink: kept block `index` re-rendered for a new link definition. */
  recommit(index: number, html: string): void {
    this.domChanged = true;
    const old = this.committed[index];
    const first = old.nodes[0];
    this.committed[index] = BlockDom.insert({ kind: 'html', html }, this.build, first?.parentNode ?? this.runs.open, first ?? null, false);
    old.remove();
  }

  /** PlanSink: the planner keeps the text; nothing to show. */
  batchEnd(): void {}

  private showTail(views: BlockView[]): void {
    this.domChanged = true;
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

function readableText(node: Node): string {
  if (node instanceof Element && node.classList.contains('code-toolbar')) return '';
  if (!node.hasChildNodes()) return node.textContent ?? '';
  return Array.from(node.childNodes, readableText).join('');
}
