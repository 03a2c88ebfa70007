import * as assert from 'node:assert/strict';
import type { ChatSession } from '../../../src/chatProtocol/session';
import { ChatWebviewBridge, type ChatWorkbench } from '../../../src/chat/core/webviewBridge';
import { settle } from '../../util/fakeClock';
import { parseHostMessage, parseWebviewMessage, type HostMessage } from '../../../src/chatProtocol/messages';
import type { CodeApply } from '../../../src/chatProtocol/codeApply';
import type { ApplyRequest } from '../../../src/chat/core/apply/applyTarget';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import { gatewayError, result } from './fakes';
import { createHarness, type Harness } from './harness';

class RecordingWorkbench implements ChatWorkbench {
  readonly calls: Array<[string, ...unknown[]]> = [];
  async copyText(text: string) {
    this.calls.push(['copyText', text]);
  }
  async insertAtCursor(code: string) {
    this.calls.push(['insertAtCursor', code]);
  }
  async openInNewFile(code: string, language: string) {
    this.calls.push(['openInNewFile', code, language]);
  }
  async openExternal(url: string) {
    this.calls.push(['openExternal', url]);
  }
  async runCommand(command: string, args: unknown[]) {
    this.calls.push(['runCommand', command, args]);
  }
  async exportSession(session: Readonly<ChatSession>) {
    this.calls.push(['exportSession', session.id]);
  }
  async newChat() {
    this.calls.push(['newChat']);
  }
  async refreshModels() {
    this.calls.push(['refreshModels']);
  }
  async changeProfile(sessionId: string) {
    this.calls.push(['changeProfile', sessionId]);
  }
  applyResult: Omit<CodeApply, 'at'> | undefined;
  async applyCode(request: ApplyRequest) {
    this.calls.push(['applyCode', request]);
    return this.applyResult;
  }
}

function setup(): { h: Harness; bridge: ChatWebviewBridge; posted: HostMessage[]; workbench: RecordingWorkbench; warnings: string[] } {
  const h = createHarness();
  const posted: HostMessage[] = [];
  const warnings: string[] = [];
  const workbench = new RecordingWorkbench();
  const bridge = new ChatWebviewBridge(h.controller, workbench, (m) => posted.push(m), () => ({ models: ['model-k3'], loading: false }), h.clock, {
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
  });
  return { h, bridge, posted, workbench, warnings };
}

describe('ChatWebviewBridge', () => {
  it('posts nothing until the webview is ready, then the whole session once', async () => {
    const { h, bridge, posted } = setup();
    await h.controller.updateSettings({ ...h.session.settings, jsonMode: true });
    bridge.postDraft('draft text');
    assert.equal(posted.length, 0);
    await bridge.handle({ type: 'ready' });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['init', 'draft'],
    );
    const init = posted[0] as HostMessage;
    assert.ok(init.type === 'init');
    assert.equal(init.settings.jsonMode, true);
    assert.deepEqual(init.models, { models: ['model-k3'], loading: false });
  });

  it("handles the page's `ready` itself: hasLoaded and onDidLoad (the panel and its manager only listen), not on resync", async () => {
    const { bridge } = setup();
    let loads = 0;
    bridge.onDidLoad(() => loads++);
    await bridge.handle({ type: 'resync' });
    assert.equal(bridge.hasLoaded, false);
    assert.equal(loads, 0);
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'ready' });
    assert.equal(bridge.hasLoaded, true);
    assert.equal(loads, 2, 'a page built again says ready again');
  });

  it("sends a prompt file's text as a message, never as a slash command, whatever it starts with", async () => {
    const h = createHarness();
    const commands: string[] = [];
    const hub = { handleSend: (text: string) => (commands.push(text), text.startsWith('/')), readAloud: () => undefined, action: async () => undefined, wire: () => { throw new Error('no media'); } };
    const bridge = new ChatWebviewBridge(h.controller, new RecordingWorkbench(), () => undefined, () => ({ models: ['model-k3'], loading: false }), h.clock, { info: () => undefined, warn: () => undefined, error: () => undefined }, { hub });
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'sendPrompt', requestId: 1, text: '/video a paid job, from a repository file' });
    await settle();
    assert.deepEqual(commands, [], 'the media hub never saw it');
    assert.equal(h.gateway.calls.length, 1, 'it went to the chat model as a message');
    assert.ok(parseWebviewMessage({ type: 'sendPrompt', requestId: 2, text: '/video x' }).ok);
  });

  it('streams a reply to the webview as deltas, never the transcript again', async () => {
    const { h, bridge, posted } = setup();
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'send', requestId: 1, text: 'Hi' });
    await settle();
    const call = h.gateway.calls[0];
    call.emit({ content: 'Hel' });
    await h.clock.advanceAsync(25);
    call.emit({ content: 'lo' });
    await h.clock.advanceAsync(25);
    call.resolve(result('Hello'));
    await h.controller.idle;
    assert.deepEqual(
      posted.map((m) => m.type),
      ['init', 'turnAdded', 'title', 'turnAdded', 'reply', 'turnDelta', 'turnDelta', 'turnFinished'],
    );
    const finish = posted.at(-1);
    assert.ok(finish?.type === 'turnFinished');
    assert.deepEqual(finish.finish, { turnId: h.session.turns[1].id, status: 'complete', model: 'model-k3', finishReason: 'stop', usage: { prompt: 10, completion: 5, total: 15 } });
  });

  it('sends error actions as titles and the wait as time remaining', async () => {
    const { h, bridge, posted } = setup();
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'send', requestId: 1, text: 'Hi' });
    await settle();
    h.gateway.calls[0].reject(gatewayError({ status: 429, code: 'rate_limited', retryAfterMs: 4000 }));
    await h.controller.idle;
    h.clock.advance(1000);
    posted.length = 0;
    await bridge.handle({ type: 'resync' });
    const init = posted[0];
    assert.ok(init.type === 'init');
    const reply = init.turns[1];
    assert.ok(reply.role === 'assistant');
    const { message, ...rest } = reply.error ?? { message: '' };
    assert.equal(message, 'Rate limited by http://127.0.0.1:9, try again in 4 s. rate_limited.', 'the wait as it was when the error came');
    assert.deepEqual(rest, { kind: 'rate_limit', actions: [], retryInMs: 3000 });
  });

  it('runs an error action by its index, and only the actions advice offers', async () => {
    const { h, bridge, workbench, warnings } = setup();
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'send', requestId: 1, text: 'Hi' });
    await settle();
    h.gateway.calls[0].reject(gatewayError({ status: 401, code: 'unauthorized' }));
    await h.controller.idle;
    const replyId = h.session.turns[1].id;
    await bridge.handle({ type: 'errorAction', turnId: replyId, index: 0 });
    assert.deepEqual(workbench.calls, [['runCommand', 'modelGateway.setApiKey', []]]);

    const reply = h.session.turns[1];
    assert.ok(reply.role === 'assistant' && reply.error);
    reply.error.actions.push({ title: 'Evil', command: 'workbench.action.terminal.sendSequence', args: ['rm -rf ~\n'] });
    await bridge.handle({ type: 'errorAction', turnId: replyId, index: 1 });
    await bridge.handle({ type: 'errorAction', turnId: replyId, index: 5 });
    assert.equal(workbench.calls.length, 1);
    assert.match(warnings.join('\n'), /refused to run workbench\.action\.terminal\.sendSequence/);
  });

  it('runs only the actions advice offers, with their own arguments: not any of this extension\'s commands', async () => {
    const { h, bridge, workbench, warnings } = setup();
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'send', requestId: 1, text: 'Hi' });
    await settle();
    h.gateway.calls[0].reject(gatewayError({ status: 401, code: 'unauthorized' }));
    await h.controller.idle;
    const reply = h.session.turns[1];
    assert.ok(reply.role === 'assistant' && reply.error);
    // As a session file could hold them: an advice action, one of ours that advice never offers (it deletes the
    // ledger), and an advice action with arguments of its own.
    reply.error.actions.push(
      { title: 'Change the Limit', command: 'workbench.action.openSettings', args: ['modelGateway.media.maxSizeMB'] },
      { title: 'Clear', command: 'modelGateway.clearUsage' },
      { title: 'Settings', command: 'workbench.action.openSettings', args: ['http.proxy'] },
    );
    for (const index of [1, 2, 3]) await bridge.handle({ type: 'errorAction', turnId: reply.id, index });
    assert.deepEqual(workbench.calls, [['runCommand', 'workbench.action.openSettings', ['modelGateway.media.maxSizeMB']]]);
    assert.match(warnings.join('\n'), /refused to run modelGateway\.clearUsage/);
    assert.match(warnings.join('\n'), /refused to run workbench\.action\.openSettings/);
  });

  it("runs a failed media turn's advice actions, and only those that turn offers and advice lists", async () => {
    const { h, bridge, workbench, warnings, posted } = setup();
    await bridge.handle({ type: 'ready' });
    const base = { role: 'media' as const, createdAt: 1, kind: 'image' as const, content: '/image a cat', prompt: 'a cat', model: 'model-image-1.0' };
    // As a session file could hold them: advice's own action, then one of this extension's commands advice never offers.
    await h.controller.addMediaTurn({ ...base, id: 'mfailed', state: 'failed', detail: 'API key missing.', actions: [{ title: 'Set API Key', command: 'modelGateway.setApiKey' }, { title: 'Clear', command: 'modelGateway.clearUsage' }] });
    await h.controller.addMediaTurn({ ...base, id: 'mdone', state: 'complete' });
    const added = posted.filter((m) => m.type === 'turnAdded').map((m) => (m.type === 'turnAdded' ? m.turn : undefined));
    assert.deepEqual(added.map((t) => t && 'actions' in t && t.actions), [['Set API Key', 'Clear'], false], 'the page is sent titles only');

    await bridge.handle({ type: 'errorAction', turnId: 'mfailed', index: 0 });
    assert.deepEqual(workbench.calls, [['runCommand', 'modelGateway.setApiKey', []]]);
    // Offered by the turn but not an action advice offers; not offered by the turn (past its list); a turn that
    // offers nothing (it did not fail), whatever it holds.
    await bridge.handle({ type: 'errorAction', turnId: 'mfailed', index: 1 });
    await bridge.handle({ type: 'errorAction', turnId: 'mfailed', index: 2 });
    const done = h.session.turns.find((t) => t.id === 'mdone');
    assert.ok(done?.role === 'media');
    done.actions = [{ title: 'Set API Key', command: 'modelGateway.setApiKey' }];
    await bridge.handle({ type: 'errorAction', turnId: 'mdone', index: 0 });
    await bridge.handle({ type: 'errorAction', turnId: 'unknown1', index: 0 });
    assert.equal(workbench.calls.length, 1);
    assert.match(warnings.join('\n'), /refused to run modelGateway\.clearUsage/);
  });

  it('opens only http and https links, checking them again', async () => {
    const { bridge, workbench, warnings } = setup();
    for (const href of ['https://example.com/x', 'command:workbench.action.terminal.new', 'vscode://settings', 'file:///etc/passwd', 'javascript:alert(1)']) {
      await bridge.handle({ type: 'openLink', href });
    }
    assert.deepEqual(workbench.calls, [['openExternal', 'https://example.com/x']]);
    assert.equal(warnings.length, 4);
  });

  it('routes code block actions and message copies', async () => {
    const { h, bridge, workbench } = setup();
    await bridge.handle({ type: 'codeAction', action: 'copy', code: 'a', lang: 'ts' });
    await bridge.handle({ type: 'codeAction', action: 'insert', code: 'b', lang: 'ts' });
    await bridge.handle({ type: 'codeAction', action: 'new-file', code: 'c', lang: 'python' });
    h.controller.send('Copy me');
    await bridge.handle({ type: 'copyTurn', turnId: h.session.turns[0].id });
    await bridge.handle({ type: 'exportSession' });
    await bridge.handle({ type: 'newChat' });
    await bridge.handle({ type: 'refreshModels' });
    assert.deepEqual(workbench.calls, [
      ['copyText', 'a'],
      ['insertAtCursor', 'b'],
      ['openInNewFile', 'c', 'python'],
      ['copyText', 'Copy me'],
      ['exportSession', 's1'],
      ['newChat'],
      ['refreshModels'],
    ]);
    h.controller.stop();
    await h.controller.idle;
  });

  it('applies a block with the path its stored reply names, and saves on the reply what the user decided', async () => {
    const { h, bridge, workbench } = setup();
    h.controller.send('Fix it');
    await settle();
    const reply = 'Try:\n\n```ts src/a.ts\nexport const a = 2;\n```\n';
    h.gateway.calls[0].resolve(result(reply));
    await h.controller.idle;
    const turn = h.session.turns[1];
    workbench.applyResult = { path: 'src/a.ts', outcome: 'applied' };
    await bridge.handle({ type: 'applyCode', turnId: turn.id, code: 'export const a = 2;\n', lang: 'ts' });
    workbench.applyResult = { path: 'src/a.ts', outcome: 'discarded' };
    // A block the reply does not hold keeps only the language the view sent, never a path.
    await bridge.handle({ type: 'applyCode', turnId: turn.id, code: 'other', lang: 'ts' });
    workbench.applyResult = undefined;
    await bridge.handle({ type: 'applyCode', turnId: '', code: 'from a comparison', lang: 'py' });
    assert.deepEqual(workbench.calls, [
      ['applyCode', { code: 'export const a = 2;\n', info: 'ts src/a.ts', replyAt: turn.createdAt }],
      ['applyCode', { code: 'other', info: 'ts', replyAt: turn.createdAt }],
      ['applyCode', { code: 'from a comparison', info: 'py', replyAt: undefined }],
    ]);
    const now = h.clock.now();
    const expected = [{ path: 'src/a.ts', outcome: 'applied', at: now }, { path: 'src/a.ts', outcome: 'discarded', at: now }];
    assert.deepEqual(turn.role === 'assistant' && turn.applies, expected);
    await h.store.flush();
    const saved = await h.store.load(h.session.id);
    const savedReply = saved?.turns[1];
    assert.deepEqual(savedReply?.role === 'assistant' && savedReply.applies, expected, 'the record round-trips through the session file');
    assert.equal(parseWebviewMessage({ type: 'applyCode', turnId: '../x', code: 'a', lang: 'ts' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'applyCode', turnId: '', code: '', lang: 'ts' }).ok, false);
  });

  it('answers each send with its typed reply: sent, or not sent while a reply runs (never a draft)', async () => {
    const { h, bridge, posted } = setup();
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'send', requestId: 7, text: 'Hi' });
    await settle();
    await bridge.handle({ type: 'send', requestId: 8, text: 'Too soon' });
    assert.deepEqual(posted.filter((m) => m.type === 'reply'), [
      { type: 'reply', requestId: 7, reply: { sent: true } },
      { type: 'reply', requestId: 8, reply: { sent: false, why: 'busy' } },
    ]);
    assert.deepEqual(posted.filter((m) => m.type === 'draft'), []);
    assert.ok(posted.every((m) => parseHostMessage(m).ok), 'the page accepts every reply');
    h.gateway.calls[0].resolve(result('Hello'));
    await h.controller.idle;
  });

  it('a request that fails is answered with its error, so the page never waits on it', async () => {
    const { bridge, posted, warnings } = setup();
    const failing = new ChatWebviewBridge(createHarness().controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: [], loading: false }), createHarness().clock, { info() {}, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) }, {
      compare: { start: async () => Promise.reject(new Error('no models')), onDidChange: () => ({ dispose() {} }), state: undefined } as never,
    });
    bridge.dispose();
    await failing.handle({ type: 'ready' });
    await failing.handle({ type: 'compare', requestId: 3, text: 'Q', models: [] });
    assert.deepEqual(posted.filter((m) => m.type === 'reply'), [{ type: 'reply', requestId: 3, error: 'no models' }]);
    assert.match(warnings.join('\n'), /compare failed: no models/);
  });

  it('drops and logs malformed messages without acting on them', async () => {
    const { h, bridge, workbench, warnings, posted } = setup();
    await bridge.handle({ type: 'send', requestId: 1, text: 'x', extra: true });
    await bridge.handle({ type: 'unknown' });
    await bridge.handle('ready');
    assert.equal(h.session.turns.length, 0);
    assert.deepEqual(workbench.calls, []);
    assert.deepEqual(posted, []);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /dropped a message from the webview \(send: unexpected field\)/);
  });

  it('stops posting when the webview goes away and starts again with a fresh init', async () => {
    const { h, bridge, posted } = setup();
    await bridge.handle({ type: 'ready' });
    bridge.markNotLive();
    await h.controller.updateSettings({ ...h.session.settings, stop: ['x'] });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['init'],
    );
    await bridge.handle({ type: 'ready' });
    const init = posted.at(-1);
    assert.ok(init?.type === 'init');
    assert.deepEqual(init.settings.stop, ['x']);
  });

  it('brings a webview that was kept while hidden up to date when it shows again', async () => {
    const { h, bridge, posted } = setup();
    await bridge.handle({ type: 'ready' });
    bridge.markNotLive();
    await h.controller.updateSettings({ ...h.session.settings, jsonMode: true });
    bridge.revive();
    bridge.revive();
    assert.deepEqual(
      posted.map((m) => m.type),
      ['init', 'init'],
    );
  });

  it('a reply with bad fields still ends in the webview, and is saved whole (issue 11 §2)', async () => {
    const { h, bridge, posted, warnings } = setup();
    await bridge.handle({ type: 'ready' });
    h.controller.send('Hi');
    await settle();
    const call = h.gateway.calls[0];
    call.emit({ content: 'Kept text', toolCalls: [{ index: 0, id: 'i'.repeat(300), name: 'n'.repeat(300), arguments: '{}' }, { index: 500, id: 'x', arguments: '' }] });
    const usage = { prompt_tokens: 3, completion_tokens: 4 } as unknown as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    call.resolve(result('Kept text', { model: 'm'.repeat(300), finishReason: 'f'.repeat(150), usage, toolCalls: [{ id: 'i'.repeat(300), type: 'function', name: 'n'.repeat(300), arguments: '{}' }] }));
    await h.controller.idle;

    const webviewWouldRefuse = posted.filter((m) => !parseHostMessage(m).ok).map((m) => m.type);
    assert.deepEqual(webviewWouldRefuse, []);
    const finished = posted.find((m) => m.type === 'turnFinished');
    assert.ok(finished?.type === 'turnFinished', 'the reply ends in the webview');
    assert.deepEqual(finished.finish.usage, { prompt: 3, completion: 4, total: 7 });
    assert.deepEqual(warnings, [], 'the controller stored it clean, so nothing had to be trimmed on the way');

    const repairs: string[] = [];
    const reloaded = await new ChatSessionStore(h.fs, { report: { repaired: (id) => repairs.push(id) } }).load('s1');
    assert.deepEqual(repairs, [], 'the saved file needs no repair');
    assert.deepEqual(
      reloaded?.turns.map((t) => t.content),
      ['Hi', 'Kept text'],
    );
  });

  it('trims what it sends to what the webview accepts, so no odd field blanks the chat', async () => {
    const h = createHarness();
    const posted: HostMessage[] = [];
    const warnings: string[] = [];
    const models = ['m'.repeat(201), ...Array.from({ length: 1100 }, (_, i) => `model-${i}`)];
    const bridge = new ChatWebviewBridge(h.controller, new RecordingWorkbench(), (m) => posted.push(m), () => ({ models, loading: false }), h.clock, {
      info: () => undefined,
      warn: (m) => warnings.push(m),
      error: (m) => warnings.push(m),
    });
    await bridge.handle({ type: 'ready' });
    bridge.postModels({ models, loading: false });
    assert.deepEqual(
      posted.map((m) => [m.type, parseHostMessage(m).ok]),
      [
        ['init', true],
        ['models', true],
      ],
    );
    assert.deepEqual(warnings, ['Chat: trimmed init to what the webview accepts (an over-long or malformed field).', 'Chat: trimmed models to what the webview accepts (an over-long or malformed field).']);
  });

  it('logs why the webview refused a message', async () => {
    const { bridge, warnings } = setup();
    await bridge.handle({ type: 'refused', reason: 'init: bad models' });
    assert.match(warnings[0], /refused a message from VS Code \(init: bad models\)/);
  });

  it("never lets the page change the chat's profile: only the header's button, which asks the host", async () => {
    const { h, bridge, posted, workbench } = setup();
    await h.controller.updateSettings({ ...h.session.settings, profile: 'p-work' });
    await bridge.handle({ type: 'ready' });
    await bridge.handle({ type: 'updateSettings', settings: { ...h.session.settings, jsonMode: true, profile: 'p-other' } });
    assert.equal(h.controller.session.settings.profile, 'p-work');
    assert.equal(h.controller.session.settings.jsonMode, true, 'the rest of the settings are taken');
    await bridge.handle({ type: 'changeProfile' });
    assert.deepEqual(workbench.calls, [['changeProfile', h.session.id]]);
    bridge.postProfile('Work');
    assert.deepEqual(posted.at(-1), { type: 'profile', name: 'Work' });
  });
});
