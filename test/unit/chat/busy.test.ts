// "Busy" has one owner, the chat controller (ChatController.refusal): while a reply runs nothing new starts, and the
// bridge (a message, a slash command), the context and Compare refuse by its answer, not by a check of their own.
import * as assert from 'node:assert/strict';
import { ChatCompare } from '../../../src/chat/core/chatCompare';
import { ChatContext } from '../../../src/chat/core/chatContext';
import { ChatWebviewBridge, type BridgeMediaHub, type ChatWorkbench } from '../../../src/chat/core/webviewBridge';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import { settle } from '../../util/fakeClock';
import { result } from './fakes';
import { createHarness } from './harness';

function setup() {
  const h = createHarness();
  const warnings: string[] = [];
  let n = 0;
  const context = new ChatContext(h.controller, { sources: { collect: async () => [], fromUris: async () => [], warn: (m) => warnings.push(m) }, windowFor: () => ({ tokens: 100_000, source: 'setting' }), newId: () => `a${++n}` });
  const compare = new ChatCompare(h.controller, context, { gateway: async () => h.access.result, clock: h.clock, newId: () => `cmp${++n}`, warn: (m) => warnings.push(m), pickModels: async () => undefined });
  const slashCommands: string[] = [];
  const hub = { handleSend: (text: string) => text.startsWith('/') && slashCommands.push(text) > 0, readAloud: () => undefined, action: async () => undefined, wire: (t) => t } as BridgeMediaHub;
  const posted: HostMessage[] = [];
  const log = { info: () => undefined, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  const bridge = new ChatWebviewBridge(h.controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: ['model-k3'], loading: false }), h.clock, log, { context, compare, hub });
  const replies = () => posted.filter((m) => m.type === 'reply').map((m) => (m.type === 'reply' ? m.reply : undefined));
  return { h, context, compare, bridge, replies, slashCommands, warnings };
}

describe('chat: one owner of "busy"', () => {
  it("is the controller's: 'busy' while a reply runs, and nothing then", async () => {
    const { h } = setup();
    assert.equal(h.controller.refusal, undefined);
    assert.equal(h.controller.send('Hi'), true);
    await settle();
    assert.equal(h.controller.refusal, 'busy');
    assert.equal(h.controller.busy, true);
    assert.equal(h.controller.send('Again'), false);
    h.gateway.calls[0].resolve(result('Hello'));
    await h.controller.idle;
    assert.equal(h.controller.refusal, undefined);
    assert.equal(h.controller.busy, false);
  });

  it("every layer refuses by the controller's answer: the bridge (messages and slash commands), the context, Compare, a kept reply", async () => {
    const { h, context, compare, bridge, replies, slashCommands, warnings } = setup();
    await bridge.handle({ type: 'ready' });
    // The controller says busy with no reply running: only its answer can make the others refuse.
    let answer: 'busy' | undefined = 'busy';
    Object.defineProperty(h.controller, 'refusal', { get: () => answer });
    await bridge.handle({ type: 'send', requestId: 1, text: 'Hi' });
    await bridge.handle({ type: 'send', requestId: 2, text: '/image a cat' });
    assert.deepEqual(replies(), [{ sent: false, why: 'busy' }, { sent: false, why: 'busy' }]);
    assert.deepEqual(slashCommands, []);
    assert.equal(context.send('Hi'), false);
    assert.equal(await compare.start('Which?', ['model-k3', 'model-5.2']), false);
    assert.match(warnings.join('\n'), /before comparing models/);
    assert.equal(await h.controller.keepReply({ text: 'Q', attachments: [] }, { model: 'model-k3', content: 'A', status: 'complete', usage: null, finishReason: 'stop' }), false);
    assert.equal(h.gateway.calls.length, 0);
    assert.deepEqual(h.session.turns, []);

    answer = undefined;
    await bridge.handle({ type: 'send', requestId: 3, text: '/image a cat' });
    assert.deepEqual(replies().at(-1), { sent: true });
    assert.deepEqual(slashCommands, ['/image a cat']);
  });
});
