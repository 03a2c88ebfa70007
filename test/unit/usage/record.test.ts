import * as assert from 'node:assert/strict';
import type { GatewayCallReport } from '../../../src/gateway/callReport';
import { recordOf, tokensOf } from '../../../src/usage/core/record';

const base = { time: 1_700_000_000_000, profile: { id: 'default', name: 'Default' }, workspace: 'ws', costHeader: 'x-litellm-response-cost' };
function report(over: Partial<GatewayCallReport>, headers: Record<string, string> = {}): GatewayCallReport {
  return { origin: 'http://gw', operation: 'chat', surface: 'chat', model: 'm', outcome: 'ok', header: (name) => headers[name], ...over };
}

describe('usage records', () => {
  it('takes tokens from usage, with cached and reasoning details', () => {
    assert.deepEqual(tokensOf({ prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 7 } }), {
      inputTokens: 100,
      outputTokens: 20,
      cachedTokens: 40,
      reasoningTokens: 7,
    });
    assert.deepEqual(tokensOf({ prompt_tokens: -1, completion_tokens: 1.5, prompt_tokens_details: { cached_tokens: 'x' } }), {});
    assert.deepEqual(tokensOf({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 11 } }), { inputTokens: 10, outputTokens: 1 });
    assert.deepEqual(tokensOf(null), {});
  });

  it('believes a sane cost header over the prices, and falls back to them when it is odd', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };
    const price = { input: 0.000001, output: 0.00001 };
    const reported = recordOf(report({ usage }, { 'x-litellm-response-cost': '0.0123' }), { ...base, price })!;
    assert.equal(reported.cost, 0.0123);
    assert.equal(reported.costSource, 'reported');
    const odd = recordOf(report({ usage }, { 'x-litellm-response-cost': '-1' }), { ...base, price })!;
    assert.equal(odd.costSource, 'estimated');
    assert.equal(odd.cost!.toFixed(6), '0.002000');
    const inBody = recordOf(report({ usage, usageCost: 0.003 }), { ...base, price })!;
    assert.deepEqual([inBody.cost, inBody.costSource], [0.003, 'reported']);
    const unknown = recordOf(report({ usage }), { ...base, price: undefined })!;
    assert.equal(unknown.costSource, 'unknown');
    assert.equal(unknown.cost, undefined);
  });

  it('never estimates an unfinished image or video request, and reads video seconds reported before requested', () => {
    const failed = recordOf(report({ operation: 'image', outcome: 'error', images: { count: 0, bytes: 0 } }), { ...base, price: { image: 0.04 } })!;
    assert.equal(failed.costSource, 'unknown');
    const video = recordOf(report({ operation: 'video-submit', video: { reported: 6, requested: 8 } }), { ...base, price: { videoSecond: 0.1 } })!;
    assert.equal(video.videoSeconds, 6);
    assert.equal(video.modality, 'video');
    const requested = recordOf(report({ operation: 'video-submit', video: { reported: 'x', requested: 8 } }), { ...base, price: undefined })!;
    assert.equal(requested.videoSeconds, 8);
  });

  it('records speech characters and images, never text', () => {
    const speech = recordOf(report({ operation: 'speech', speechChars: 42 }), { ...base, price: { speechChar: 0.0001 } })!;
    assert.equal(speech.speechChars, 42);
    assert.equal(speech.cost!.toFixed(4), '0.0042');
    const image = recordOf(report({ operation: 'image', images: { count: 2, bytes: 2048, size: '1024x1024' } }), { ...base, price: undefined })!;
    assert.deepEqual([image.images, image.imageBytes, image.imageSize], [2, 2048, '1024x1024']);
  });

  it('records a tagged model list (Test Connection) as free, and leaves out polls and background lists', () => {
    const test = recordOf(report({ operation: 'models', surface: 'test-connection', model: undefined }), { ...base, price: undefined })!;
    assert.deepEqual([test.cost, test.costSource, test.surface], [0, 'estimated', 'test-connection']);
    assert.equal(recordOf(report({ operation: 'models', surface: undefined }), { ...base, price: undefined }), undefined);
    assert.equal(recordOf(report({ operation: 'video-status' }), { ...base, price: undefined }), undefined);
  });

  it('marks cancelled calls', () => {
    const r = recordOf(report({ outcome: 'cancelled', usage: null }), { ...base, price: { input: 1e-6, output: 1e-6 } })!;
    assert.deepEqual([r.outcome, r.costSource], ['cancelled', 'unknown']);
  });
});
