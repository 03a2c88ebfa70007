// What a stream's text becomes, without a DOM: which blocks are final, their views, the open tail's views. The same
// code runs on the page (StreamingMarkdown without a worker, and whenever it must finish synchronously) and in the
// markdown worker (markdownWorker.ts), which sends what it finds to the page.
import { lineStarts, stableLineCount } from './commitPlanner';
import { MarkdownRenderer, type BlockView, type LinkReference, type ParsedBlock, type ParsedText, type ReferenceTable } from './markdownRenderer';
import { withoutDanglingSurrogate } from './textNormalizer';

/** A block found final, as the page needs it. */
export interface Commit {
  view: BlockView;
  /** Its source lines. */
  source: string;
  /** Normalised inline text, kept only when the block has a `]` and so might use a link definition seen later. */
  referenceKey?: string;
}

/** What the planner tells whoever shows its blocks. */
export interface PlanSink {
  commit(commit: Commit): void;
  /** Kept block `index` renders differently now that a link definition it mentions is final. */
  recommit(index: number, html: string): void;
  /** The queued blocks are all committed: `consumed` characters leave the tail, and these definitions became final. */
  batchEnd(consumed: number, definitions: Array<[string, LinkReference]>): void;
}

/** Blocks found final but not yet committed (a large backlog is committed over several frames). */
interface CommitQueue {
  parsed: ParsedText;
  region: string;
  starts: number[];
  stableLines: number;
  next: number;
  /** Number of kept blocks when the queue was made: those are the ones a new link definition may change. */
  committedBefore: number;
}

interface Kept {
  source: string;
  referenceKey?: string;
  /** The html view it shows (undefined for a code view): a re-render for a new definition compares against it. */
  html?: string;
}

/** Complete lines parsed at once when looking for final blocks: a burst of text is taken in slices. */
const MAX_REGION_LENGTH = 4096;

export class StreamPlanner {
  /** Normalised text not yet committed; always starts at a line start. */
  private tail = '';
  /** Length of `tail`'s complete lines when final blocks were last looked for. */
  private checkedCompleteLength = 0;
  private queue: CommitQueue | undefined;
  private readonly committedReferences: ReferenceTable = Object.create(null) as ReferenceTable;
  private readonly kept: Kept[] = [];
  /** The tail text the last tailViews() showed; undefined once a commit has changed the tail. */
  private renderedTailText: string | undefined;

  constructor(
    private readonly renderer: MarkdownRenderer,
    private readonly sink: PlanSink,
    private readonly maxRegionLength = MAX_REGION_LENGTH,
  ) {}

  push(text: string): void {
    this.tail += text;
  }

  get queued(): boolean {
    return this.queue !== undefined;
  }

  /** Final blocks may be waiting: queued, or complete lines not looked at yet. */
  get behind(): boolean {
    return this.queue !== undefined || this.tail.lastIndexOf('\n') + 1 > this.checkedCompleteLength;
  }

  /**
   * Looks for final blocks, but only when a new line has been completed; queues them. A burst is looked at in slices
   * (a prefix of complete lines has the same final blocks as the whole); all of it when the slice has none.
   */
  findStableBlocks(): boolean {
    const allComplete = this.tail.lastIndexOf('\n') + 1;
    if (allComplete <= this.checkedCompleteLength) return false;
    const slice = completeLinesWithin(this.tail, this.maxRegionLength);
    const lengths = slice > this.checkedCompleteLength && slice < allComplete ? [slice, allComplete] : [allComplete];
    for (const length of lengths) {
      this.checkedCompleteLength = length;
      const region = this.tail.slice(0, length);
      const parsed = this.renderer.parse(region, this.committedReferences, false);
      const starts = lineStarts(region);
      const stableLines = stableLineCount(parsed, region, starts);
      if (stableLines > 0) {
        this.queue = { parsed, region, starts, stableLines, next: 0, committedBefore: this.kept.length };
        return true;
      }
    }
    return false;
  }

  /** Queues all of the remaining text as final: the text is complete, so nothing can extend its last block. */
  queueTheRest(): void {
    const parsed = this.renderer.parse(this.tail, this.committedReferences, false);
    const starts = lineStarts(this.tail);
    this.queue = { parsed, region: this.tail, starts, stableLines: starts.length - 1, next: 0, committedBefore: this.kept.length };
  }

  /**
   * Commits queued blocks until `now()` passes the deadline (`atLeastOne`: even past it, so that every frame makes
   * progress), then takes the queue's text off the tail. False when nothing was queued.
   */
  drainQueue(deadline: number, atLeastOne: boolean, now: () => number): boolean {
    const queue = this.queue;
    if (!queue) return false;
    const { parsed, region, starts, stableLines } = queue;
    let committed = false;
    while (queue.next < parsed.blocks.length && parsed.blocks[queue.next].endLine <= stableLines) {
      if ((committed || !atLeastOne) && now() > deadline) return committed;
      const block = parsed.blocks[queue.next++];
      const view = this.renderer.renderBlock(block, parsed.env);
      const commit: Commit = { view, source: region.slice(starts[block.startLine], starts[block.endLine]), referenceKey: referenceKeyOf(block) };
      this.adopt(commit);
      this.sink.commit(commit);
      committed = true;
    }
    this.queue = undefined;
    const definitions = this.commitDefinitions(parsed, stableLines, queue.committedBefore);
    const consumed = starts[stableLines];
    this.endBatch(consumed, definitions);
    this.sink.batchEnd(consumed, definitions);
    return true;
  }

  /** Records a block committed elsewhere (by the worker this planner mirrors), as drainQueue records its own. */
  adopt(commit: Commit): void {
    this.kept.push({ source: commit.source, referenceKey: commit.referenceKey, html: commit.view.kind === 'html' ? commit.view.html : undefined });
  }

  /** Records a re-render decided elsewhere. */
  adoptRecommit(index: number, html: string): void {
    this.kept[index].html = html;
  }

  /** Takes a committed batch's text off the tail and records its definitions (also for one committed elsewhere). */
  endBatch(consumed: number, definitions: Array<[string, LinkReference]>): void {
    for (const [label, reference] of definitions) this.committedReferences[label] ??= reference;
    this.tail = this.tail.slice(consumed);
    this.checkedCompleteLength = Math.max(0, this.checkedCompleteLength - consumed);
    this.renderedTailText = undefined;
  }

  /** The open tail's views, or undefined when the tail shows this text already. */
  tailViews(): BlockView[] | undefined {
    const text = withoutDanglingSurrogate(this.tail);
    if (text === this.renderedTailText) return undefined;
    this.renderedTailText = text;
    const parsed = this.renderer.parse(text, this.committedReferences, true);
    return parsed.blocks.map((block) => this.renderer.renderBlock(block, parsed.env));
  }

  /** Forgets which tail text is shown (the page's tail was rebuilt elsewhere). */
  forgetTail(): void {
    this.renderedTailText = undefined;
  }

  /** Records the definitions of the committed lines; kept blocks from before `firstNew` that may use them re-render. */
  private commitDefinitions(parsed: ParsedText, stableLines: number, firstNew: number): Array<[string, LinkReference]> {
    const found: Array<[string, LinkReference]> = [];
    for (const definition of parsed.definitions) {
      const label = definition.label;
      if (label === undefined || definition.startLine >= stableLines || label in this.committedReferences) continue;
      if (found.some(([seen]) => seen === label)) continue;
      found.push([label, parsed.env.references[label]]);
    }
    if (found.length === 0) return found;
    // The references a re-render sees include the new ones.
    for (const [label, reference] of found) this.committedReferences[label] = reference;
    for (let i = 0; i < firstNew; i++) {
      const block = this.kept[i];
      const key = block.referenceKey;
      if (key === undefined || !found.some(([label]) => key.includes(label))) continue;
      const reparsed = this.renderer.parse(block.source, this.committedReferences, false);
      const html = reparsed.blocks.map((b) => this.renderer.renderBlock(b, reparsed.env)).map(viewHtml).join('');
      if (html === block.html) continue;
      block.html = html;
      this.sink.recommit(i, html);
    }
    return found;
  }
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
