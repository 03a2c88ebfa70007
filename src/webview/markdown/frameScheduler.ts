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
  /**
   * Runs `callback` once the browser has finished the current frame: after the animation frame callbacks, style,
   * layout and paint (the next task). Optional: what an update costs is then measured up to there; without it, up to
   * the end of the update's own frame callback.
   */
  afterRendering?(callback: () => void): void;
  /** Milliseconds, monotonic: bounds the work done in one frame. */
  now(): number;
}

let afterRenderingChannel: { port: MessagePort; callbacks: Array<() => void> } | undefined;

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
  afterRendering(callback) {
    // A message posted from a frame callback is a task of its own: it runs once the frame has been rendered.
    if (!afterRenderingChannel) {
      const channel = new MessageChannel();
      const callbacks: Array<() => void> = [];
      channel.port1.onmessage = () => callbacks.shift()?.();
      afterRenderingChannel = { port: channel.port2, callbacks };
    }
    afterRenderingChannel.callbacks.push(callback);
    afterRenderingChannel.port.postMessage(null);
  },
  now: () => performance.now(),
};
