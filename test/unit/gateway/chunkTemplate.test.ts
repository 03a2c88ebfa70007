// The chunk-template fast path must give exactly what a full JSON.parse of every chunk gives.

import * as assert from 'node:assert/strict';
import { ChatStreamAccumulator } from '../../../src/gateway/chatStream';
import { ChunkTemplate } from '../../../src/gateway/chunkTemplate';
import type { ChatDelta } from '../../../src/gateway/types';

/** Feeds through handleEvent (template on) and, as the reference, through handleChunk(JSON.parse) only. */
function both(events: string[]) {
  const fastDeltas: ChatDelta[] = [];
  const refDeltas: ChatDelta[] = [];
  const fast = new ChatStreamAccumulator((d) => fastDeltas.push(d));
  const ref = new ChatStreamAccumulator((d) => refDeltas.push(d));
  for (const data of events) {
    fast.handleEvent('message', data);
    if (data === '[DONE]') ref.done = true;
    else if (!ref.closed) {
      try {
        ref.handleChunk(JSON.parse(data));
      } catch {
        ref.failure = { kind: 'invalid-json', payload: data };
      }
    }
  }
  return { fast, ref, fastDeltas, refDeltas };
}

function chunk(content: unknown, extra: Record<string, unknown> = {}, choice: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null, ...choice }],
    ...extra,
  });
}

function assertSame(events: string[]): ReturnType<typeof both> {
  const run = both(events);
  assert.deepEqual(run.fast.choices(), run.ref.choices());
  assert.deepEqual(run.fast.result(), run.ref.result());
  assert.deepEqual(run.fastDeltas, run.refDeltas);
  assert.equal(run.fast.failure === null, run.ref.failure === null);
  return run;
}

describe('gateway: chunk template fast path', () => {
  it('matches plain chunks and decodes escapes, quotes, control characters and non-ASCII text', () => {
    const pieces = ['Hello', ' "quoted"', ' back\\slash', '\n\tnew line', ' é 漢字 🎉', '\u2028', '', '</script>', ' \u0001'];
    const run = assertSame(pieces.map((p) => chunk(p)));
    assert.equal(run.fast.result().content, pieces.join(''));
  });

  it('falls back to a full parse when the middle is not a single string literal', () => {
    const prefix = chunk('X').split('X')[0];
    const suffix = chunk('X').split('X')[1];
    const events = [
      chunk('a'),
      chunk('b'),
      `${prefix}x"},"finish_reason":"stop","y":{"z":"${suffix}`,
      `${prefix}c${suffix}`,
      `${prefix}bad \\q escape${suffix}`,
    ];
    const run = assertSame(events);
    assert.equal(run.fast.failure?.kind, 'invalid-json');
  });

  it('learns a new template when the id changes and never uses one across a finish, usage or error chunk', () => {
    const events = [
      chunk('a'),
      chunk('b'),
      chunk('c', { id: 'chatcmpl-2' }),
      chunk('d', { id: 'chatcmpl-2' }),
      chunk('', {}, { finish_reason: 'stop' }),
      chunk('e', { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
      chunk('f', { error: { message: 'boom' } }),
      chunk('g'),
    ];
    const run = assertSame(events);
    assert.equal(run.fast.result().content, 'abcde');
    assert.deepEqual(run.fast.responseIdsSeen, ['chatcmpl-1', 'chatcmpl-2']);
    assert.equal(run.fast.failure?.kind, 'error-object-in-stream');
  });

  it('ignores chunks that are not plain content chunks (role, several choices, tool calls, content arrays)', () => {
    const events = [
      JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: 'r' }, finish_reason: null }] }),
      JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { role: 'assistant', content: 'r' }, finish_reason: null }] }),
      JSON.stringify({ id: 'x', choices: [{ index: 1, delta: { content: 'one' }, finish_reason: null }] }),
      JSON.stringify({ id: 'x', choices: [{ index: 1, delta: { content: 'two' }, finish_reason: null }] }),
      chunk([{ type: 'text', text: 'part' }]),
      chunk([{ type: 'text', text: 'part' }]),
      JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'n' }, finish_reason: null }, { index: 1, delta: { content: 'm' } }] }),
      JSON.stringify({ id: 'x', choices: [{ index: 0, delta: { content: 'n' }, finish_reason: null }, { index: 1, delta: { content: 'm' } }] }),
    ];
    assertSame(events);
  });

  it('random streams: identical to the full parse', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const alphabet = ['a', ' ', '"', '\\', '\n', 'é', '🎉', '\u0000', '}', ']', ',', ':', '{'];
    for (let stream = 0; stream < 200; stream++) {
      const events: string[] = [];
      let id = 'chatcmpl-a';
      for (let i = 0; i < 30; i++) {
        const r = random();
        let text = '';
        for (let k = Math.floor(random() * 6); k > 0; k--) text += alphabet[Math.floor(random() * alphabet.length)];
        if (r < 0.05) id = `chatcmpl-${i}`;
        if (r < 0.8) events.push(chunk(text, { id }));
        else if (r < 0.85) events.push(chunk(text, { id }, { finish_reason: 'stop' }));
        else if (r < 0.9) events.push(chunk(null, { id }));
        else if (r < 0.95) events.push(JSON.stringify({ id, choices: [], usage: { total_tokens: i } }));
        else events.push(chunk(text, { id, system_fingerprint: `fp_${i}` }));
      }
      events.push('[DONE]');
      assertSame(events);
    }
  });

  it('stops learning after templates that never match', () => {
    const template = new ChunkTemplate();
    const first = chunk('x', { created: 100 });
    template.learn(first, JSON.parse(first));
    assert.equal(template.match(chunk('hit', { created: 100 })), 'hit');
    for (let i = 0; i < 20; i++) {
      const data = chunk('x', { created: i });
      assert.equal(template.match(data), undefined);
      template.learn(data, JSON.parse(data));
    }
    for (let i = 0; i < 20; i++) assert.equal(template.match(chunk('y', { created: i })), undefined, `template ${i} still active`);
  });
});
