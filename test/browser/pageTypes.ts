// Types for code that runs inside the test page, where the bundle defines `window.MD`.
import type * as MarkdownModule from '../../src/webview/markdown/index';

export type MarkdownGlobal = typeof MarkdownModule;

export interface PageWindow {
  MD: MarkdownGlobal;
  [key: string]: unknown;
}
