import * as assert from 'node:assert/strict';
import { cleanHostMessage, parseHostMessage, type HostMessage } from '../../../src/chatProtocol/messages';
import { defaultSettings, LIMITS, type AssistantTurn } from '../../../src/chatProtocol/session';
import { cleanSettings, cleanTurn, cleanTurnDelta, isChatSettings, repairSession, usageFromGateway } from '../../../src/chatProtocol/sessionData';
import { settingsFromDefaults } from '../../../src/chat/core/chatModels';
import { clip, conforms, sameData } from '../../../src/chatProtocol/validate';

function reply(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'a1',
    role: 'assistant',
    createdAt: 2,
    model: 'model-k3',
    content: 'The text that must survive.',
    reasoning: 'why',
    refusal: '',
    toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":1}' }],
    status: 'complete',
    finishReason: 'stop',
    usage: { prompt: 10, completion: 5, total: 15 },
    ...extra,
  };
}

describe('chat session data: one normaliser, strict checks derived from it', () => {
  it('leaves valid data exactly as it is', () => {
    const turn = reply({ error: { message: 'Rate limited', kind: 'rate_limit', actions: [{ title: 'Set API Key', command: 'modelGateway.setApiKey', args: [1] }], retryAt: 5 } });
    assert.ok(conforms(turn, cleanTurn));
    assert.ok(conforms({ id: 'u1', role: 'user', createdAt: 1, content: 'Hi' }, cleanTurn));
    assert.ok(conforms({ ...defaultSettings(), sampling: { mode: 'top_p', value: 0.5 }, maxTokens: 64, stop: ['END'] }, cleanSettings));
    assert.ok(conforms({ turnId: 'a1', content: { at: 3, text: 'x' }, toolCalls: [{ index: 0, id: 'c', at: 0, arguments: '{' }] }, cleanTurnDelta));
  });

  it('repairs each bad field of a reply and keeps its text (the fields issue 11 §2 found)', () => {
    const repaired = cleanTurn(
      reply({
        model: 'm'.repeat(300),
        finishReason: 'f'.repeat(150),
        usage: { prompt: 7, completion: 3 },
        toolCalls: [{ id: 'i'.repeat(300), name: 'lookup', arguments: '{}' }, 'not a call'],
        status: 'thinking',
        extra: 'field',
      }),
    ) as AssistantTurn;
    assert.equal(repaired.content, 'The text that must survive.');
    assert.equal(repaired.model.length, LIMITS.model);
    assert.equal(repaired.finishReason?.length, LIMITS.finishReason);
    assert.deepEqual(repaired.usage, { prompt: 7, completion: 3, total: 10 });
    assert.deepEqual(
      repaired.toolCalls.map((c) => c.id.length),
      [LIMITS.toolCallId],
    );
    assert.equal(repaired.status, 'interrupted', 'an unknown state shows as a reply that did not finish');
    assert.ok(!('extra' in repaired));
    assert.ok(conforms(repaired, cleanTurn), 'what the cleaner returns passes the strict check');
  });

  it('reads the gateway usage with whatever it lacks filled in', () => {
    assert.deepEqual(usageFromGateway({ prompt_tokens: 12, completion_tokens: 8 }), { prompt: 12, completion: 8, total: 20 });
    assert.deepEqual(usageFromGateway({ total_tokens: 9 }), { prompt: 0, completion: 0, total: 9 });
    assert.deepEqual(usageFromGateway({ prompt_tokens: -1, completion_tokens: 'x', total_tokens: 4.6 }), { prompt: 0, completion: 0, total: 5 });
    assert.equal(usageFromGateway({ foo: 1 }), null);
    // The cost beside the tokens (OpenRouter's usage.cost, or the ledger's): kept when sane, else left out, never 0.
    assert.deepEqual(usageFromGateway({ prompt_tokens: 1, completion_tokens: 1, cost: 0.002 }), { prompt: 1, completion: 1, total: 2, cost: 0.002 });
    for (const cost of [-1, Number.NaN, 1e9, '0.1']) assert.deepEqual(usageFromGateway({ prompt_tokens: 1, completion_tokens: 1, cost }), { prompt: 1, completion: 1, total: 2 });
    assert.equal(usageFromGateway('lots'), null);
  });

  it('repairs a stored session turn by turn: a bad turn is repaired or dropped, never the session', () => {
    const result = repairSession(
      {
        id: 's1',
        title: 'Kept',
        createdAt: 1,
        updatedAt: 2,
        settings: { ...defaultSettings(), model: 'x'.repeat(500), maxTokens: -3 },
        turns: [
          { id: 'u1', role: 'user', createdAt: 1, content: 'Question' },
          reply({ usage: { prompt: 1, completion: 1 } }),
          { id: 'u1', role: 'user', createdAt: 1, content: 'same id again' },
          { id: '../etc', role: 'user', createdAt: 1, content: 'a path for an id' },
          // A role this version does not know is a newer version's kind of turn: kept, not dropped.
          { id: 's', role: 'system', content: 'unknown role' },
          { id: 'u2', role: 'user', createdAt: 3, content: 'Second question' },
        ],
      },
      's1',
    );
    assert.ok(result);
    assert.deepEqual(
      result.session.turns.map((t) => t.id),
      ['u1', 'a1', 's', 'u2'],
    );
    assert.equal(result.session.turns[2].role, 'newer');
    assert.equal(result.repaired, 1);
    assert.equal(result.dropped, 2);
    assert.equal(result.session.title, 'Kept');
    assert.equal(result.session.settings.model.length, LIMITS.model);
    assert.equal(result.session.settings.maxTokens, null);
    assert.equal(repairSession({ id: 's1', title: 'no turns at all' }, 's1'), undefined);
  });

  it('clips text without splitting a surrogate pair', () => {
    assert.equal(clip('ab😀', 3), 'ab');
    assert.equal(clip('ab😀', 4), 'ab😀');
  });

  it('compares data deeply, counting an undefined field as absent', () => {
    assert.ok(sameData({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }] }));
    assert.ok(!sameData({ a: [1] }, { a: [1, 2] }));
    assert.ok(!sameData({ a: 1 }, { a: 1, b: 2 }));
  });

  it("a new chat's settings from odd user settings are ones the webview accepts", () => {
    const settings = settingsFromDefaults({ model: 'm'.repeat(300), systemPrompt: 'Be brief.', temperature: 7, topP: undefined, maxTokens: 0 });
    assert.ok(isChatSettings(settings));
    assert.equal(settings.model.length, LIMITS.model);
    assert.deepEqual(settings.sampling, { mode: 'temperature', value: 2 });
    assert.equal(settings.maxTokens, null);
  });

  describe('what the host sends the webview', () => {
    it('trims an init with over 1,000 chat models and an over-long id to what the webview accepts', () => {
      const models = ['i'.repeat(201), ...Array.from({ length: 1200 }, (_, i) => `model-${i}`)];
      const init: HostMessage = { type: 'init', sessionId: 's1', title: 'Chat', settings: defaultSettings(), turns: [], models: { models, loading: false } };
      assert.equal(parseHostMessage(init).ok, false, 'as it was, the webview refuses it');
      const sent = cleanHostMessage(init);
      assert.ok(sent && sent.type === 'init');
      assert.ok(parseHostMessage(sent).ok);
      assert.equal(sent.models.models.length, LIMITS.models);
      assert.equal(sent.models.models[0], 'model-0', 'ids are left out, never clipped into another name');
    });

    it('trims a finish with bad fields so the reply still ends in the webview', () => {
      const finish = { turnId: 'a1', status: 'complete', model: 'm'.repeat(300), finishReason: 'r'.repeat(150), usage: { prompt: 1, completion: 2 }, error: undefined } as unknown as HostMessage & { type: 'turnFinished' };
      const message = { type: 'turnFinished', finish } as unknown as HostMessage;
      assert.equal(parseHostMessage(message).ok, false);
      const sent = cleanHostMessage(message);
      assert.ok(sent && parseHostMessage(sent).ok);
    });

    it('sends nothing when a message has nothing usable', () => {
      assert.equal(cleanHostMessage({ type: 'turnsRemoved', fromIndex: -1 }), undefined);
    });
  });
});
