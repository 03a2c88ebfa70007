// The chat page: started by main.ts where there is a document.
import type { WebviewMessage } from '../../chatProtocol/messages';
import { isRecord } from '../../util/records';
import { ChatApp } from './app';
import { startMarkdownWorker } from './parseWorker';
import { vsCodeApi } from '../vscodeApi';

const vscode = vsCodeApi<WebviewMessage>();
startMarkdownWorker();
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
// Whether every message of the chat as last opened is built and rendered ('built') or not yet ('building'): long
// chats build their older messages in idle time, and whoever reads the transcript from outside (the e2e harness)
// must wait for this, not for the absence of a placeholder that an init arriving later would add.
let inits = 0;
window.addEventListener('message', (event: MessageEvent) => {
  app.receive(event.data);
  if (!isRecord(event.data) || event.data.type !== 'init') return;
  const init = ++inits;
  document.body.dataset.history = 'building';
  void app.whenHistoryRendered().then(() => {
    if (init === inits) document.body.dataset.history = 'built';
  });
});
vscode.postMessage({ type: 'ready' });
