// Entry point of the chat webview (bundled to dist/webview/chat.js, styles to dist/webview/chat.css).
import '../markdown/markdown.css';
import './chat.css';
import './attachments.css';
import type { WebviewMessage } from '../../chatProtocol/messages';
import { ChatApp } from './app';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  setState(state: unknown): void;
  getState(): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
// What was typed before the page was rebuilt (the host rebuilds it to allow a new gateway result origin).
const saved = vscode.getState() as { draft?: unknown } | undefined;
const draft = typeof saved?.draft === 'string' ? saved.draft : '';
// Remember the session at once, so the panel can be restored even if it closes before the host answers.
const sessionId = document.body.dataset.sessionId;
if (sessionId) vscode.setState(draft ? { sessionId, draft } : { sessionId });

const app = new ChatApp(document.getElementById('app') ?? document.body, {
  post: (message) => vscode.postMessage(message),
  setState: (state) => vscode.setState(state),
});
if (draft) app.restoreDraft(draft);
window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
vscode.postMessage({ type: 'ready' });
