// The chat panel in the real VS Code: the real webview loads under its CSP and says `ready`; the tests then drive
// the panel through the same message handler the webview uses, and watch what the host posts back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ModelCatalog } from '../../../src/models/core/modelCatalog';
import { CHAT_VIEW_TYPE, type HostMessage, type TurnFinish, type WebviewMessage, type WireTurn } from '../../../src/chatProtocol/messages';
import { defaultSettings, type AssistantTurn, type Turn } from '../../../src/chatProtocol/session';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, until } from '../helpers';
import { cspProblems } from '../../util/cspPolicy';
import { workerSources } from '../../../src/ui/core/pageCsp';

interface ChatTesting {
  manager: ChatPanelManager;
  createManager(storageFolder: string): ChatPanelManager;
}

/** What one panel's host side posted and received. */
class PanelRecorder {
  readonly posted: HostMessage[] = [];
  readonly received: WebviewMessage[] = [];

  constructor(readonly panel: ChatPanel) {
    panel.onDidPost((m) => this.posted.push(m));
    panel.bridge.onDidReceive((m) => this.received.push(m));
  }

  send(message: WebviewMessage): Promise<void> {
    return this.panel.handleMessage(message);
  }

  mark(): number {
    return this.posted.length;
  }

  since(mark: number): HostMessage[] {
    return this.posted.slice(mark);
  }

  async finish(mark: number, timeoutMs = 10_000): Promise<TurnFinish> {
    const message = await until(() => this.since(mark).find((m) => m.type === 'turnFinished'), 'the reply to finish', timeoutMs);
    assert.ok(message.type === 'turnFinished');
    return message.finish;
  }

  deltaText(mark: number): string {
    return this.since(mark)
      .map((m) => (m.type === 'turnDelta' ? m.delta.content?.text ?? '' : ''))
      .join('');
  }

  addedTurns(mark: number): WireTurn[] {
    return this.since(mark).flatMap((m) => (m.type === 'turnAdded' ? [m.turn] : []));
  }

  async init(): Promise<Extract<HostMessage, { type: 'init' }>> {
    const message = await until(() => [...this.posted].reverse().find((m) => m.type === 'init'), 'the webview to load and the host to send init', 20_000);
    assert.ok(message.type === 'init');
    return message;
  }
}

function chatRequests(sim: Simulator) {
  return sim.log.filter((e) => e.path === '/v1/chat/completions');
}

describe('chat panel (issue: chat)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let chat: ChatTesting;
  let storage: string;
  let manager: ChatPanelManager;
  const extras: ChatPanelManager[] = [];

  /** A new chat whose webview has loaded and whose model list has arrived (so no model request races a test's fault). */
  async function openChat(target = manager): Promise<PanelRecorder> {
    const recorder = new PanelRecorder(await target.newChat());
    const init = await recorder.init();
    if (init.models.models.length === 0 || init.models.loading) {
      await until(() => recorder.posted.some((m) => m.type === 'models' && !m.models.loading), 'the model list');
    }
    return recorder;
  }

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 200 });
    const api = await vscode.extensions.getExtension<ModelGatewayApi>('model-gateway.model-gateway')!.activate();
    chat = api.testing.chat as ChatTesting;
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    await config().update('idleTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('idleTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
  });

  beforeEach(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-chat-host-'));
    manager = chat.createManager(storage);
    manager.openExternal = async () => undefined;
    sim.clearLog();
    sim.setDefaultFault(null);
  });

  afterEach(async () => {
    for (const m of [manager, ...extras.splice(0)]) m.dispose();
    await manager.flush();
    // Closing a changed untitled file would ask whether to save it; revert them first.
    for (const document of vscode.workspace.textDocuments.filter((d) => d.isUntitled && d.isDirty)) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('loads the real webview under a strict CSP, with only the built assets as local resources', async () => {
    const recorder = await openChat();
    assert.ok(recorder.received.some((m) => m.type === 'ready'), 'the webview itself said ready');
    const webview = recorder.panel.panel.webview;
    assert.equal(webview.options.enableCommandUris, false);
    assert.equal(webview.options.enableScripts, true);
    // Then the Media history's files, where /image and /speak results are kept (test/host/suite/chatHub.test.ts).
    assert.deepEqual(
      webview.options.localResourceRoots?.slice(0, 2).map((u) => path.relative(vscode.extensions.getExtension('model-gateway.model-gateway')!.extensionPath, u.fsPath)),
      [path.join('dist', 'webview'), path.join('dist', 'codicons')],
    );
    // The attribute as the browser reads it (the page escapes quotes in every attribute).
    const csp = (/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(webview.html)?.[1] ?? '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    // The markdown worker's script: fetched by the page (connect-src names only that file) and started from blob:.
    const worker = /data-worker-markdown="([^"]+)"/.exec(webview.html)?.[1] ?? '';
    // The page's own script, which runs only its worker part in a worker (src/webview/chat/main.ts).
    assert.match(worker, /\/dist\/webview\/chat\.js$/);
    const workerScripts = workerSources(webview.cspSource, [worker.replace(/&amp;/g, '&')]);
    assert.ok(workerScripts.length > 0, 'the resource root can name the worker script');
    assert.deepEqual(cspProblems(csp, { cspSource: webview.cspSource, scripts: true, workerScripts }), [], 'the built policy, read for its meaning');
    assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]{20,}'/);
    assert.match(csp, /worker-src blob:/);
    assert.match(csp, /form-action 'none'/);
    assert.match(csp, /base-uri 'none'/);
    assert.match(csp, /img-src [^;]* data:/);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(webview.html.includes(`<script nonce="${nonce}"`), 'the script carries the nonce');
    assert.ok(!/<script(?![^>]*nonce)/.test(webview.html), 'no script without the nonce');
    const init = await recorder.init();
    assert.deepEqual(init.turns, []);
    // The list comes with init when it was already loaded, else in a models message right after.
    const chatModelsOnly = (m: { models: string[] }) => m.models.includes('model-k3') && !m.models.includes('model-1.0-video-edit');
    await until(() => chatModelsOnly(init.models) || recorder.posted.some((m) => m.type === 'models' && chatModelsOnly(m.models)), 'the chat models');
  });

  it('New Chat takes a model (List Models "start a chat with it")', async () => {
    await vscode.commands.executeCommand('modelGateway.newChat', { model: 'model-5.2' });
    const opened = await until(() => chat.manager.activePanel, 'the new panel');
    assert.equal(opened.controller.session.settings.model, 'model-5.2');
    opened.panel.dispose();
  });

  it('sends a message and streams the reply to the webview as deltas, with usage', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] The quick brown fox jumps over the lazy dog' });
    const finish = await recorder.finish(mark);
    assert.equal(finish.status, 'complete');
    assert.equal(finish.model, 'model-k3');
    assert.ok(finish.usage && finish.usage.completion > 0 && finish.usage.total === finish.usage.prompt + finish.usage.completion, JSON.stringify(finish.usage));
    assert.equal(recorder.deltaText(mark), 'The quick brown fox jumps over the lazy dog');
    const types = recorder.since(mark).map((m) => m.type);
    assert.ok(types.filter((t) => t === 'turnDelta').length >= 1);
    assert.ok(!types.includes('init'), 'the transcript is not sent again while streaming');
    assert.ok(!recorder.received.some((m) => m.type === 'resync'), 'the webview applied every delta without a gap');
    const body = chatRequests(sim).at(-1)?.body as { stream: boolean; stream_options: unknown; messages: unknown[] };
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual(body.messages, [{ role: 'user', content: '[echo] The quick brown fox jumps over the lazy dog' }]);
  });

  it('Stop aborts the HTTP request (the simulator sees the disconnect) and keeps the partial reply', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[long:40] tell me everything' });
    await until(() => recorder.deltaText(mark).length > 20, 'some streamed text');
    await recorder.send({ type: 'stop' });
    const finish = await recorder.finish(mark);
    assert.equal(finish.status, 'stopped');
    assert.equal(finish.error, undefined);
    const aborted = await sim.waitForLog((e) => e.path === '/v1/chat/completions' && e.aborted);
    assert.equal(aborted.aborted, true);
    const kept = recorder.panel.controller.session.turns[1];
    assert.ok(kept.role === 'assistant' && kept.content.length > 20 && kept.content === recorder.deltaText(mark));
  });

  it('Regenerate replaces the last reply with a new request for the same conversation', async () => {
    const recorder = await openChat();
    let mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] first answer please' });
    await recorder.finish(mark);
    const firstReply = recorder.panel.controller.session.turns[1].id;
    mark = recorder.mark();
    await recorder.send({ type: 'regenerate' });
    const finish = await recorder.finish(mark);
    assert.equal(finish.status, 'complete');
    assert.deepEqual(recorder.since(mark)[0], { type: 'turnsRemoved', fromIndex: 1 });
    assert.notEqual(finish.turnId, firstReply);
    const requests = chatRequests(sim);
    assert.equal(requests.length, 2);
    assert.deepEqual((requests[1].body as { messages: unknown }).messages, (requests[0].body as { messages: unknown }).messages);
    assert.equal(recorder.panel.controller.session.turns.length, 2);
  });

  it('editing a user message resends from there and drops what followed', async () => {
    const recorder = await openChat();
    let mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] one' });
    await recorder.finish(mark);
    mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] two' });
    await recorder.finish(mark);
    const firstUser = recorder.panel.controller.session.turns[0].id;
    mark = recorder.mark();
    await recorder.send({ type: 'editResend', turnId: firstUser, text: '[echo] uno' });
    await recorder.finish(mark);
    assert.deepEqual(recorder.since(mark)[0], { type: 'turnsRemoved', fromIndex: 0 });
    assert.deepEqual((chatRequests(sim).at(-1)?.body as { messages: unknown }).messages, [{ role: 'user', content: '[echo] uno' }]);
    assert.deepEqual(
      recorder.panel.controller.session.turns.map((t) => t.content),
      ['[echo] uno', 'uno'],
    );
  });

  it('inserts a code block at the cursor of the editor beside the chat, and opens one in a new file', async () => {
    const recorder = await openChat();
    const document = await vscode.workspace.openTextDocument({ content: 'first line\n', language: 'python' });
    const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false });
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    recorder.panel.reveal();
    await until(() => recorder.panel.panel.active, 'the chat to have focus again');
    await recorder.send({ type: 'codeAction', action: 'insert', code: 'print("hi")\n', lang: 'python' });
    assert.equal(document.getText(), 'first line\nprint("hi")\n');

    await recorder.send({ type: 'codeAction', action: 'new-file', code: 'const x = 1;\n', lang: 'ts' });
    const opened = await until(() => vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText() === 'const x = 1;\n'), 'the new file');
    assert.equal(opened.languageId, 'typescript');
  });

  it('copies a message and a code block to the clipboard', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] copy this reply' });
    await recorder.finish(mark);
    await recorder.send({ type: 'copyTurn', turnId: recorder.panel.controller.session.turns[1].id });
    assert.equal(await vscode.env.clipboard.readText(), 'copy this reply');
    await recorder.send({ type: 'codeAction', action: 'copy', code: 'let y = 2;', lang: 'rust' });
    assert.equal(await vscode.env.clipboard.readText(), 'let y = 2;');
  });

  it('Ask About Selection puts the selection in the chat input as a fenced block with language and file name', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'a = 1\nb = ```2```\nc = 3\n', language: 'python' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 2, 0);
    assert.equal(editor.document, document);
    const panel = await manager.askAboutSelection(editor);
    assert.ok(panel);
    const recorder = new PanelRecorder(panel);
    const draft = await until(() => recorder.posted.find((m) => m.type === 'draft'), 'the draft', 20_000);
    assert.ok(draft.type === 'draft');
    assert.equal(draft.text, `From \`${document.fileName}\` (lines 1–2, python):\n\n\`\`\`\`python\na = 1\nb = \`\`\`2\`\`\`\n\`\`\`\`\n\n`);
  });

  it('a chat hidden behind an editor while it streams shows the whole reply when it comes back', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[long:3] hide and seek' });
    await until(() => recorder.deltaText(mark).length > 0, 'the reply to start');
    const document = await vscode.workspace.openTextDocument({ content: 'cover', language: 'plaintext' });
    await vscode.window.showTextDocument(document, { viewColumn: recorder.panel.panel.viewColumn });
    await until(() => !recorder.panel.panel.visible, 'the chat to be hidden');
    await until(() => !recorder.panel.controller.busy, 'the reply to finish while hidden', 20_000);
    const whileHidden = recorder.mark();
    recorder.panel.reveal();
    const init = await until(() => recorder.since(whileHidden).find((m) => m.type === 'init'), 'a fresh init', 20_000);
    assert.ok(init.type === 'init');
    const reply = init.turns[1];
    assert.ok(reply.role === 'assistant' && reply.status === 'complete');
    assert.equal(reply.content, recorder.panel.controller.session.turns[1].content);
  });

  it('restores an open chat after a reload through the serializer', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] remember this' });
    await recorder.finish(mark);
    const sessionId = recorder.panel.sessionId;
    manager.dispose();
    await manager.flush(); // what deactivate() waits for

    const reloaded = chat.createManager(storage);
    extras.push(reloaded);
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'restoring', vscode.ViewColumn.Active);
    await reloaded.deserializeWebviewPanel(webviewPanel, { sessionId });
    const restored = new PanelRecorder(reloaded.openPanels[0]);
    const init = await restored.init();
    assert.equal(init.sessionId, sessionId);
    assert.equal(init.title, '[echo] remember this');
    assert.deepEqual(
      init.turns.map((t) => [t.role, t.content, t.role === 'assistant' ? t.status : '']),
      [
        ['user', '[echo] remember this', ''],
        ['assistant', 'remember this', 'complete'],
      ],
    );
  });

  it('a reply streaming at shutdown comes back as interrupted, with every token the webview was sent', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[long:40] a long story' });
    await until(() => recorder.deltaText(mark).length > 100, 'some streamed text');
    const sessionId = recorder.panel.sessionId;
    manager.dispose(); // as a window reload does: no Stop, nothing saved as finished
    const shown = recorder.deltaText(mark);
    await sim.waitForLog((e) => e.path === '/v1/chat/completions' && e.aborted);

    const reloaded = chat.createManager(storage);
    extras.push(reloaded);
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'restoring', vscode.ViewColumn.Active);
    await reloaded.deserializeWebviewPanel(webviewPanel, { sessionId });
    const init = await new PanelRecorder(reloaded.openPanels[0]).init();
    const reply = init.turns[1];
    assert.ok(reply.role === 'assistant');
    assert.equal(reply.status, 'interrupted');
    assert.ok(reply.content.startsWith(shown), 'nothing shown before the shutdown is lost');
    assert.equal(reply.error?.kind, 'interrupted');
  });

  it('401: the reply fails inline with Set API Key, and Retry works once the key is fixed', async () => {
    const recorder = await openChat();
    await vscode.commands.executeCommand('modelGateway.setApiKey', 'sk-not-a-real-key');
    try {
      const mark = recorder.mark();
      await recorder.send({ type: 'send', requestId: 1, text: '[echo] hello' });
      const finish = await recorder.finish(mark);
      assert.equal(finish.status, 'failed');
      assert.equal(finish.error?.kind, 'auth');
      assert.deepEqual(finish.error?.actions, ['Set API Key']);
    } finally {
      await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    }
    const mark = recorder.mark();
    await recorder.send({ type: 'regenerate' });
    assert.equal((await recorder.finish(mark)).status, 'complete');
  });

  it('429: the reply fails with the wait to count down, and Retry before it is over waits, unsent, until stopped', async () => {
    const recorder = await openChat();
    // Under a key of its own: the gateway's wait holds every request made with that key (issue 24's pacing), and
    // this suite's other tests use the usual one.
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.keys.restricted);
    try {
      sim.force429(90, 1, '/v1/chat/completions'); // longer than the client waits by itself: the panel gets the error at once
      let mark = recorder.mark();
      await recorder.send({ type: 'send', requestId: 1, text: '[echo] hello' });
      const finish = await recorder.finish(mark);
      assert.equal(finish.status, 'failed');
      assert.equal(finish.error?.kind, 'rate_limit');
      assert.ok(finish.error?.retryInMs !== undefined && finish.error.retryInMs > 80_000 && finish.error.retryInMs <= 90_000, String(finish.error?.retryInMs));
      const sent = chatRequests(sim).length;
      mark = recorder.mark();
      await recorder.send({ type: 'regenerate' });
      const waiting = await until(() => recorder.since(mark).find((m) => m.type === 'turnWaiting' && m.waitMs !== null), 'the countdown to the end of the wait');
      assert.ok(waiting.type === 'turnWaiting' && waiting.waitMs! > 80_000 && waiting.waitMs! <= 90_000, JSON.stringify(waiting));
      assert.equal(chatRequests(sim).length, sent, 'nothing is sent before the gateway\'s wait is over');
      await recorder.send({ type: 'stop' });
      assert.equal((await recorder.finish(mark)).status, 'stopped');
      assert.equal(chatRequests(sim).length, sent);
    } finally {
      await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    }
  });

  it('a stream dropped halfway keeps its text, marked interrupted, and Retry asks again', async () => {
    const recorder = await openChat();
    sim.setDefaultFault('drop-mid-stream', 1);
    let mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] alpha beta gamma delta epsilon zeta eta theta' });
    const finish = await recorder.finish(mark);
    assert.equal(finish.status, 'interrupted');
    assert.equal(finish.error?.kind, 'interrupted');
    assert.equal(recorder.deltaText(mark), 'alpha beta', 'the two tokens sent before the drop are kept');
    mark = recorder.mark();
    await recorder.send({ type: 'regenerate' });
    assert.equal((await recorder.finish(mark)).status, 'complete');
    assert.equal(recorder.deltaText(mark), 'alpha beta gamma delta epsilon zeta eta theta');
  });

  it('a stalled stream is cut off after the idle timeout, keeping its text', async () => {
    const recorder = await openChat();
    sim.setDefaultFault('stall', 1);
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] one two three four' });
    const finish = await recorder.finish(mark, 15_000);
    assert.equal(finish.status, 'interrupted');
    assert.equal(finish.error?.kind, 'timeout');
    assert.equal(recorder.deltaText(mark), 'one two');
  });

  it('a chat longer than the context window offers both ways out: the newest turns go out without the oldest, and the reply says so; a summary opens a new chat with it in the input', async () => {
    await config().update('chat.contextWindow', 600, vscode.ConfigurationTarget.Global);
    try {
      // Ten exchanges of about 100 tokens a message: the history alone is over three times the window.
      const now = Date.now();
      const long = (n: number, who: string) => `${who} ${n}: ${'otters hold hands while they sleep '.repeat(11)}`;
      const turns: Turn[] = [];
      for (let n = 1; n <= 10; n++) {
        turns.push({ id: `u${n}`, role: 'user', createdAt: now, content: long(n, 'Question') });
        turns.push({ id: `a${n}`, role: 'assistant', createdAt: now, model: 'model-k3', content: long(n, 'Answer'), reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null });
      }
      const id = `host-long-${now}`;
      await manager.store.save({ id, title: 'Long otter chat', createdAt: now, updatedAt: now, settings: { ...defaultSettings(), model: 'model-k3' }, turns });
      const recorder = new PanelRecorder((await manager.openSession(id))!);
      await recorder.init();

      let mark = recorder.mark();
      await recorder.send({ type: 'send', requestId: 1, text: '[echo] And the newest question?' });
      const held = await until(() => recorder.since(mark).findLast((m) => m.type === 'context' && m.context.overflow), 'the ways out');
      assert.ok(held.type === 'context' && held.context.overflow);
      assert.deepEqual({ ...held.context.overflow, total: 0 }, { action: 'send', omittedTurns: 16, canSummarize: true, total: 0, window: 600 });
      assert.match(held.context.warning, /^Not sent: the chat would overflow the context window of model-k3 \(≈2,\d{3} of 600 tokens\)\.$/);
      assert.doesNotMatch(held.context.warning, /attachment/);
      assert.ok(recorder.since(mark).some((m) => m.type === 'reply' && m.requestId === 1 && JSON.stringify(m.reply) === JSON.stringify({ sent: false, why: 'heldBack' })), 'the page is told it was held back (it gives the text back to the input)');
      assert.ok(!recorder.since(mark).some((m) => m.type === 'draft'), 'not as a draft');
      assert.equal(chatRequests(sim).length, 0, 'nothing was sent');

      mark = recorder.mark();
      await recorder.send({ type: 'resolveOverflow', requestId: 1, choice: 'newest', text: '[echo] And the newest question?' });
      assert.equal((await recorder.finish(mark)).status, 'complete');
      const body = chatRequests(sim)[0].body as { messages: Array<{ role: string; content: string }> };
      assert.deepEqual(body.messages.map((m) => m.content), [long(9, 'Question'), long(9, 'Answer'), long(10, 'Question'), long(10, 'Answer'), '[echo] And the newest question?'], 'the 16 oldest turns were not sent');
      const reply = recorder.addedTurns(mark).find((t) => t.role === 'assistant');
      assert.ok(reply?.role === 'assistant' && reply.omittedTurns === 16, 'the reply says so');
      await manager.flush();
      const saved = await manager.store.peek(id);
      assert.equal((saved?.turns.at(-1) as AssistantTurn | undefined)?.omittedTurns, 16, 'and keeps saying so after a reload');

      // Regenerate obeys the same rule: held back, nothing sent.
      mark = recorder.mark();
      await recorder.send({ type: 'regenerate' });
      const again = await until(() => recorder.since(mark).findLast((m) => m.type === 'context' && m.context.overflow), 'the ways out for Regenerate');
      assert.ok(again.type === 'context' && again.context.overflow?.action === 'regenerate');
      assert.equal(chatRequests(sim).length, 1);

      // Branch with a Summary: the chat model writes it; a new chat opens with it in its input, and sends nothing.
      await recorder.send({ type: 'resolveOverflow', requestId: 1, choice: 'summary', text: '' });
      const branch = await until(() => manager.openPanels.find((p) => p.sessionId !== id), 'the new chat');
      const summaryBody = chatRequests(sim)[1].body as { messages: Array<{ role: string; content: string }>; max_tokens: number };
      assert.match(summaryBody.messages[0].content, /^Summarize the conversation/);
      assert.match(summaryBody.messages[1].content, /^User:\n/);
      const branched = new PanelRecorder(branch);
      const draft = await until(() => branched.posted.find((m) => m.type === 'draft'), 'the summary in the new chat\'s input', 20_000);
      assert.ok(draft.type === 'draft');
      assert.match(draft.text, /^Summary of our earlier chat “Long otter chat” \(written by model-k3; read and edit it before sending\)\./);
      assert.equal(branch.controller.session.turns.length, 0, 'nothing is sent in the new chat');
      assert.equal(chatRequests(sim).length, 2);
    } finally {
      await config().update('chat.contextWindow', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('exports the session to a Markdown file', async () => {
    const recorder = await openChat();
    const mark = recorder.mark();
    await recorder.send({ type: 'send', requestId: 1, text: '[echo] export me' });
    await recorder.finish(mark);
    const target = vscode.Uri.file(path.join(storage, 'export.md'));
    await manager.exporter.exportChat(manager.activePanel, target);
    const text = fs.readFileSync(target.fsPath, 'utf8');
    assert.match(text, /^# \[echo\] export me\n/);
    assert.match(text, /## You\n\n\[echo\] export me\n\n## Assistant \(model-k3\)\n\nexport me/);
  });

  it('follows the shared model catalog: when it drops its list (gateway or key change), open chats list the models again', async () => {
    const recorder = await openChat();
    const catalog = (vscode.extensions.getExtension<ModelGatewayApi>('model-gateway.model-gateway')!.exports.testing as { models: ModelCatalog }).models;
    const mark = recorder.mark();
    sim.clearLog();
    catalog.invalidate();
    const listed = await until(() => recorder.since(mark).find((m) => m.type === 'models' && !m.models.loading && m.models.models.length > 0), 'the list again');
    assert.ok(listed.type === 'models');
    assert.deepEqual(listed.models.models, ['model-k3', 'model-5.2']);
    assert.equal(sim.log.filter((e) => e.path === '/v1/models').length, 1, 'one request, shared through the catalog');
  });

  it('opens http(s) links through the extension and keeps other schemes inert', async () => {
    const recorder = await openChat();
    const opened: string[] = [];
    manager.openExternal = async (url) => void opened.push(url);
    for (const href of ['https://example.com/docs', 'command:workbench.action.terminal.new', 'vscode://settings/x', 'file:///etc/passwd']) await recorder.send({ type: 'openLink', href });
    assert.deepEqual(opened, ['https://example.com/docs']);
  });
});
