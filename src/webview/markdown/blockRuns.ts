/**
 * Finished blocks per run: ~500 top-level blocks of a 200 KB reply make ~63 runs. Small runs because a finished run
 * that is off screen is skipped by the browser (content-visibility, markdown.css): when a burst finishes many blocks in
 * one frame, only the last run's are laid out. Runs of 8 instead of 24 halved a full-speed stream's time in the page
 * (bench:render, issue 27), at no measurable cost at 20k chars/s.
 */
export const RUN_SIZE = 8;

/**
 * Groups finished blocks into runs (`<div class="md-run">`) of RUN_SIZE blocks, in order; the open tail lives in the
 * last run, after its finished blocks.
 *
 * Why: every update lays the container out again, and the browser walks all of its children to do that, even when
 * their layout is cached. Under runs that walk is a few dozen children instead of hundreds, and the runs before the
 * last one are not touched at all. Runs are plain blocks, so margins collapse across them as between siblings.
 * The grouping depends only on how many blocks are finished, so any chunking of a text ends with the same DOM.
 */
export class BlockRuns {
  private last: HTMLElement | undefined;
  private finishedInLast = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly size = RUN_SIZE,
  ) {}

  /** The run that takes the next finished block and the open tail (a new one when the last is full). */
  get open(): HTMLElement {
    if (!this.last || this.finishedInLast >= this.size) {
      this.last = this.container.appendChild(this.container.ownerDocument.createElement('div'));
      this.last.className = 'md-run';
      this.finishedInLast = 0;
    }
    return this.last;
  }

  /** A block was finished in the open run; true when that filled it (the tail must then move to the next run). */
  finished(): boolean {
    this.finishedInLast++;
    return this.finishedInLast >= this.size;
  }

  /** Drops a last run made for a tail that came to nothing, so that the DOM matches a one-shot render. */
  dropEmptyLast(): void {
    if (this.last && this.finishedInLast === 0 && !this.last.hasChildNodes()) {
      this.last.remove();
      this.last = undefined;
      this.finishedInLast = 0;
    }
  }
}
