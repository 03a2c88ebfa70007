// An OpenRouter-style model list in the real VS Code (issue 36): OpenRouter lists image and speech models only when
// asked `?output_modalities=all`, says each model's kind under `architecture`, and lists video models only at
// /videos/models. A profile of the openrouter dialect finds all three kinds, each from the field that says so. Its
// speech answer names only its generation: the record is estimated, then amended to the cost `/generation` reports.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ModelCatalogs } from '../../../src/models/core/modelCatalogs';
import type { UsageService } from '../../../src/usage/vscode/usageService';
import { startSimulator, type Simulator } from '../../simulator';
import { OPENROUTER_SPEECH_COST_PER_CHAR } from '../../simulator/generations';
import { IMAGE_MODEL, SPEECH_MODEL, VIDEO_MODEL } from '../../simulator/models';
import { dialectProfile, removeDialectProfile } from '../dialectJobs';
import { extensionApi, until } from '../helpers';

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
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
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

  it("records OpenRouter speech as estimated, then looks its cost up by X-Generation-Id and amends it to reported (issue 36)", async () => {
    const usage = (api.testing.usage as () => UsageService)();
    await vscode.commands.executeCommand('modelGateway.profiles.switch', profile);
    // The speech model's listed price (the estimate) comes from the profile's list.
    await (api.testing.models as ModelCatalogs).for(profile!).load({ force: true });
    const since = Date.now();
    sim.clearLog();
    const text = 'Forty-one characters of speech to price.';
    await vscode.commands.executeCommand('modelGateway.synthesizeSpeech', { text, voice: 'nova', model: SPEECH_MODEL });
    const speech = () => usage.ledger.read(since).then(({ records }) => records.filter((r) => r.modality === 'speech' && r.time >= since));
    const reported = await until(async () => ((await speech()).find((r) => r.costSource === 'reported')), 'the speech record to be amended to the reported cost', 20_000);
    assert.equal(reported.cost!.toFixed(8), (text.length * OPENROUTER_SPEECH_COST_PER_CHAR).toFixed(8), "the gateway's figure, not the listed price");
    assert.equal((await speech()).length, 1, 'one record, amended, not a second one');
    const lookups = sim.log.filter((e) => e.path === '/v1/generation');
    assert.deepEqual(lookups.map((e) => e.method), ['GET'], 'looked up once');
    // On disk: the estimate as first written, and the amendment naming it.
    const month = join(usage.ledger.folder, new Date(reported.time).toISOString().slice(0, 7));
    const lines = readdirSync(month).flatMap((name) => readFileSync(join(month, name), 'utf8').split('\n')).filter((line) => line.includes(`"${reported.id}"`));
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[0]!, /"cs":"e"/);
    assert.equal((JSON.parse(lines[0]!) as { $: number }).$.toFixed(8), (text.length * 0.000015).toFixed(8), 'first the estimate from the listed price');
    assert.match(lines[1]!, /"am":/);
  });
});
