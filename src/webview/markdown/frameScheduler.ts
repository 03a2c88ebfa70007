/** Schedules DOM work and tells the time; injected so tests and benches drive frames (and time) themselves. */
export interface FrameScheduler {
  /** Runs `callback` before the next paint; returns a function that cancels it. */
  requestFrame(callback: () => void): () => void;
  /**
   * Runs `callback` in a frame roughly `delayMs` from now, without asking for the frames in between (an animation
   * frame requested but left unused still costs the browser a rendering update). Optional: without it, frames are
   * requested one after the other until the delay has passed.
   */
  requestFrameAfter?(delayMs: number, callback: () => void): () => void;
  /** Milliseconds, monotonic: bounds the work done in one frame. */
  now(): number;
}

export const animationFrameScheduler: FrameScheduler = {
  requestFrame(callback) {
    const id = requestAnimationFrame(() => callback());
    return () => cancelAnimationFrame(id);
  },
  requestFrameAfter(delayMs, callback) {
    let frame = 0;
    const timer = setTimeout(() => (frame = requestAnimationFrame(() => callback())), delayMs);
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  },
  now: () => performance.now(),
};
