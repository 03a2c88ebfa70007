/** Schedules DOM work and tells the time; injected so tests and benches drive frames (and time) themselves. */
export interface FrameScheduler {
  /** Runs `callback` before the next paint; returns a function that cancels it. */
  requestFrame(callback: () => void): () => void;
  /** Milliseconds, monotonic: bounds the work done in one frame. */
  now(): number;
}

export const animationFrameScheduler: FrameScheduler = {
  requestFrame(callback) {
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  },
  now: () => performance.now(),
};
