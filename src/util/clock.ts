// Time as a dependency: everything that schedules work takes a Clock, so tests drive time with FakeClock.

export type TimerHandle = { readonly __timerHandle: unique symbol };

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, Math.max(0, ms)) as unknown as TimerHandle,
  clearTimeout: (handle) => clearTimeout(handle as unknown as ReturnType<typeof setTimeout>),
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
