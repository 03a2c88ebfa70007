// Opening a long chat builds only the messages of its last screens; the older ones are built above them in idle time,
// or in the next frames when the user scrolls up to them. Building 500 messages' DOM before the first frame was most
// of what opening a 2 MB chat cost.
import type { WireTurn } from '../../chatProtocol/messages';
import { browserIdleScheduler, estimateHeight, type IdleScheduler } from '../markdown';
import { el } from './dom';

/** Messages built at once: from the bottom up until their estimated height covers this many viewports. */
const SCREENS_AT_ONCE = 2;
/** A message's header, padding and margin, around its text (lazyRendering.ts estimates the same way). */
const MESSAGE_CHROME_PX = 60;
const MEDIA_PX = 320;

export interface OlderTurnsHost {
  /** The scrolling transcript: the spacer goes in it, first after `after`. */
  transcript: HTMLElement;
  /** Builds an older turn than any built so far and inserts its message before `before`. */
  build(turn: WireTurn, before: Node | null): void;
  /** A slice of turns was built (e.g. refresh the controls); the spacer is gone when `done`. */
  built(done: boolean): void;
}

/**
 * Turns of an opened chat not built yet, oldest first, held by a spacer of their estimated height at the top of the
 * transcript (so the scrollbar is about right; scroll anchoring keeps the screen still as they come in above it).
 */
export class OlderTurns {
  private pending: WireTurn[];
  private readonly spacer = el('div', { class: 'older-turns', attrs: { 'aria-hidden': 'true' } });
  private readonly heights: number[];
  private height = 0;
  private cancelIdle: (() => void) | undefined;
  private cancelFrame: (() => void) | undefined;
  private observer: IntersectionObserver | undefined;
  private near = false;
  private readonly waiters: Array<() => void> = [];

  /** Splits `turns`: returns the newest ones to build now; keeps the rest (none when they all fit two screens). */
  static split(turns: WireTurn[], viewport: HTMLElement): { now: WireTurn[]; older: WireTurn[] } {
    const width = Math.max(200, viewport.clientWidth - 24);
    const wanted = SCREENS_AT_ONCE * Math.max(300, viewport.clientHeight);
    let height = 0;
    let first = turns.length;
    while (first > 0 && (height < wanted || turns.length - first < 2)) height += estimateTurn(turns[--first], width);
    return { now: turns.slice(first), older: turns.slice(0, first) };
  }

  constructor(
    older: WireTurn[],
    private readonly host: OlderTurnsHost,
    private readonly scheduler: IdleScheduler = browserIdleScheduler,
    private readonly sliceMs = 10,
  ) {
    this.pending = older;
    const width = Math.max(200, host.transcript.clientWidth - 24);
    this.heights = older.map((turn) => estimateTurn(turn, width));
    for (const h of this.heights) this.height += h;
    this.spacer.style.height = `${this.height}px`;
  }

  /** Puts the spacer before `first` (the first message built) and starts building in idle time. */
  start(first: Node | null): void {
    if (this.pending.length === 0) return this.finish();
    this.host.transcript.insertBefore(this.spacer, first);
    if (typeof IntersectionObserver === 'function') {
      this.observer = new IntersectionObserver((entries) => this.onNear(entries[entries.length - 1].isIntersecting), { root: this.host.transcript, rootMargin: '100% 0px' });
      this.observer.observe(this.spacer);
    }
    this.requestIdle();
  }

  get count(): number {
    return this.pending.length;
  }

  /** Builds every turn left now (before a change that counts turns, like removing the last ones). */
  buildAll(): void {
    if (this.pending.length === 0) return;
    this.buildSlice(Infinity);
  }

  /** Resolves once every turn is built (or on dispose). */
  whenBuilt(): Promise<void> {
    if (this.pending.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Usage and the like of the turns not built yet. */
  get turns(): readonly WireTurn[] {
    return this.pending;
  }

  dispose(): void {
    this.pending = [];
    this.finish();
  }

  private onNear(near: boolean): void {
    this.near = near;
    if (near && !this.cancelFrame && this.pending.length > 0) this.cancelFrame = this.scheduler.requestFrame(this.onFrame);
  }

  /**
   * Near the viewport: a slice per frame, as long as the spacer stays near; all that is left at once when the spacer
   * is on screen (the user jumped to the top: they would see blank space until the turns above came in).
   */
  private readonly onFrame = (): void => {
    this.cancelFrame = undefined;
    const view = this.host.transcript.getBoundingClientRect();
    this.buildSlice(this.spacer.getBoundingClientRect().bottom > view.top ? Infinity : this.sliceMs);
    if (this.near && this.pending.length > 0) this.cancelFrame = this.scheduler.requestFrame(this.onFrame);
  };

  private requestIdle(): void {
    if (this.cancelIdle || this.pending.length === 0) return;
    this.cancelIdle = this.scheduler.requestIdle((deadline) => {
      this.cancelIdle = undefined;
      this.buildSlice(Math.min(this.sliceMs, Math.max(1, deadline.timeRemaining())));
      this.requestIdle();
    });
  }

  /**
   * Builds the newest pending turns for `ms` (at least one), one by one right below the spacer, so they end up in
   * document order.
   */
  private buildSlice(ms: number): void {
    const start = this.scheduler.now();
    do {
      this.height -= this.heights.pop()!;
      this.host.build(this.pending.pop()!, this.spacer.nextSibling);
    } while (this.pending.length > 0 && this.scheduler.now() - start < ms);
    this.spacer.style.height = `${Math.max(0, this.height)}px`;
    if (this.pending.length === 0) this.finish();
    else this.host.built(false);
  }

  private finish(): void {
    this.cancelIdle?.();
    this.cancelFrame?.();
    this.cancelIdle = this.cancelFrame = undefined;
    this.observer?.disconnect();
    this.observer = undefined;
    this.spacer.remove();
    this.host.built(true);
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

function estimateTurn(turn: WireTurn, width: number): number {
  if (turn.role === 'media') return MEDIA_PX;
  return estimateHeight(turn.content, width) + MESSAGE_CHROME_PX;
}
