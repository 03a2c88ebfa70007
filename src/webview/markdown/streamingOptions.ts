// What a StreamingMarkdown is told: its callbacks, its pacing and the renderer it shares.
import type { MarkdownRenderer } from './markdownRenderer';
import type { FrameScheduler } from './frameScheduler';
import type { MarkdownWorker } from './markdownWorker';

export type CodeAction = 'copy' | 'insert' | 'new-file' | 'apply';

export interface StreamingMarkdownOptions {
  /** Called once per block when it becomes final, with its plain text (for a screen-reader live region). */
  onBlockCompleted?: (text: string) => void;
  /** A rendered http(s) link was activated. The webview itself never navigates: every link click is cancelled. */
  onLinkActivated?: (href: string) => void;
  /** A code block toolbar button was pressed. */
  onCodeAction?: (action: CodeAction, code: string, lang: string) => void;
  /**
   * The DOM changed (called at the end of the frame callback that changed it, and in end()): the place to keep a
   * transcript scrolled to the bottom, since updates are rate-limited and need not land in the frame of a delta.
   */
  onRendered?: () => void;
  /** Defaults to requestAnimationFrame and performance.now. */
  scheduler?: FrameScheduler;
  /**
   * Milliseconds of block rendering per frame before the rest waits for the next frame (default 8; the layout and
   * paint of what was rendered come on top). Every frame that changes the DOM has a fixed cost (style, layout and
   * paint of the open run, following the bottom), so a backlog is taken in few full frames rather than many small
   * ones: at 3 ms a 200 KB reply at 20k chars/s took ~68 frames, at 8-10 ms ~45, with a third less style and layout.
   */
  frameBudgetMs?: number;
  /**
   * Time between two updates (default 50: every third frame at 60 Hz; the frame nearest to it is used). Every update
   * has a fixed cost (re-rendering the open block, the browser's style, layout and paint); text growing by a few words
   * at a time reads just as smoothly at 20 updates a second, for a third of that cost.
   */
  minUpdateIntervalMs?: number;
  /**
   * The share of the main thread that updates may take (default 0.025). An update costs the browser a few
   * milliseconds of style, layout and paint even when it adds a single word, more when a flood of text comes in or the
   * machine is slow (measured from the frame's start to when the browser has rendered it, with a scheduler that has
   * `afterRendering`; otherwise to the end of `onRendered`, which is where the panel's scrolling makes the browser lay
   * out). Updates are spaced out beyond `minUpdateIntervalMs` to stay within that share, so that typing and scrolling
   * stay responsive and the fixed cost of an update stays small next to the text it brings.
   */
  maxUpdateShare?: number;
  /** The longest time between two updates, however expensive they are (default 250). */
  maxUpdateIntervalMs?: number;
  /** Finished blocks per run (default RUN_SIZE); for the bench's trade-off rows. */
  runSize?: number;
  /** Complete lines parsed at once when looking for final blocks (default 4096 characters); for the bench. */
  maxRegionLength?: number;
  /** Share one renderer (markdown-it, highlighter) between many messages. */
  renderer?: MarkdownRenderer;
  /**
   * Parse, render and highlight in this worker (shared by the page's streams): the page then only builds and inserts
   * what it sends. end() still finishes synchronously on the page, and a worker that fails is left for the page's own
   * planner; the final DOM is the same either way.
   */
  worker?: MarkdownWorker;
}
