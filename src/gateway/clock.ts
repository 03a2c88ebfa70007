// Time source for everything that schedules: request timeouts, the stream idle watchdog and retry waits.
// Tests inject a manual clock so nothing ever sleeps for real.

export type TimerHandle = unknown;

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

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
