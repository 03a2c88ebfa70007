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
// Remember the session at once, so the panel can be restored even if it closes before the host answers.
const sessionId = document.body.dataset.sessionId;
if (sessionId) vscode.setState({ sessionId });

const app = new ChatApp(document.getElementById('app') ?? document.body, {
  post: (message) => vscode.postMessage(message),
  setState: (state) => vscode.setState(state),
});
window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
vscode.postMessage({ type: 'ready' });
