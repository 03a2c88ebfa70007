export { StreamingMarkdown, type CodeAction, type StreamingMarkdownOptions } from './streamingMarkdown';
export { MarkdownRenderer } from './markdownRenderer';
export { builderFor, type FragmentBuilder } from './nodeBuilder';
export { animationFrameScheduler, type FrameScheduler } from './frameScheduler';
export { renderMarkdown } from './renderMarkdown';
export { RUN_SIZE } from './blockRuns';
export { LazyRendering, browserIdleScheduler, estimateHeight, type IdleScheduler, type LazyRenderingOptions } from './lazyRendering';
export { MarkdownWorker } from './markdownWorker';
