import * as assert from 'node:assert/strict';
import { listPlanOf } from '../../../src/models/core/modelSources';
import { gatherModels, withModelInfo } from '../../../src/models/core/modelListing';
import { ModelCatalog } from '../../../src/models/core/modelCatalog';
import type { ListModelsOptions, Model } from '../../../src/gateway/types';
import { apiDouble } from '../../util/apiDouble';
import { FakeClock } from '../../util/fakeClock';
import { FakeSource, ManualGateway, flush, model } from './fakes';

/** A gateway answering each list at once; `lists` absent for one: it does not serve it (404). */
function gateway(lists: Partial<Record<'models' | 'all' | 'modelInfo' | 'videoModels', Model[]>>) {
  const asked: Array<ListModelsOptions | undefined> = [];
  const api = apiDouble({
    listModels: async (options?: ListModelsOptions) => {
      asked.push(options);
      const name = options?.list ?? (options?.allModalities ? 'all' : 'models');
      const answer = lists[name as keyof typeof lists];
      if (!answer) throw Object.assign(new Error('Not Found'), { status: 404 });
      return answer;
    },
  });
  return { api, asked };
}

describe('Model lists per gateway (modelSources)', () => {
  it('asks OpenRouter for every modality and for its video list, and nothing of LiteLLM\'s', async () => {
    const { api, asked } = gateway({
      all: [model('openai/gpt-5', { architecture: { output_modalities: ['text'] } }), model('google/gemini-image', { architecture: { output_modalities: ['image', 'text'] } }), model('openai/tts', { architecture: { output_modalities: ['audio'] } })],
      videoModels: [model('google/veo-3.1'), model('acme/clip-1')],
    });
    const result = await gatherModels(api, { openrouter: true }, undefined);
    assert.deepEqual(result.models.map((m) => [m.entry.id, m.listedIn]), [['openai/gpt-5', undefined], ['google/gemini-image', undefined], ['openai/tts', undefined], ['google/veo-3.1', 'videoModels'], ['acme/clip-1', 'videoModels']]);
    assert.ok(asked.some((o) => o?.allModalities === true), '?output_modalities=all');
    assert.ok(!asked.some((o) => o?.list === 'modelInfo'));
  });

  it('probes LiteLLM\'s /model/info once: its mode and prices join the entries; a gateway without it is not asked again', async () => {
    const litellm = gateway({ models: [model('house-video'), model('gpt-x')], modelInfo: [{ id: 'house-video', object: 'model', model_info: { mode: 'video_generation', output_cost_per_second: 0.1 } }] });
    const result = await gatherModels(litellm.api, { openrouter: false }, undefined);
    assert.equal(result.modelInfo, 'answers');
    assert.deepEqual((result.models[0].entry.model_info as Record<string, unknown>).mode, 'video_generation');
    assert.equal(result.models[1].entry.model_info, undefined);

    const plain = gateway({ models: [model('gpt-x')] });
    const first = await gatherModels(plain.api, { openrouter: false }, undefined);
    assert.equal(first.modelInfo, 'absent', 'a 404 is no failure of the list');
    await gatherModels(plain.api, { openrouter: false }, first.modelInfo);
    assert.equal(plain.asked.filter((o) => o?.list === 'modelInfo').length, 1, 'asked once');
  });

  it('fails the load only when /models fails', async () => {
    const { api } = gateway({ videoModels: [model('veo')] });
    await assert.rejects(gatherModels(api, { openrouter: true }, undefined), /Not Found/);
  });

  it('keeps an entry\'s own model_info over /model/info\'s', () => {
    const own = { mode: 'chat' };
    const [m] = withModelInfo([model('a', { model_info: own })], [{ id: 'a', object: 'model', model_info: { mode: 'image_generation' } }]);
    assert.equal(m.model_info, own);
  });

  it('speaks OpenRouter by the profile\'s dialect, else (auto) by the host', () => {
    assert.equal(listPlanOf('openrouter', 'https://gw.example').openrouter, true);
    assert.equal(listPlanOf(undefined, 'https://openrouter.ai').openrouter, true);
    assert.equal(listPlanOf('auto', 'https://eu.openrouter.ai').openrouter, true);
    assert.equal(listPlanOf('openai', 'https://openrouter.ai').openrouter, false, 'the profile\'s choice wins');
    assert.equal(listPlanOf(undefined, 'https://notopenrouter.ai').openrouter, false);
  });

  it('the catalog sorts an OpenRouter list into chat, image, speech and video, and says which field decided', async () => {
    const source = new FakeSource();
    source.listPlan = () => ({ openrouter: true });
    const gw = source.gateway as ManualGateway;
    gw.extraLists.videoModels = [model('google/veo-3.1')];
    const catalog = new ModelCatalog(source, new FakeClock());
    const loading = catalog.load();
    await flush();
    gw.answer([model('a/chat', { architecture: { output_modalities: ['text'] } }), model('a/img', { architecture: { output_modalities: ['image'] } }), model('a/voice', { architecture: { output_modalities: ['audio'] } })]);
    const snapshot = await loading;
    assert.deepEqual(snapshot?.models.map((m) => [m.id, m.kind, m.kindSource]), [['a/chat', 'chat', 'architecture'], ['a/img', 'image', 'architecture'], ['a/voice', 'speech', 'architecture'], ['google/veo-3.1', 'video', 'list']]);
    assert.equal(gw.asked.find((o) => !o?.list)?.allModalities, true);
    catalog.dispose();
  });
});
