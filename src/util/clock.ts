// Time as a dependency: everything that schedules work takes a Clock, so tests drive time with FakeClock (test/util/fakeClock.ts).

export type TimerHandle = { readonly __timerHandle: unique symbol };

export interface Clock {
  /** Wall time (epoch ms): for what is shown or stored. It can step back or forward (NTP, the user, a resumed VM). */
  now(): number;
  /**
   * Milliseconds from an arbitrary origin that never step (`performance.now()`): for delays and deadlines inside this
   * process, so a wall-clock step neither stalls nor hurries what is scheduled.
   */
  monotonic(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The longest delay a platform timer takes: Node and browsers fire a longer one after 1 ms instead. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A platform's own timers, which overflow past MAX_TIMER_MS. */
export interface PlatformTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface LongTimer {
  raw: unknown;
}

/**
 * A Clock over platform timers that cannot overflow: a wait longer than MAX_TIMER_MS is armed in pieces, each
 * re-armed when the previous one fires, so it fires once, at its time. The pieces count the wait itself rather
 * than reading `now()`, so a wall-clock jump neither shortens nor stretches it (as with a plain setTimeout).
 */
export function clockOn(now: () => number, platform: PlatformTimers, monotonic: () => number = now): Clock {
  return {
    now,
    monotonic,
    setTimeout(callback, ms) {
      const timer: LongTimer = { raw: undefined };
      let remaining = Number.isNaN(ms) ? 0 : Math.max(0, ms);
      const arm = (): void => {
        const piece = Math.min(remaining, MAX_TIMER_MS);
        remaining -= piece;
        timer.raw = platform.setTimeout(() => (remaining > 0 ? arm() : callback()), piece);
      };
      arm();
      return timer as unknown as TimerHandle;
    },
    clearTimeout(handle) {
      platform.clearTimeout((handle as unknown as LongTimer).raw);
    },
  };
}

export const realClock: Clock = clockOn(
  () => Date.now(),
  {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
  () => performance.now(),
);

/** Converts between a clock's two time lines at this moment (exact while the wall clock has not stepped). */
export function wallFromMonotonic(clock: Clock, monotonicMs: number): number {
  return monotonicMs + (clock.now() - clock.monotonic());
}

export function monotonicFromWall(clock: Clock, wallMs: number): number {
  return wallMs - (clock.now() - clock.monotonic());
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A sleep on the given clock that rejects with the signal's reason as soon as the signal aborts. */
export function sleeperFor(clock: Clock): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clock.clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}
