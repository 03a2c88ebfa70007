import * as assert from 'node:assert/strict';
import { applyDelta, emptyAssistantTurn, sessionUsage, titleFrom, type AssistantTurn } from '../../../src/chatProtocol/session';
import { buildChatRequest } from '../../../src/chat/core/request';
import { defaultSettings } from '../../../src/chatProtocol/session';

describe('chat model', () => {
  describe('applyDelta', () => {
    it('appends pieces that start where the text ends', () => {
      const turn = emptyAssistantTurn('a', 'm', 0);
      assert.deepEqual(applyDelta(turn, { turnId: 'a', content: { at: 0, text: 'Hel' } }).content, 'Hel');
      assert.deepEqual(applyDelta(turn, { turnId: 'a', content: { at: 3, text: 'lo' }, reasoning: { at: 0, text: 'r' } }), { content: 'lo', reasoning: 'r', refusal: '', toolCallsChanged: false, gap: false });
      assert.equal(turn.content, 'Hello');
    });

    it('is idempotent for pieces it already has, and adds only the overlap remainder', () => {
      const turn: AssistantTurn = { ...emptyAssistantTurn('a', 'm', 0), content: 'Hello' };
      assert.equal(applyDelta(turn, { turnId: 'a', content: { at: 0, text: 'Hello' } }).content, '');
      assert.equal(applyDelta(turn, { turnId: 'a', content: { at: 3, text: 'lo, you' } }).content, ', you');
      assert.equal(turn.content, 'Hello, you');
    });

    it('reports a gap instead of applying a piece from beyond the end', () => {
      const turn = emptyAssistantTurn('a', 'm', 0);
      const applied = applyDelta(turn, { turnId: 'a', content: { at: 4, text: 'late' } });
      assert.equal(applied.gap, true);
      assert.equal(turn.content, '');
    });

    it('builds tool calls from pieces', () => {
      const turn = emptyAssistantTurn('a', 'm', 0);
      applyDelta(turn, { turnId: 'a', toolCalls: [{ index: 0, id: 'c', name: 'f', at: 0, arguments: '{"a"' }] });
      applyDelta(turn, { turnId: 'a', toolCalls: [{ index: 0, at: 4, arguments: ':1}' }] });
      assert.deepEqual(turn.toolCalls, [{ id: 'c', name: 'f', arguments: '{"a":1}' }]);
      assert.equal(applyDelta(turn, { turnId: 'a', toolCalls: [{ index: 3, at: 0, arguments: '' }] }).gap, true);
    });
  });

  it('titles a chat after the first line of its first message', () => {
    assert.equal(titleFrom('\n  How do I sort?\nmore'), 'How do I sort?');
    assert.equal(titleFrom('```ts\ncode\n```'), 'code');
    assert.equal(titleFrom('   '), 'New Chat');
    assert.equal(titleFrom('x'.repeat(100)).length, 48);
  });

  it('adds up the usage of every reply', () => {
    const a = { ...emptyAssistantTurn('a', 'm', 0), usage: { prompt: 1, completion: 2, total: 3 } };
    const b = { ...emptyAssistantTurn('b', 'm', 0), usage: { prompt: 10, completion: 20, total: 30 } };
    assert.deepEqual(sessionUsage({ turns: [a, { id: 'u', role: 'user', createdAt: 0, content: '' }, b, emptyAssistantTurn('c', 'm', 0)] }), { prompt: 11, completion: 22, total: 33 });
  });

  describe('buildChatRequest', () => {
    it('sends temperature or top_p, never both, and only the options that are set', () => {
      const temperature = buildChatRequest([], { ...defaultSettings(), sampling: { mode: 'temperature', value: 0 } }, 'm');
      assert.equal(temperature.temperature, 0);
      assert.equal('top_p' in temperature, false);
      const plain = buildChatRequest([], defaultSettings(), 'm');
      for (const key of ['temperature', 'top_p', 'max_tokens', 'stop', 'response_format']) assert.equal(key in plain, false, key);
      assert.deepEqual(plain.messages, []);
    });

    it('leaves out a whitespace-only system prompt and replies without text', () => {
      const refusal: AssistantTurn = { ...emptyAssistantTurn('a', 'm', 0), refusal: 'No.', status: 'complete' };
      const request = buildChatRequest([{ id: 'u', role: 'user', createdAt: 0, content: 'Q' }, refusal], { ...defaultSettings(), systemPrompt: '  \n' }, 'm');
      assert.deepEqual(request.messages, [{ role: 'user', content: 'Q' }]);
    });
  });
});
