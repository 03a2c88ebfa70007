// A virtual clock for tests and benches: time moves only when advanced, timers run in due order. Timers follow the
// monotonic time, as platform timers do; `stepWall` moves the wall clock alone (an NTP correction, a user's change).
import { clockOn, MAX_TIMER_MS, type Clock, type PlatformTimers, type TimerHandle } from '../../src/util/clock';

interface FakeTimer {
  id: number;
  dueAt: number;
  callback: () => void;
}

export class FakeClock implements Clock {
  /** Monotonic time: what timers follow. */
  private time: number;
  /** Wall time minus monotonic time; 0 until the wall clock steps, so both read the same. */
  private wallOffset = 0;
  private nextId = 1;
  private timers = new Map<number, FakeTimer>();

  /**
   * The timers underneath, as Node's behave: a delay over MAX_TIMER_MS fires after 1 ms. The clock's own
   * setTimeout arms them through the same overflow guard as the real clock.
   */
  readonly platform: PlatformTimers = {
    setTimeout: (callback, ms) => {
      const id = this.nextId++;
      const delay = ms > MAX_TIMER_MS ? 1 : Math.max(0, ms);
      this.timers.set(id, { id, dueAt: this.time + delay, callback });
      return id;
    },
    clearTimeout: (handle) => {
      this.timers.delete(handle as number);
    },
  };

  private readonly guarded: Clock = clockOn(() => this.now(), this.platform, () => this.time);

  constructor(startAt = 1_700_000_000_000) {
    this.time = startAt;
  }

  now(): number {
    return this.time + this.wallOffset;
  }

  monotonic(): number {
    return this.time;
  }

  /** Steps the wall clock by `ms` (negative: back) without moving monotonic time or running timers. */
  stepWall(ms: number): void {
    this.wallOffset += ms;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    return this.guarded.setTimeout(callback, ms);
  }

  clearTimeout(handle: TimerHandle): void {
    this.guarded.clearTimeout(handle);
  }

  /** Timers not yet run or cleared. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Due time of the earliest timer, if any. */
  nextDueAt(): number | undefined {
    return this.earliest()?.dueAt;
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way, in order (ties by creation). */
  advance(ms: number): void {
    const target = this.time + ms;
    for (let timer = this.earliest(); timer && timer.dueAt <= target; timer = this.earliest()) {
      this.runTimer(timer);
    }
    this.time = target;
  }

  /**
   * Like `advance`, but lets promise callbacks (and `setImmediate` work) settle before and after each timer, so
   * async code started by a timer finishes at the virtual time it was started.
   */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (let timer = this.earliest(); timer && timer.dueAt <= target; timer = this.earliest()) {
      this.runTimer(timer);
      await settle();
    }
    this.time = target;
    await settle();
  }

  /** Sets the time (both readings move) without running timers; for simulating a gap such as a reload. */
  jumpTo(time: number): void {
    this.time = time - this.wallOffset;
  }

  private runTimer(timer: FakeTimer): void {
    this.timers.delete(timer.id);
    this.time = Math.max(this.time, timer.dueAt);
    timer.callback();
  }

  private earliest(): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const timer of this.timers.values()) {
      if (!best || timer.dueAt < best.dueAt || (timer.dueAt === best.dueAt && timer.id < best.id)) best = timer;
    }
    return best;
  }
}

/** Lets pending promise callbacks and immediates run (a few rounds, for chains of awaits). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
