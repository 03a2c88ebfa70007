import * as assert from 'node:assert/strict';
import { amountOf, countOf } from '../../../src/usage/core/numbers';
import { estimateCost, PriceBook, priceOfModelEntry, readPriceSetting } from '../../../src/usage/core/prices';

describe('usage prices', () => {
  it('reads OpenRouter pricing as strings or numbers', () => {
    assert.deepEqual(priceOfModelEntry({ id: 'a', pricing: { prompt: '0.000003', completion: 0.000015, image: '0.04', request: '0' } }), {
      input: 0.000003,
      output: 0.000015,
      image: 0.04,
      request: 0,
    });
  });

  it("reads LiteLLM's fields at the top level and in model_info", () => {
    assert.deepEqual(priceOfModelEntry({ id: 'b', input_cost_per_token: 1e-6, output_cost_per_token: 2e-6, cache_read_input_token_cost: 1e-7 }), { input: 1e-6, output: 2e-6, cacheRead: 1e-7 });
    assert.deepEqual(priceOfModelEntry({ id: 'c', model_info: { output_cost_per_image: 0.02, output_cost_per_second: 0.5, input_cost_per_character: 0.000015 } }), {
      image: 0.02,
      videoSecond: 0.5,
      speechChar: 0.000015,
    });
  });

  it('refuses negative, NaN, huge and exponent-notation prices, keeping them unknown', () => {
    for (const bad of ['-0.1', 'NaN', '1e-6', '1E3', ' ', '', '0x10', '1,5', 'Infinity', -1, NaN, Infinity, 5, '5', null, {}, [], true]) {
      assert.equal(priceOfModelEntry({ pricing: { prompt: bad } }), undefined, `prompt ${JSON.stringify(bad)}`);
    }
    assert.equal(priceOfModelEntry({ pricing: { image: '100000' } }), undefined);
    assert.equal(priceOfModelEntry({ id: 'x' }), undefined);
    assert.equal(priceOfModelEntry('nope'), undefined);
  });

  it('checks amounts and counts strictly', () => {
    assert.equal(amountOf('0.25', 1), 0.25);
    assert.equal(amountOf('1.5e-05', 1), undefined);
    assert.equal(amountOf('+1', 1), undefined);
    assert.equal(amountOf('2', 1), undefined);
    assert.equal(amountOf('9'.repeat(60), Infinity), undefined);
    assert.equal(countOf(12), 12);
    for (const bad of [-1, 1.5, NaN, 2 ** 60, '12', 1e9]) assert.equal(countOf(bad), undefined, String(bad));
  });

  it('lets the user setting override the gateway per model and field', () => {
    const { prices, problems } = readPriceSetting({ a: { output: 0.00002 }, b: { input_cost_per_token: 0.000001, bogus: 1 }, c: { input: -1 }, d: 'x' });
    assert.equal(problems.length, 3, problems.join('\n'));
    const book = PriceBook.fromModels([{ id: 'a', pricing: { prompt: '0.000003', completion: '0.000015' } }], prices);
    assert.deepEqual(book.priceOf('a'), { input: 0.000003, output: 0.00002 });
    assert.deepEqual(book.priceOf('b'), { input: 0.000001 });
    assert.equal(book.priceOf('c'), undefined);
    assert.equal(book.priceOf('unlisted'), undefined);
  });

  it('estimates chat with cached tokens, and media by image, second and character', () => {
    const price = { input: 0.000002, output: 0.00001, cacheRead: 0.0000005, request: 0.001 };
    assert.equal(estimateCost(price, { modality: 'chat', inputTokens: 1000, outputTokens: 100, cachedTokens: 400 })!.toFixed(6), (600 * 0.000002 + 400 * 0.0000005 + 100 * 0.00001 + 0.001).toFixed(6));
    assert.equal(estimateCost({ image: 0.04 }, { modality: 'image', images: 2 }), 0.08);
    assert.equal(estimateCost({ videoSecond: 0.5 }, { modality: 'video', videoSeconds: 8 }), 4);
    assert.equal(estimateCost({ speechChar: 0.00001 }, { modality: 'speech', speechChars: 1000 }), 0.01);
  });

  it('keeps a cost unknown when a needed price or figure is missing', () => {
    assert.equal(estimateCost(undefined, { modality: 'chat', inputTokens: 1, outputTokens: 1 }), undefined);
    assert.equal(estimateCost({ input: 0.000001 }, { modality: 'chat', inputTokens: 10, outputTokens: 5 }), undefined);
    assert.equal(estimateCost({ input: 0.000001, output: 0.000001 }, { modality: 'chat' }), undefined);
    assert.equal(estimateCost({ input: 0.000001 }, { modality: 'image', images: 1 }), undefined);
    assert.equal(estimateCost({ image: 0.1 }, { modality: 'video', videoSeconds: 4 }), undefined);
  });
});

describe('prices from every model list', () => {
  it("reads OpenRouter's /videos/models pricing_skus per second (USD or cents), the highest when priced per resolution", () => {
    assert.deepEqual(priceOfModelEntry({ id: 'google/veo', pricing_skus: { duration_seconds_without_audio_720p: '0.03', duration_seconds_with_audio_1080p: '0.4' } }), { videoSecond: 0.4 });
    assert.deepEqual(priceOfModelEntry({ id: 'runway/gen', pricing_skus: { cents_per_second_output: '12' } }), { videoSecond: 0.12 });
    assert.equal(priceOfModelEntry({ id: 'x', pricing_skus: { video_tokens: '0.00001', cents_per_megapixel_second: '3' } }), undefined);
    assert.equal(priceOfModelEntry({ id: 'x', pricing_skus: { duration_seconds: '-1' } }), undefined);
  });

  it("prices video per second and speech per character from LiteLLM's /model/info, as merged into the list", () => {
    const book = PriceBook.fromModels([
      { id: 'veo', model_info: { mode: 'video_generation', output_cost_per_second: 0.35 } },
      { id: 'tts', model_info: { mode: 'audio_speech', input_cost_per_character: 0.000015 } },
    ]);
    assert.equal(estimateCost(book.priceOf('veo'), { modality: 'video', videoSeconds: 8 }), 0.35 * 8);
    assert.equal(estimateCost(book.priceOf('tts'), { modality: 'speech', speechChars: 1000 }), 0.000015 * 1000);
  });
});
