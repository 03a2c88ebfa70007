// Says "this job ended" once across windows: the first window to create the job's claim file announces it. A
// focused window claims at once; an unfocused one waits a moment, so that the window the user is looking at wins.
import type { Clock, TimerHandle } from '../../util/clock';
import type { Disposable } from '../../util/events';

export interface FinishAnnouncerOptions {
  clock: Clock;
  /** True for exactly one caller per key, across windows (an exclusive file creation). */
  claim: (key: string) => boolean;
  /** Called in the window that won the claim. */
  announce: (key: string) => void;
  unfocusedDelayMs: number;
  /**
   * False while the window is gone (see windowPresence.ts): a claim made then would be shown to nobody, so the
   * job waits (for the window to come back, or for another window to claim it).
   */
  attached: () => boolean;
  onError?: (error: unknown) => void;
}

export class FinishAnnouncer implements Disposable {
  /** Jobs to announce: with the timer of an unfocused window's wait, or none while the window is gone. */
  private readonly waiting = new Map<string, TimerHandle | undefined>();
  private focused = true;

  constructor(private readonly options: FinishAnnouncerOptions) {}

  finished(key: string): void {
    if (this.waiting.has(key)) return;
    if (this.focused) this.claim(key);
    else this.waiting.set(key, this.options.clock.setTimeout(() => this.claim(key), this.options.unfocusedDelayMs));
  }

  /** The job went away before its end was announced. */
  cancel(key: string): void {
    const timer = this.waiting.get(key);
    if (timer !== undefined) this.options.clock.clearTimeout(timer);
    this.waiting.delete(key);
  }

  /** Gaining focus, a window claims at once what it was waiting to announce. */
  setFocused(focused: boolean): void {
    this.focused = focused;
    if (focused) this.claimWaiting();
  }

  /** The window is back: it claims what it could not while it was gone (another window may have been first). */
  reattached(): void {
    if (this.focused) this.claimWaiting();
    else for (const [key, timer] of this.waiting) if (timer === undefined) this.waiting.set(key, this.options.clock.setTimeout(() => this.claim(key), this.options.unfocusedDelayMs));
  }

  dispose(): void {
    for (const key of [...this.waiting.keys()]) this.cancel(key);
  }

  private claimWaiting(): void {
    for (const key of [...this.waiting.keys()]) {
      this.cancel(key);
      this.claim(key);
    }
  }

  private claim(key: string): void {
    if (!this.options.attached()) {
      this.waiting.set(key, undefined);
      return;
    }
    this.waiting.delete(key);
    let won = false;
    try {
      won = this.options.claim(key);
    } catch (error) {
      this.options.onError?.(error);
    }
    if (won) this.options.announce(key);
  }
}
