// Characters per token learned per model from the prompt tokens gateways report: samples that cannot be right are
// refused, the average follows the samples by their size within sane bounds, and windows share it through a file.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatRequest } from '../../../src/gateway/types';
import { learn, MAX_CHARS_PER_TOKEN, readTable, sampleRatio, tokenScale, TokenRatios, type RatioTable } from '../../../src/models/core/tokenRatios';
import { chatSample, requestText } from '../../../src/models/core/tokenSample';
import { realClock } from '../../../src/util/clock';

const text = (chars: number): ChatRequest => ({ model: 'm', messages: [{ role: 'system', content: 'x'.repeat(100) }, { role: 'user', content: 'y'.repeat(chars - 100) }] });

describe('token ratios learned from reported usage', () => {
  it('counts the text a request sends, and refuses requests with images or tools', () => {
    assert.deepEqual(requestText(text(1000)), { chars: 1000, messages: 2 });
    assert.deepEqual(requestText({ messages: [{ role: 'user', content: [{ type: 'text', text: 'abc' }] }, { role: 'assistant', content: null }] }), { chars: 3, messages: 2 });
    assert.equal(requestText({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:' } }] }] }), undefined);
    assert.equal(requestText({ messages: [], tools: [{ type: 'function', function: { name: 'f' } }] }), undefined);
    assert.deepEqual(chatSample(text(1000), { prompt_tokens: 256 }), { chars: 1000, messages: 2, promptTokens: 256 });
    assert.equal(chatSample(text(1000), null), undefined);
  });

  it('refuses samples that cannot be right', () => {
    assert.equal(sampleRatio({ chars: 1000, messages: 2, promptTokens: 256 }), 4);
    for (const promptTokens of [0, -5, 1.5, Number.NaN, '256', 1e20, 6, 5000, 1]) assert.equal(sampleRatio({ chars: 1000, messages: 2, promptTokens }), undefined, String(promptTokens));
    assert.equal(sampleRatio({ chars: 100, messages: 1, promptTokens: 28 }), undefined, 'too small to measure');
    assert.equal(sampleRatio({ chars: 1000, messages: 0, promptTokens: 250 }), undefined);
  });

  it('averages the samples by their size, and turns the average into the factor for flat estimates', () => {
    const table: RatioTable = new Map();
    assert.equal(tokenScale(table, 'm'), 1, 'not measured: the flat estimate');
    assert.equal(learn(table, 'm', { chars: 1000, messages: 1, promptTokens: 503 }, 1), true); // 2 chars a token
    assert.equal(table.get('m')!.charsPerToken, 2);
    assert.equal(tokenScale(table, 'm'), 2, 'twice the flat estimate');
    learn(table, 'm', { chars: 3000, messages: 1, promptTokens: 1003 }, 2); // 3 chars a token, three times the size
    assert.equal(table.get('m')!.charsPerToken, 2.75);
    assert.equal(learn(table, 'm', { chars: 3000, messages: 1, promptTokens: 3 + 3000 / (MAX_CHARS_PER_TOKEN * 2) }, 3), false, 'a ratio no tokenizer gives');
    assert.equal(table.get('m')!.charsPerToken, 2.75);
    assert.equal(tokenScale(table, 'other'), 1, 'per model');
  });

  it('reads only sane entries back from the file', () => {
    const table = readTable({ models: { good: { charsPerToken: 3.5, weight: 1000, at: 5 }, huge: { charsPerToken: 1e9, weight: 1, at: 1 }, neg: { charsPerToken: -1, weight: 1, at: 1 }, text: { charsPerToken: '4', weight: 1, at: 1 }, nothing: null } });
    assert.deepEqual([...table.keys()], ['good']);
    assert.equal(readTable('nonsense').size, 0);
  });

  describe('shared by the windows through the file', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-token-ratios-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("keeps each window's samples and what it does not know, and gives a new window the learned ratio", async () => {
      const path = join(dir, 'tokenRatios.json');
      const at = () => TokenRatios.in(dir, realClock);
      writeFileSync(path, JSON.stringify({ newer: true }));
      const a = at();
      const b = at();
      await Promise.all([a.observe('m', { chars: 1000, messages: 1, promptTokens: 503 }), b.observe('n', { chars: 1000, messages: 1, promptTokens: 253 }), a.observe('refused', { chars: 1000, messages: 1, promptTokens: 0 })]);
      const stored = JSON.parse(readFileSync(path, 'utf8')) as { newer: boolean; models: Record<string, unknown> };
      assert.equal(stored.newer, true);
      assert.deepEqual(Object.keys(stored.models).sort(), ['m', 'n']);
      const c = at();
      assert.equal(c.scale('m'), 1, 'nothing known before the file is read');
      await c.loaded();
      assert.equal(c.scale('m'), 2);
      assert.equal(c.scale('n'), 1);
    });
  });
});
