// Entry point of the chat webview, bundled to dist/webview/chat.js (styles to dist/webview/chat.css). The same script
// is the page's markdown worker: the page starts a Worker from it (parseWorker.ts), where, with no document, only the
// worker's part runs. One script for both keeps markdown-it and highlight.js in the package once.
import '../markdown/markdown.css';
import './chat.css';
import './attachments.css';

import { lazy } from '../../util/lazy';

// Required, not imported: esbuild then evaluates each part's modules only when it is required, so the worker never
// runs the page's (which touch the DOM) and the page never starts the worker's message loop.
/* eslint-disable @typescript-eslint/no-require-imports */
const workerPart = lazy(() => require('../markdown/workerMain') as typeof import('../markdown/workerMain'));
const pagePart = lazy(() => require('./page') as typeof import('./page'));
if (typeof document === 'undefined') workerPart();
else pagePart();
