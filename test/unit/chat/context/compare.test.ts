import * as assert from 'node:assert/strict';
import { ChatCompare } from '../../../../src/chat/core/chatCompare';
import { ChatContext } from '../../../../src/chat/core/chatContext';
import { parseHostMessage, parseWebviewMessage, type CompareState } from '../../../../src/chatProtocol/messages';
import type { TextAttachment, } from '../../../../src/chatProtocol/attachments';
import type { UserTurn } from '../../../../src/chatProtocol/session';
import { settle } from '../../../util/fakeClock';
import { gatewayError, result } from '../fakes';
import { createHarness } from '../harness';

function setup(picked: string[] | undefined = undefined) {
  const h = createHarness();
  const warnings: string[] = [];
  let n = 0;
  const context = new ChatContext(h.controller, { sources: { collect: async () => [], fromUris: async () => [], warn: (m) => warnings.push(m) }, windowFor: () => ({ tokens: 100_000, source: 'setting' }), newId: () => `a${++n}` });
  const compare = new ChatCompare(h.controller, context, { gateway: async () => h.access.result, clock: h.clock, newId: () => `cmp${++n}`, warn: (m) => warnings.push(m), pickModels: async () => picked });
  const states: Array<CompareState | null> = [];
  compare.onDidChange((s) => states.push(s));
  return { h, context, compare, states, warnings };
}

describe('chat context: compare', () => {
  it('asks two models the same question with the same context, times each reply, and keeps the chosen one in the thread', async () => {
    const { h, context, compare, states } = setup();
    const file: TextAttachment = { kind: 'text', id: 'f1', source: 'file', path: 'src/a.ts', language: 'typescript', startLine: 1, endLine: 1, totalLines: 1, text: 'let a = 1;' };
    context.tray.add(file);
    assert.equal(await compare.start('Which is better?', ['model-k3', 'model-5.2']), true);
    await settle();
    assert.deepEqual(h.gateway.calls.map((c) => c.request.model), ['model-k3', 'model-5.2']);
    assert.equal(h.gateway.calls[0].request.messages.at(-1)?.content, h.gateway.calls[1].request.messages.at(-1)?.content);
    assert.match(String(h.gateway.calls[0].request.messages.at(-1)?.content), /File `src\/a\.ts`[\s\S]*Which is better\?$/);

    await h.clock.advanceAsync(300);
    h.gateway.calls[0].emit({ content: 'K3 says ' });
    await h.clock.advanceAsync(200);
    h.gateway.calls[1].emit({ content: 'Five says' });
    h.gateway.calls[0].emit({ content: 'hi' });
    h.gateway.calls[0].resolve(result('K3 says hi', { usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } }));
    await h.clock.advanceAsync(500);
    h.gateway.calls[1].resolve(result('Five says', { model: 'model-5.2' }));
    await compare.current!.finished;
    const done = compare.state!;
    assert.deepEqual(done.columns.map((c) => [c.model, c.content, c.status, c.firstTokenMs, c.totalMs]), [
      ['model-k3', 'K3 says hi', 'complete', 300, 500],
      ['model-5.2', 'Five says', 'complete', 500, 1000],
    ]);
    assert.deepEqual(done.columns[0].usage, { prompt: 10, completion: 3, total: 13 });
    assert.ok(parseHostMessage({ type: 'compare', compare: done }).ok, 'the state fits the protocol');
    assert.equal(h.session.turns.length, 0, 'nothing joins the thread before the user keeps a reply');

    assert.equal(await compare.keep(done.id, 1), true);
    const [question, reply] = h.session.turns;
    assert.equal(question.role, 'user');
    assert.deepEqual((question as UserTurn).attachments, [file]);
    assert.ok(reply.role === 'assistant' && reply.model === 'model-5.2' && reply.content === 'Five says' && reply.status === 'complete');
    assert.equal(context.state.chips.length, 0, 'the context went with the kept question');
    assert.equal(states.at(-1), null, 'the comparison closed');
    const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
    assert.equal(saved.session.turns[1].content, 'Five says');
    compare.dispose();
    context.dispose();
  });

  it('shows a failed model next to the others, never keeps it, and a close stops what still runs', async () => {
    const { h, compare, context } = setup(['model-k3', 'model-5.2', 'model-x']);
    assert.equal(await compare.start('Q', []), true, 'the models come from the picker');
    await settle();
    assert.equal(h.gateway.calls.length, 3);
    h.gateway.calls[2].reject(gatewayError({ status: 404, code: 'model_not_found', message: 'no such model' }));
    h.gateway.calls[0].resolve(result('ok'));
    await h.clock.advanceAsync(100);
    const state = compare.state!;
    assert.equal(state.columns[2].status, 'failed');
    assert.match(state.columns[2].error, /no such model/);
    assert.equal(await compare.keep(state.id, 2), false);
    assert.equal(await compare.keep(state.id, 1), false, 'a reply still streaming cannot be kept');
    compare.close();
    await settle();
    assert.equal(h.gateway.calls[1].options?.signal?.aborted, true);
    assert.equal(h.session.turns.length, 0);
    compare.dispose();
    context.dispose();
  });

  it('keeps a stalled column marked interrupted with the reason, exactly as a stalled reply in the chat', async () => {
    const { h, compare, context } = setup();
    assert.equal(await compare.start('Q', ['model-k3', 'model-5.2']), true);
    await settle();
    h.gateway.calls[0].emit({ content: 'Half a ' });
    h.gateway.calls[0].reject(gatewayError({ code: 'timeout', message: 'The gateway sent nothing for 60 s; the reply was cut off.', partial: result('Half a ') }));
    h.gateway.calls[1].resolve(result('Whole'));
    await compare.current!.finished;
    const state = compare.state!;
    assert.equal(state.columns[0].status, 'interrupted');
    assert.match(state.columns[0].error, /stopped answering\. The gateway sent nothing for 60 s/);
    assert.ok(parseHostMessage({ type: 'compare', compare: state }).ok, 'the state fits the protocol');

    assert.equal(await compare.keep(state.id, 0), true);
    const reply = h.session.turns[1];
    assert.ok(reply.role === 'assistant');
    assert.equal(reply.content, 'Half a ');
    assert.equal(reply.status, 'interrupted', 'not complete: the reply broke off');
    assert.equal(reply.error?.kind, 'timeout');
    assert.match(reply.error?.message ?? '', /sent nothing for 60 s; the reply was cut off/);
    assert.deepEqual(reply.error?.actions.map((a) => a.title), ['Test Connection', 'Open Logs']);
    const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
    assert.equal(saved.session.turns[1].status, 'interrupted', 'saved as interrupted');
    compare.dispose();
    context.dispose();
  });

  it('refuses to compare when the chat and question would overflow a model\'s context window, sending nothing', async () => {
    const h = createHarness();
    h.session.turns.push({ id: 'u0', role: 'user', createdAt: 0, content: 'x'.repeat(4000) });
    const warnings: string[] = [];
    const context = new ChatContext(h.controller, { sources: { collect: async () => [], fromUris: async () => [], warn: () => undefined }, windowFor: (model) => ({ tokens: model === 'small' ? 500 : 100_000, source: 'model' }), newId: () => 'a' });
    const compare = new ChatCompare(h.controller, context, { gateway: async () => h.access.result, clock: h.clock, newId: () => 'cmp', warn: (m) => warnings.push(m), pickModels: async () => undefined });
    assert.equal(await compare.start('Q', ['model-k3', 'small']), false);
    assert.match(warnings[0], /^Not compared: the chat and the question would overflow the context window of small\./);
    await settle();
    assert.equal(h.gateway.calls.length, 0);
    assert.equal(await compare.start('Q', ['model-k3', 'model-5.2']), true);
    compare.dispose();
    context.dispose();
  });

  it('needs 2 or 3 models and no running reply; a cancelled pick starts nothing', async () => {
    const one = setup(['model-k3']);
    assert.equal(await one.compare.start('Q', []), false);
    assert.match(one.warnings[0], /2 or 3 different models \(1 chosen\)/);
    const cancelled = setup(undefined);
    assert.equal(await cancelled.compare.start('Q', []), false);
    assert.equal(cancelled.warnings.length, 0);
    assert.equal(await cancelled.compare.start('Q', ['a', 'a']), false, 'the same model twice is one model');
    assert.equal(parseWebviewMessage({ type: 'compare', requestId: 1, text: 'Q', models: ['a', 'b', 'c', 'd'] }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'keepCompare', id: 'c1', index: 3 }).ok, false);
    assert.ok(parseWebviewMessage({ type: 'compare', requestId: 1, text: 'Q', models: [] }).ok);
  });
});
