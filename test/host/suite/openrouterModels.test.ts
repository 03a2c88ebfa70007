// An OpenRouter-style model list in the real VS Code (issue 36): OpenRouter lists image and speech models only when
// asked `?output_modalities=all`, says each model's kind under `architecture`, and lists video models only at
// /videos/models. A profile of the openrouter dialect finds all three kinds, each from the field that says so.
import * as assert from 'node:assert/strict';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ModelCatalogs } from '../../../src/models/core/modelCatalogs';
import { startSimulator, type Simulator } from '../../simulator';
import { IMAGE_MODEL, SPEECH_MODEL, VIDEO_MODEL } from '../../simulator/models';
import { dialectProfile, removeDialectProfile } from '../dialectJobs';
import { extensionApi } from '../helpers';

describe('models: an OpenRouter-style list yields image, speech and video models (issue 36)', function () {
  this.timeout(60_000);
  let api: ModelGatewayApi;
  let sim: Simulator;
  let profile: string | undefined;

  before(async () => {
    api = await extensionApi();
    sim = await startSimulator({ openrouterModels: true, videoModels: true });
    profile = await dialectProfile(api, 'openrouter', sim.baseUrl, sim.apiKey);
  });

  after(async () => {
    await removeDialectProfile(api, profile, sim.origin);
    await sim.close();
  });

  it('asks /models for every modality and /videos/models, and reads each kind from architecture or the video list', async () => {
    const catalog = (api.testing.models as ModelCatalogs).for(profile!);
    sim.clearLog();
    const snapshot = await catalog.load({ force: true });
    const asked = sim.log.filter((e) => e.method === 'GET').map((e) => e.path);
    // The log keeps paths without their query: the image and speech models below are listed only with `?output_modalities=all`.
    assert.ok(asked.includes('/v1/models'), `the model list was asked (asked: ${asked.join(', ')})`);
    assert.ok(asked.includes('/v1/videos/models'), 'the video list was asked');

    const byId = new Map(snapshot?.models.map((m) => [m.id, m]));
    const decided = (id: string) => [byId.get(id)?.kind, byId.get(id)?.kindSource];
    assert.deepEqual(decided(IMAGE_MODEL), ['image', 'architecture'], 'the image model, from architecture.output_modalities');
    assert.deepEqual(decided(SPEECH_MODEL), ['speech', 'architecture'], 'the speech model, from architecture.output_modalities');
    assert.deepEqual(decided(VIDEO_MODEL), ['video', 'list'], 'the video model, from /videos/models');
    assert.deepEqual(decided('model-k3'), ['chat', 'architecture']);

    // What the pickers offer: the catalog's models of each kind.
    assert.deepEqual((await catalog.models('image')).map((m) => m.id), [IMAGE_MODEL]);
    assert.deepEqual((await catalog.models('speech')).map((m) => m.id), [SPEECH_MODEL]);
    assert.deepEqual((await catalog.models('video')).map((m) => m.id), [VIDEO_MODEL]);
  });
});
