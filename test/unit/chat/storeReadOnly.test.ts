// Storage that cannot be written (read-only folder, full disk): the record is on disk before a request leaves, so
// when it cannot be written nothing is sent, the user is told which folder, and what they typed goes back.
import * as assert from 'node:assert/strict';
import { ChatCompare } from '../../../src/chat/core/chatCompare';
import { ChatContext } from '../../../src/chat/core/chatContext';
import { ChatWebviewBridge, type ChatWorkbench } from '../../../src/chat/core/webviewBridge';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import { settle } from '../../util/fakeClock';
import { result } from './fakes';
import { createHarness } from './harness';

function setup() {
  const told: Error[] = [];
  // chatStoreProvider.ts shows `notSaved` to the user.
  const h = createHarness({ report: { notSaved: (failure) => told.push(failure) } });
  const posted: HostMessage[] = [];
  const bridge = new ChatWebviewBridge(h.controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: [], loading: false }), h.clock, { info() {}, warn() {}, error() {} });
  return { h, told, posted, bridge };
}

async function answered(h: ReturnType<typeof createHarness>, text: string): Promise<void> {
  h.controller.send(text);
  await settle();
  h.gateway.calls.at(-1)!.resolve(result(`Re: ${text}`));
  await h.controller.idle;
}

describe('chat store: storage that cannot be written', () => {
  it('sends nothing when the question cannot be saved, says which folder and why, and gives the text back to the input', async () => {
    const { h, told, posted, bridge } = setup();
    await bridge.handle({ type: 'ready' });
    h.fs.readOnly = true;
    await bridge.handle({ type: 'send', requestId: 1, text: 'Keep me' });
    await settle();
    await h.controller.idle;
    assert.equal(h.gateway.calls.length, 0, 'no request left');
    assert.equal(told.length, 1);
    assert.match(told[0].message, /could not save the chat in \/memory\/chat \(the folder is read-only\), so nothing was sent/);
    assert.deepEqual(h.session.turns, [], 'no turn lives only in memory');
    assert.equal(h.controller.busy, false);
    const draft = posted.filter((m) => m.type === 'draft');
    assert.deepEqual(draft, [{ type: 'draft', text: 'Keep me' }], 'the typed text is back in the input');
    const init = posted.filter((m) => m.type === 'init').at(-1);
    assert.ok(init?.type === 'init' && init.turns.length === 0, 'the transcript shows no unsent question');

    h.fs.readOnly = false;
    await answered(h, 'Keep me');
    assert.equal(h.gateway.calls.length, 1, 'once the folder is writable again, it sends');
  });

  it('a full disk is named as such', async () => {
    const { h, told } = setup();
    const original = h.fs.createExclusive.bind(h.fs);
    h.fs.createExclusive = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    };
    h.controller.send('Big');
    await settle();
    await h.controller.idle;
    h.fs.createExclusive = original;
    assert.equal(h.gateway.calls.length, 0);
    assert.match(told[0]?.message ?? '', /\(the disk is full\)/);
  });

  it('regenerate, and edit and resend, send nothing and keep the conversation as it was', async () => {
    const { h, told } = setup();
    await answered(h, 'First');
    const before = structuredClone(h.session.turns);
    h.fs.readOnly = true;
    assert.equal(await h.controller.regenerate(), true);
    await h.controller.idle;
    assert.deepEqual(h.session.turns, before, 'the old reply is still there');
    await h.controller.editAndResend(before[0].id, 'First, edited');
    await h.controller.idle;
    assert.deepEqual(h.session.turns, before);
    assert.equal(h.gateway.calls.length, 1, 'only the first, saved question was ever sent');
    assert.equal(told.length, 2);
    const notSent = h.events.filter((e) => e.type === 'notSent');
    assert.deepEqual(
      notSent.map((e) => e.type === 'notSent' && e.text),
      ['First, edited'],
    );
  });

  it('compare sends nothing when the chat cannot be saved, and keeping a reply that cannot be saved leaves the comparison open', async () => {
    const { h, told, posted, bridge } = setup();
    let n = 0;
    const context = new ChatContext(h.controller, { sources: { collect: async () => [], fromUris: async () => [], warn: () => undefined }, windowFor: () => ({ tokens: 100_000, source: 'setting' }), newId: () => `a${++n}` });
    const compare = new ChatCompare(h.controller, context, { gateway: async () => h.access.result, clock: h.clock, newId: () => `cmp${++n}`, warn: () => undefined, pickModels: async () => undefined });
    const compareBridge = new ChatWebviewBridge(h.controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: [], loading: false }), h.clock, { info() {}, warn() {}, error() {} }, { context, compare });
    bridge.dispose();
    await compareBridge.handle({ type: 'ready' });
    h.fs.readOnly = true;
    await compareBridge.handle({ type: 'compare', requestId: 1, text: 'Which?', models: ['model-k3', 'model-5.2'] });
    await settle();
    assert.equal(h.gateway.calls.length, 0);
    assert.equal(told.length, 1);
    assert.deepEqual(posted.filter((m) => m.type === 'reply'), [{ type: 'reply', requestId: 1, reply: { started: false } }], 'the page gives the question back to the input');
    assert.deepEqual(posted.filter((m) => m.type === 'draft'), [], 'not as a draft');

    // A message with context: the text goes back to the input and the attachment to the tray.
    const file = { kind: 'text', id: 'f1', source: 'file', path: 'a.ts', language: 'typescript', startLine: 1, endLine: 1, totalLines: 1, text: 'let a;' } as const;
    context.tray.add(file);
    await compareBridge.handle({ type: 'send', requestId: 1, text: 'With context' });
    await settle();
    await h.controller.idle;
    assert.equal(h.gateway.calls.length, 0);
    assert.deepEqual(posted.filter((m) => m.type === 'draft').at(-1), { type: 'draft', text: 'With context' });
    assert.deepEqual(context.tray.attachments, [file], 'the context is attached again');

    h.fs.readOnly = false;
    assert.equal(await compare.start('Which?', ['model-k3', 'model-5.2']), true);
    await settle();
    h.gateway.calls[0].resolve(result('K3'));
    h.gateway.calls[1].resolve(result('Five'));
    await compare.current!.finished;
    h.fs.readOnly = true;
    assert.equal(await compare.keep(compare.state!.id, 0), false);
    assert.deepEqual(h.session.turns, [], 'nothing joined the thread in memory only');
    assert.ok(compare.state, 'the comparison, with its replies, is still open');
    compare.dispose();
    compareBridge.dispose();
  });
});
