// Runs inside the chat bench page (the chat bundle defines window.Chat). Self-contained: Playwright sends its source.
// Opens a long chat in the chat webview's ChatApp, as the panel does on open or restore, then scrolls it.

export interface TranscriptInput {
  history: 'lazily' | 'at once';
  /** Pixels scrolled up per frame from the bottom to the top (a fast drag of the scrollbar). */
  scrollStepPx: number;
  /** Scroll right after the last screen is shown, while the rest renders; otherwise once everything is rendered. */
  scrollWhileRendering: boolean;
}

/** Trace marks: the task that opens the chat, and the one right after the first frame after it. */
export const OPEN_MARK = 'bench:open';
export const LAST_SCREEN_MARK = 'bench:last-screen';
/** The end of the scroll: what comes after (reading the DOM back for the comparison) is the bench's own work. */
export const SCROLLED_MARK = 'bench:scrolled';

export interface TranscriptResult {
  /** From the `init` message to the end of the first frame rendered after it (the last screen on show). */
  lastScreenMs: number;
  /** The last screen was complete in that frame: every reply on screen rendered, the transcript at its bottom. */
  lastScreenComplete: boolean;
  /** Of lastScreenMs: handling the message (synchronous: validation, building the turns, rendering). */
  receiveMs: number;
  /** From the message until every reply is rendered (scrolling, when it comes first, speeds this up). */
  allRenderedMs: number;
  /** Frames of the scroll to the top: their count, the longest (rAF to rAF). */
  scrollFrames: number;
  longestScrollFrameMs: number;
  /** Tasks of 50 ms or more seen by a PerformanceObserver('longtask') from the message to the end. */
  longTasks: number;
  longestLongTaskMs: number;
  /** Of those, the ones that started after the last screen was shown (rendering the rest, scrolling). */
  longTasksAfterOpen: number;
  longestLongTaskAfterOpenMs: number;
  /** Replies whose element still had a placeholder at the end (should be 0). */
  unrendered: number;
  html: string;
}

/** Puts the chat in the page beforehand, so that moving 2 MB into it is not part of any measurement. */
export function loadTranscript(turns: unknown[]): void {
  (window as unknown as { benchTurns: unknown[] }).benchTurns = turns;
}

export async function runTranscript(input: TranscriptInput): Promise<TranscriptResult> {
  type ChatModule = typeof import('../../src/webview/chat/app');
  const chat = (window as unknown as { Chat: ChatModule }).Chat;
  const turns = (window as unknown as { benchTurns: unknown[] }).benchTurns;
  const settings = { model: 'text-large', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
  const init = (list: unknown[]) => ({ type: 'init', sessionId: 's1', title: 'Long chat', settings, turns: list, models: { models: ['text-large'], loading: false } });
  /** A fresh panel (outside any measurement), then `open()` gives it the chat. */
  const panel = (list: unknown[]) => {
    document.body.replaceChildren();
    const root = document.body.appendChild(document.createElement('div'));
    root.id = 'app';
    const app = new chat.ChatApp(root, { post: () => undefined, setState: () => undefined }, { history: input.history });
    return { root, app, open: () => app.receive(init(list)) };
  };
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  // The end of the frame: a message posted from a frame callback runs once the frame has been rendered.
  const frameRendered = () =>
    new Promise<number>((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );
  const placeholders = () => document.querySelectorAll('.transcript [style*="min-height"]').length;

  // Warm up (JIT, styles, fonts) on the first tenth of the chat, in a view that is then thrown away.
  const warm = panel(turns.slice(0, Math.max(2, Math.floor(turns.length / 10)) & ~1));
  warm.open();
  await warm.app.whenHistoryRendered();
  await frame();

  const longTaskEntries: Array<{ startTime: number; duration: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTaskEntries.push({ startTime: entry.startTime, duration: entry.duration });
  });

  const { root, app, open } = panel(turns);
  await frame();
  observer.observe({ type: 'longtask' });
  console.timeStamp('bench:open'); // OPEN_MARK (spelled out: Playwright sends this function's source only)
  const start = performance.now();
  open();
  const receiveMs = performance.now() - start;
  const lastScreenMs = (await frameRendered()) - start;
  console.timeStamp('bench:last-screen'); // LAST_SCREEN_MARK
  const transcript = root.querySelector<HTMLElement>('.transcript')!;
  const view = transcript.getBoundingClientRect();
  const onScreen = Array.from(root.querySelectorAll<HTMLElement>('.assistant-turn .content')).filter((box) => {
    const rect = box.getBoundingClientRect();
    return rect.bottom > view.top && rect.top < view.bottom;
  });
  const atBottom = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 2;
  const lastScreenComplete = atBottom && onScreen.length > 0 && onScreen.every((box) => box.closest<HTMLElement>('.turn')!.style.minHeight === '' && box.childElementCount > 0);

  const untilAllRendered = async () => {
    await app.whenHistoryRendered();
    return performance.now() - start;
  };
  const scrollToTop = async () => {
    const frameTimes: number[] = [];
    let last = performance.now();
    while (transcript.scrollTop > 0) {
      transcript.scrollTop = Math.max(0, transcript.scrollTop - input.scrollStepPx);
      await frame();
      const now = performance.now();
      frameTimes.push(now - last);
      last = now;
    }
    return frameTimes;
  };
  let frameTimes: number[];
  let allRenderedMs: number;
  if (input.scrollWhileRendering) {
    frameTimes = await scrollToTop();
    allRenderedMs = await untilAllRendered();
  } else {
    allRenderedMs = await untilAllRendered();
    frameTimes = await scrollToTop();
  }
  await frame();
  console.timeStamp('bench:scrolled'); // SCROLLED_MARK
  observer.disconnect();
  // Serialising the whole transcript below is one long task of the bench's own; the trace stops at the mark above.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const afterOpen = longTaskEntries.filter((entry) => entry.startTime >= start + lastScreenMs);
  return {
    lastScreenMs,
    lastScreenComplete,
    receiveMs,
    allRenderedMs,
    scrollFrames: frameTimes.length,
    longestScrollFrameMs: Math.max(0, ...frameTimes),
    longTasks: longTaskEntries.length,
    longestLongTaskMs: Math.max(0, ...longTaskEntries.map((entry) => entry.duration)),
    longTasksAfterOpen: afterOpen.length,
    longestLongTaskAfterOpenMs: Math.max(0, ...afterOpen.map((entry) => entry.duration)),
    unrendered: placeholders(),
    html: transcript.innerHTML,
  };
}
