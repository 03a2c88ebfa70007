import * as assert from 'node:assert/strict';
import type { AssistantTurn, UserTurn } from '../../../src/chatProtocol/session';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import { settle } from '../../util/fakeClock';
import { gatewayError, result } from './fakes';
import { createHarness, eventTypes, type Harness } from './harness';

function lastAssistant(h: Harness): AssistantTurn {
  const turn = h.session.turns.at(-1);
  assert.ok(turn && turn.role === 'assistant', 'the last turn is a reply');
  return turn;
}

function deltaText(h: Harness): string {
  return h.events.map((e) => (e.type === 'delta' ? e.delta.content?.text ?? '' : '')).join('');
}

async function sendAndWaitForCall(h: Harness, text: string, callIndex = 0) {
  assert.equal(h.controller.send(text), true);
  await settle();
  const call = h.gateway.calls[callIndex];
  assert.ok(call, 'the request was sent');
  return call;
}

describe('ChatController', () => {
  it('sends the conversation, streams the reply and finishes with usage', async () => {
    const h = createHarness({ settings: { systemPrompt: 'Be brief.', sampling: { mode: 'top_p', value: 0.5 }, maxTokens: 64, stop: ['END'], jsonMode: true } });
    const call = await sendAndWaitForCall(h, 'Hello there');
    assert.deepEqual(call.request.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello there' },
    ]);
    assert.equal(call.request.model, 'model-k3');
    assert.equal(call.request.stream, true);
    assert.deepEqual(call.request.stream_options, { include_usage: true });
    assert.equal(call.request.top_p, 0.5);
    assert.equal(call.request.temperature, undefined);
    assert.equal(call.request.max_tokens, 64);
    assert.deepEqual(call.request.stop, ['END']);
    assert.deepEqual(call.request.response_format, { type: 'json_object' });

    call.emit({ content: 'Hi' });
    call.emit({ content: ' you' });
    await h.clock.advanceAsync(25);
    call.resolve(result('Hi you'));
    await h.controller.idle;

    assert.deepEqual(eventTypes(h.events), ['turnAdded', 'title', 'turnAdded', 'delta', 'turnFinished']);
    const turn = lastAssistant(h);
    assert.equal(turn.content, 'Hi you');
    assert.equal(turn.status, 'complete');
    assert.equal(turn.finishReason, 'stop');
    assert.deepEqual(turn.usage, { prompt: 10, completion: 5, total: 15 });
    assert.equal(h.session.title, 'Hello there');
    assert.equal(h.controller.busy, false);
  });

  it('puts the question on disk before the request leaves', async () => {
    const h = createHarness();
    await sendAndWaitForCall(h, 'Remember me');
    const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
    assert.equal(saved.session.turns[0].content, 'Remember me');
    assert.equal(saved.session.turns[1].status, 'streaming');
  });

  it('reports a reply as finished only once the snapshot on disk says so', async () => {
    const h = createHarness();
    const statusOnDisk: string[] = [];
    h.controller.onEvent((e) => {
      if (e.type === 'turnFinished') statusOnDisk.push(JSON.parse(h.fs.files.get('s1.json') ?? '{}').session.turns[1].status);
    });
    const call = await sendAndWaitForCall(h, 'Hi');
    call.resolve(result('Done'));
    await h.controller.idle;
    assert.deepEqual(statusOnDisk, ['complete']);
  });

  it('gathers deltas for a moment, and journals them before reporting them', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    const turnId = lastAssistant(h).id;
    const journal = `s1.${turnId}.journal`;
    const journaledWhenReported: boolean[] = [];
    h.controller.onEvent((e) => {
      if (e.type === 'delta') journaledWhenReported.push((h.fs.files.get(journal) ?? '').includes(e.delta.content?.text ?? '\u0000'));
    });
    for (const piece of ['a', 'b', 'c']) call.emit({ content: piece });
    assert.equal(h.events.filter((e) => e.type === 'delta').length, 0, 'nothing is reported before the flush interval');
    await h.clock.advanceAsync(25);
    call.emit({ content: 'd' });
    await h.clock.advanceAsync(25);
    const deltas = h.events.flatMap((e) => (e.type === 'delta' ? [e.delta] : []));
    assert.deepEqual(
      deltas.map((d) => d.content),
      [
        { at: 0, text: 'abc' },
        { at: 3, text: 'd' },
      ],
    );
    assert.deepEqual(journaledWhenReported, [true, true]);
    call.resolve(result('abcd'));
    await h.controller.idle;
    assert.equal(h.fs.files.has(journal), false, 'the journal goes once the snapshot holds the reply');
  });

  it('Stop aborts the request and keeps the partial reply, marked stopped', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Tell me a story');
    call.emit({ content: 'Once upon' });
    await h.clock.advanceAsync(25);
    call.emit({ content: ' a time' });
    h.controller.stop();
    await h.controller.idle;
    assert.equal(call.options?.signal?.aborted, true);
    const turn = lastAssistant(h);
    assert.equal(turn.status, 'stopped');
    assert.equal(turn.content, 'Once upon a time');
    assert.equal(turn.error, undefined);
    assert.equal(deltaText(h), 'Once upon a time', 'text still waiting for the flush is reported before the finish');
    assert.equal(h.events.at(-1)?.type, 'turnFinished');
    const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
    assert.equal(saved.session.turns[1].status, 'stopped');
  });

  it('a 401 fails the reply with the Set API Key action', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    call.reject(gatewayError({ status: 401, code: 'unauthorized', message: 'Invalid API key' }));
    await h.controller.idle;
    const turn = lastAssistant(h);
    assert.equal(turn.status, 'failed');
    assert.equal(turn.error?.kind, 'auth');
    assert.deepEqual(
      turn.error?.actions.map((a) => a.command),
      ['modelGateway.setApiKey'],
    );
    assert.match(turn.error?.message ?? '', /127\.0\.0\.1:9/);
  });

  it('a 429 records when the gateway allows the next try', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    call.reject(gatewayError({ status: 429, code: 'rate_limited', retryAfterMs: 7000 }));
    await h.controller.idle;
    const turn = lastAssistant(h);
    assert.equal(turn.status, 'failed');
    assert.equal(turn.error?.kind, 'rate_limit');
    assert.equal(turn.error?.retryAt, h.clock.now() + 7000);
  });

  it('a stream cut off halfway keeps its text, marked interrupted', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    call.emit({ content: 'Half a rep' });
    call.reject(gatewayError({ code: 'stream_interrupted', partial: result('Half a reply', { finishReason: null, usage: null }) }));
    await h.controller.idle;
    const turn = lastAssistant(h);
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.content, 'Half a reply', 'text only in the partial result is kept too');
    assert.equal(turn.error?.kind, 'interrupted');
    assert.equal(deltaText(h), 'Half a reply');
  });

  it('a stalled stream (idle timeout) is interrupted with its text', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    call.emit({ content: 'Some' });
    call.reject(gatewayError({ code: 'timeout', message: 'The gateway sent nothing for 1 s', partial: result('Some', { finishReason: null, usage: null }) }));
    await h.controller.idle;
    assert.equal(lastAssistant(h).status, 'interrupted');
    assert.equal(lastAssistant(h).error?.kind, 'timeout');
  });

  it('without a key or URL the reply fails with the action that fixes it, and nothing is sent', async () => {
    const h = createHarness();
    h.access.result = { ok: false, missing: 'key', origin: 'http://127.0.0.1:9' };
    h.controller.send('Hi');
    await h.controller.idle;
    assert.deepEqual(
      lastAssistant(h).error?.actions.map((a) => a.title),
      ['Set API Key'],
    );
    h.access.result = { ok: false, missing: 'url' };
    await h.controller.regenerate();
    await h.controller.idle;
    assert.deepEqual(
      lastAssistant(h).error?.actions.map((a) => a.command),
      ['modelGateway.setBaseUrl'],
    );
    assert.equal(h.gateway.calls.length, 0);
  });

  it('refuses a second message while a reply runs', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'One');
    assert.equal(h.controller.send('Two'), false);
    call.resolve(result('ok'));
    await h.controller.idle;
    assert.equal(h.session.turns.length, 2);
  });

  it('includes earlier replies with text, and leaves out failed ones without text', async () => {
    const h = createHarness();
    let call = await sendAndWaitForCall(h, 'First');
    call.emit({ content: 'Answer one' });
    call.resolve(result('Answer one'));
    await h.controller.idle;
    call = await sendAndWaitForCall(h, 'Second', 1);
    call.reject(gatewayError({ status: 500, code: 'server_error' }));
    await h.controller.idle;
    call = await sendAndWaitForCall(h, 'Third', 2);
    assert.deepEqual(call.request.messages, [
      { role: 'user', content: 'First' },
      { role: 'assistant', content: 'Answer one' },
      { role: 'user', content: 'Second' },
      { role: 'user', content: 'Third' },
    ]);
    call.resolve(result('x'));
    await h.controller.idle;
  });

  it('Regenerate replaces the last reply and asks again with the same conversation', async () => {
    const h = createHarness();
    const first = await sendAndWaitForCall(h, 'Question');
    first.emit({ content: 'Old answer' });
    first.resolve(result('Old answer'));
    await h.controller.idle;
    const oldId = lastAssistant(h).id;
    h.events.length = 0;

    assert.equal(await h.controller.regenerate(), true);
    await settle();
    const second = h.gateway.calls[1];
    assert.deepEqual(second.request.messages, [{ role: 'user', content: 'Question' }]);
    assert.deepEqual(h.events[0], { type: 'turnsRemoved', fromIndex: 1 });
    second.emit({ content: 'New answer' });
    second.resolve(result('New answer'));
    await h.controller.idle;
    assert.equal(h.session.turns.length, 2);
    assert.equal(lastAssistant(h).content, 'New answer');
    assert.notEqual(lastAssistant(h).id, oldId);
  });

  it('editing a user message drops it and everything after, then asks again from there', async () => {
    const h = createHarness();
    let call = await sendAndWaitForCall(h, 'Frist question');
    call.resolve(result('A1'));
    await h.controller.idle;
    call = await sendAndWaitForCall(h, 'Second question', 1);
    call.resolve(result('A2'));
    await h.controller.idle;
    const firstUserId = h.session.turns[0].id;
    h.events.length = 0;

    assert.equal(await h.controller.editAndResend(firstUserId, 'First question'), true);
    await settle();
    assert.deepEqual(h.events.slice(0, 2).map((e) => e.type), ['turnsRemoved', 'turnAdded']);
    assert.deepEqual(h.gateway.calls[2].request.messages, [{ role: 'user', content: 'First question' }]);
    assert.equal(h.session.title, 'First question');
    h.gateway.calls[2].resolve(result('A1b'));
    await h.controller.idle;
    assert.deepEqual(
      h.session.turns.map((t) => t.content),
      ['First question', 'A1b'],
    );
  });

  it('editing while a reply runs stops that reply first', async () => {
    const h = createHarness();
    const running = await sendAndWaitForCall(h, 'Slow one');
    running.emit({ content: 'partial' });
    const userId = h.session.turns[0].id;
    assert.equal(await h.controller.editAndResend(userId, 'Quick one'), true);
    await settle();
    assert.equal(running.options?.signal?.aborted, true);
    assert.equal(h.gateway.calls.length, 2);
    assert.equal((h.session.turns[0] as UserTurn).content, 'Quick one');
    h.gateway.calls[1].resolve(result('done'));
    await h.controller.idle;
  });

  it('keeps reasoning, refusals and tool calls from the stream', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Use a tool');
    call.emit({ reasoning: 'Let me think' });
    call.emit({ toolCalls: [{ index: 0, id: 'call_1', type: 'function', name: 'lookup', arguments: '{"q":' }] });
    call.emit({ toolCalls: [{ index: 0, arguments: '"x"}' }] });
    await h.clock.advanceAsync(25);
    call.resolve(result('', { finishReason: 'tool_calls', reasoning: 'Let me think', toolCalls: [{ id: 'call_1', type: 'function', name: 'lookup', arguments: '{"q":"x"}' }] }));
    await h.controller.idle;
    const turn = lastAssistant(h);
    assert.equal(turn.reasoning, 'Let me think');
    assert.deepEqual(turn.toolCalls, [{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }]);
    assert.equal(turn.finishReason, 'tool_calls');
    const delta = h.events.find((e) => e.type === 'delta');
    assert.ok(delta && delta.type === 'delta');
    assert.deepEqual(delta.delta.toolCalls, [{ index: 0, id: 'call_1', name: 'lookup', at: 0, arguments: '{"q":"x"}' }]);
  });

  it('a non-streamed answer (no deltas) still reaches the transcript as a delta', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Hi');
    call.resolve(result('Whole answer at once'));
    await h.controller.idle;
    assert.equal(deltaText(h), 'Whole answer at once');
    assert.equal(lastAssistant(h).content, 'Whole answer at once');
  });

  it('takes the default model when the session has none, and says so', async () => {
    const h = createHarness({ settings: { model: '' }, defaultModel: 'model-5.2' });
    const call = await sendAndWaitForCall(h, 'Hi');
    assert.equal(call.request.model, 'model-5.2');
    assert.equal(h.session.settings.model, 'model-5.2');
    assert.ok(h.events.some((e) => e.type === 'settings'));
    call.resolve(result('ok'));
    await h.controller.idle;
  });

  it('fails plainly when there is no model at all', async () => {
    const h = createHarness({ settings: { model: '' }, defaultModel: undefined });
    h.controller.send('Hi');
    await h.controller.idle;
    assert.equal(lastAssistant(h).status, 'failed');
    assert.match(lastAssistant(h).error?.message ?? '', /model/);
    assert.equal(h.gateway.calls.length, 0);
  });

  it('a shutdown mid-reply leaves the session for the next load to restore as interrupted, with every reported token', async () => {
    const h = createHarness();
    const call = await sendAndWaitForCall(h, 'Long answer please');
    call.emit({ content: 'First part, ' });
    await h.clock.advanceAsync(25);
    call.emit({ content: 'second part' });
    h.controller.dispose();
    await settle();
    assert.equal(call.options?.signal?.aborted, true, 'the request is not left running');
    assert.equal(h.events.at(-1)?.type, 'delta', 'nothing is reported after the shutdown');

    const reloaded = await new ChatSessionStore(h.fs).load('s1');
    assert.ok(reloaded);
    const turn = reloaded.turns[1];
    assert.ok(turn.role === 'assistant');
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.content, 'First part, second part');
    assert.equal(turn.error?.kind, 'interrupted');
  });

  it('updateSettings saves the session and reports the change', async () => {
    const h = createHarness();
    await h.controller.updateSettings({ ...h.session.settings, sampling: { mode: 'temperature', value: 0.3 } });
    assert.deepEqual(h.events, [{ type: 'settings', settings: h.session.settings }]);
    const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
    assert.deepEqual(saved.session.settings.sampling, { mode: 'temperature', value: 0.3 });
  });
});
