import type { FrameScheduler } from './frameScheduler';

/** Idle time and frames, injected so that tests drive them. */
export interface IdleScheduler {
  /** Runs `callback` when the main thread is idle (or after a while at the latest); `timeRemaining()` is its share. */
  requestIdle(callback: (deadline: { timeRemaining(): number }) => void): () => void;
  requestFrame(callback: () => void): () => void;
  now(): number;
}

export const browserIdleScheduler: IdleScheduler = {
  requestIdle(callback) {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => callback({ timeRemaining: () => 10 }), 16);
      return () => clearTimeout(timer);
    }
    // A stream of frames (a reply coming in) leaves idle time between them; the timeout only guards against none.
    const id = requestIdleCallback(callback, { timeout: 500 });
    return () => cancelIdleCallback(id);
  },
  requestFrame(callback) {
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  },
  now: () => performance.now(),
};

export interface LazyRenderingOptions {
  scheduler?: IdleScheduler;
  /** Milliseconds of rendering per idle callback or frame (default 10), so that no task gets long. */
  sliceMs?: number;
  /** Pending views this close to the viewport (a CSS margin, default one viewport above and below) render in frames. */
  nearMargin?: string;
  /** The DOM changed: after each slice of work (not after every view), e.g. to keep following the bottom. */
  onRendered?: () => void;
}

interface Item {
  index: number;
  element: HTMLElement;
  /** What skips rendering while off screen (the element, or e.g. the whole message it is in). */
  box: HTMLElement;
  text: string;
  /** The view's next piece of work; undefined once it has rendered everything (or was disposed). */
  pending: (() => void) | undefined;
  near: boolean;
  /** Some of its work has run: it needs no placeholder any more. */
  ran: boolean;
}

/**
 * Renders the markdown views of a long transcript (complete texts: replies restored or reloaded) without making
 * anyone wait for all of them: `renderVisibleNow()` renders the views on screen, from the bottom up, as far as the
 * viewport reaches; views coming near the viewport (the user scrolls) are rendered in the next frames; the rest in
 * idle time, nearest to the bottom first. Until rendered, a view's box holds a placeholder height estimated from
 * its text, so that the scrollbar is about right; scroll anchoring keeps what is on screen in place when views above
 * it grow to their real height. Each view ends with exactly the DOM it would have had when rendered at once.
 *
 * A view takes part by using the scheduler `defer()` returns (StreamingMarkdown with `append(text)` and `finish()`).
 * Views are deferred in document order.
 */
export class LazyRendering {
  private readonly scheduler: IdleScheduler;
  private readonly sliceMs: number;
  private readonly items: Item[] = [];
  /** Items by their box (what the observer watches: a view inside a skipped box never intersects). */
  private readonly byBox = new Map<Element, Item>();
  private plainBoxes: Array<{ box: HTMLElement; text: string }> = [];
  /** Index below which to look for the bottom-most pending view (views above it may still be pending). */
  private next = -1;
  private cancelIdle: (() => void) | undefined;
  private cancelFrame: (() => void) | undefined;
  private observer: IntersectionObserver | undefined;
  /** The viewport's width, read at the first defer() (later reads would lay out every view added since). */
  private width: number | undefined;
  private disposed = false;
  /** renderVisibleNow() has run: views and boxes added later get their placeholder at once. */
  private started = false;
  private readonly whenDoneWaiters: Array<() => void> = [];

  constructor(
    private readonly viewport: HTMLElement,
    private readonly options: LazyRenderingOptions = {},
  ) {
    this.scheduler = options.scheduler ?? browserIdleScheduler;
    this.sliceMs = options.sliceMs ?? 10;
  }

  /**
   * A scheduler for a view that shows `text` in `element`, whose rendering may wait. `box` (default: the element) is
   * what the browser skips while it is off screen: the whole message the view is in, so that opening a long chat
   * lays out only the messages on screen.
   */
  defer(element: HTMLElement, text: string, box: HTMLElement = element): FrameScheduler {
    this.width ??= this.viewport.clientWidth;
    const item: Item = { index: this.items.length, element, box, text, pending: undefined, near: false, ran: false };
    this.items.push(item);
    this.byBox.set(box, item);
    return {
      requestFrame: (callback) => {
        // A view of a message built after the first screen (cancelling a request takes the placeholder off).
        if (this.started && !item.ran && item.box.style.minHeight === '') this.placeholder(item);
        item.pending = callback;
        this.next = Math.max(this.next, item.index);
        this.observer?.observe(box);
        this.requestIdle();
        return () => {
          if (item.pending !== callback) return;
          this.settle(item);
          this.checkDone();
        };
      },
      now: () => this.scheduler.now(),
    };
  }

  /**
   * A box without a view to render (a message in plain text) that the browser may skip while it is off screen, like
   * the boxes of deferred views, at a height estimated from its text until laid out once.
   */
  skipWhileOffScreen(box: HTMLElement, text: string): void {
    if (this.started) this.plainPlaceholder(box, text);
    else this.plainBoxes.push({ box, text });
  }

  /** Resolves once every view deferred so far has rendered everything (or was disposed), or on dispose(). */
  whenDone(): Promise<void> {
    if (this.disposed || !this.items.some((item) => item.pending)) return Promise.resolve();
    return new Promise((resolve) => this.whenDoneWaiters.push(resolve));
  }

  private checkDone(): void {
    if (this.whenDoneWaiters.length > 0 && (this.disposed || !this.bottomMostPending())) for (const resolve of this.whenDoneWaiters.splice(0)) resolve();
  }

  /**
   * Renders at once the views on screen, bottom up until the viewport is covered (call it with the viewport where it
   * should be, e.g. scrolled to the bottom; `onRendered` runs after each view so it can stay there), and gives the
   * others their placeholders.
   */
  renderVisibleNow(): void {
    this.started = true;
    this.placeholders();
    this.options.onRendered?.();
    const view = this.viewport.getBoundingClientRect();
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i];
      if (!item.pending) continue;
      const box = item.box.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown (e.g. no reasoning)
      // Messages not yet laid out (content-visibility) sit at their estimated height until the frame: what is above the
      // viewport now may be on screen then, so half a viewport more is rendered.
      if (box.bottom < view.top - view.height / 2) break; // this view and all before it are above the viewport
      if (box.top > view.bottom) continue; // below
      this.runToEnd(item);
      this.options.onRendered?.();
    }
    this.watchNearViews();
    this.requestIdle();
  }

  /** Renders every view now (the one-shot way: what a restore did before, and the reference for tests). */
  renderAllNow(): void {
    for (const item of this.items) this.runToEnd(item);
    this.options.onRendered?.();
    this.checkDone();
  }

  dispose(): void {
    this.disposed = true;
    this.cancelIdle?.();
    this.cancelFrame?.();
    this.observer?.disconnect();
    this.items.length = 0;
    this.byBox.clear();
    this.plainBoxes = [];
    this.checkDone();
  }

  /**
   * Pending views get a placeholder height; their boxes skip the browser's style, layout and paint while off
   * screen (`md-lazy`: content-visibility: auto), at the estimated height until laid out once, then at their last.
   */
  private placeholders(): void {
    for (const item of this.items) if (item.pending && !item.ran) this.placeholder(item);
    for (const { box, text } of this.plainBoxes) this.plainPlaceholder(box, text);
    this.plainBoxes = [];
  }

  private plainPlaceholder(box: HTMLElement, text: string): void {
    box.classList.add('md-lazy');
    box.style.containIntrinsicSize = `auto ${estimateHeight(text, (this.width ?? this.viewport.clientWidth) - BOX_PADDING_PX) + BOX_CHROME_PX}px`;
  }

  private placeholder(item: Item): void {
    const width = this.width ?? this.viewport.clientWidth;
    const height = `${estimateHeight(item.text, item.box === item.element ? width : width - BOX_PADDING_PX) + (item.box === item.element ? 0 : BOX_CHROME_PX)}px`;
    item.box.classList.add('md-lazy');
    item.box.style.minHeight = height;
    item.box.style.containIntrinsicSize = `auto ${height}`;
  }

  private watchNearViews(): void {
    if (this.observer || typeof IntersectionObserver !== 'function') return;
    this.observer = new IntersectionObserver((entries) => this.onNear(entries), { root: this.viewport, rootMargin: this.options.nearMargin ?? '100% 0px' });
    for (const item of this.items) if (item.pending) this.observer.observe(item.box);
  }

  private onNear(entries: IntersectionObserverEntry[]): void {
    let any = false;
    for (const entry of entries) {
      const item = this.byBox.get(entry.target);
      if (entry.isIntersecting && item?.pending) any = item.near = true;
    }
    if (any && !this.cancelFrame && !this.disposed) this.cancelFrame = this.scheduler.requestFrame(this.onFrame);
  }

  /** Views near the viewport, in frames: they may be on screen any moment. */
  private readonly onFrame = (): void => {
    this.cancelFrame = undefined;
    const near = this.items.filter((item) => item.near && item.pending).reverse();
    this.runFor(() => near.find((item) => item.pending), () => false);
    if (near.some((item) => item.pending)) this.cancelFrame = this.scheduler.requestFrame(this.onFrame);
    else this.checkDone();
  };

  private requestIdle(): void {
    if (this.cancelIdle || this.disposed) return;
    this.cancelIdle = this.scheduler.requestIdle((deadline) => {
      this.cancelIdle = undefined;
      this.runFor(() => this.bottomMostPending(), () => deadline.timeRemaining() <= 0);
      if (this.bottomMostPending()) this.requestIdle();
      else this.checkDone();
    });
  }

  /** Runs pieces of work from `pick` for one slice (always at least one piece), then reports the DOM change. */
  private runFor(pick: () => Item | undefined, outOfTime: () => boolean): void {
    const start = this.scheduler.now();
    let ran = false;
    for (let item = pick(); item && !(ran && (this.scheduler.now() - start >= this.sliceMs || outOfTime())); item = pick()) {
      this.runOnce(item);
      ran = true;
    }
    if (ran) this.options.onRendered?.();
  }

  private bottomMostPending(): Item | undefined {
    while (this.next >= 0 && !this.items[this.next].pending) this.next--;
    return this.next >= 0 ? this.items[this.next] : undefined;
  }

  private runToEnd(item: Item): void {
    while (item.pending) this.runOnce(item);
  }

  private runOnce(item: Item): void {
    const work = item.pending!;
    item.pending = undefined;
    item.ran = true;
    work(); // a view with more to do asks again at once
    if (!item.pending) this.settle(item);
  }

  /** The view has rendered everything (or was disposed): its placeholder goes. */
  private settle(item: Item): void {
    item.pending = undefined;
    item.near = false;
    this.observer?.unobserve(item.box);
    // The box keeps its contain-intrinsic-size: never an empty style attribute, which a render at once would not give.
    if (item.box.style.minHeight !== '') item.box.style.removeProperty('min-height');
  }
}

const LINE_HEIGHT_PX = 19.5;
/** A box around the view (a message) has a header, padding and a usage line besides the view. */
const BOX_CHROME_PX = 60;
const BOX_PADDING_PX = 24;
const CHAR_WIDTH_PX = 7.2;

/** A rough height for markdown text at a width: wrapped lines at an average character width, plus block gaps. */
export function estimateHeight(text: string, widthPx: number): number {
  const perLine = Math.max(20, Math.floor(widthPx / CHAR_WIDTH_PX));
  let lines = 0;
  for (const line of text.split('\n')) lines += line.trim() === '' ? 0.5 : Math.ceil(line.length / perLine);
  return Math.round(lines * LINE_HEIGHT_PX);
}
