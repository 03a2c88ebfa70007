import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../../src/gateway/client';
import { GatewayError } from '../../../../src/gateway/errors';
import { gatewayProbe, probeFailure } from '../../../../src/videos/core/dialects/probes';
import { decideDialect, detectDialect, DialectDetector, dialectOfModelFields, type ProbeName, type ProbeResult } from '../../../../src/videos/core/dialects/detect';
import { startSimulator } from '../../../simulator';

/** A probe that answers from a table and records what was asked. */
function table(answers: Partial<Record<ProbeName, ProbeResult>>): { probe: (name: ProbeName) => Promise<ProbeResult>; asked: ProbeName[] } {
  const asked: ProbeName[] = [];
  return { asked, probe: async (name) => (asked.push(name), answers[name] ?? { absent: 'HTTP 404, no such list' }) };
}

const GW = 'https://gw.example.com/v1';

describe('video dialects: auto detection', () => {
  it('decides by a known host without asking anything', async () => {
    for (const [url, dialect] of [['https://openrouter.ai/api/v1', 'openrouter'], ['https://api.x.ai/v1', 'xai'], ['https://dashscope-intl.aliyuncs.com/api/v1', 'dashscope']] as const) {
      const { probe, asked } = table({});
      const decision = await detectDialect(url, probe);
      assert.equal(decision.dialect, dialect);
      assert.match(decision.reason, /host is/);
      assert.deepEqual(asked, []);
    }
  });

  it("reads the model list's fields: supported endpoints first, then OpenRouter's architecture, then LiteLLM's mode", () => {
    assert.equal(dialectOfModelFields([{ id: 'a', supported_endpoints: ['/v1/chat/completions', '/v1/videos'] }])?.dialect, 'openai');
    assert.equal(dialectOfModelFields([{ id: 'a', endpoints: ['/v1/videos/generations'] }])?.dialect, 'spec');
    assert.equal(dialectOfModelFields([{ id: 'a', supported_endpoints: ['/api/v1/services/aigc/video-generation/video-synthesis'] }])?.dialect, 'dashscope');
    assert.equal(dialectOfModelFields([{ id: 'a', architecture: { output_modalities: ['text'] } }])?.dialect, 'openrouter');
    assert.equal(dialectOfModelFields([{ id: 'a', mode: 'video_generation' }])?.dialect, 'openai');
    assert.equal(dialectOfModelFields([{ id: 'a', owned_by: 'x', pricing: { prompt: '0' } }]), undefined);
    assert.equal(dialectOfModelFields(['junk', null, { id: 'a', supported_endpoints: [1, {}] }]), undefined);
  });

  it('asks /models, then /model/info, then /videos/models, stopping at the first that names a dialect, and keeps the evidence', async () => {
    const litellm = table({ models: { list: [{ id: 'veo' }] }, modelInfo: { list: [{ id: 'veo', model_info: {} }] } });
    const decision = await detectDialect(GW, litellm.probe);
    assert.equal(decision.dialect, 'openai');
    assert.match(decision.reason, /LiteLLM's \/model\/info answered \(1 model\)/);
    assert.deepEqual(litellm.asked, ['models', 'modelInfo']);
    assert.deepEqual(decision.evidence, ['host gw.example.com names no dialect', '/models: 1 model, none with supported_endpoints, architecture or mode', '/model/info: answered, 1 model']);

    const router = table({ models: { list: [] }, videoModels: { list: [{ id: 'google/veo-3.1' }] } });
    const routed = await detectDialect(GW, router.probe);
    assert.equal(routed.dialect, 'openrouter');
    assert.match(routed.reason, /\/videos\/models/);
    assert.deepEqual(router.asked, ['models', 'modelInfo', 'videoModels']);

    const byFields = table({ models: { list: [{ id: 'm', architecture: {} }] } });
    assert.equal((await detectDialect(GW, byFields.probe)).dialect, 'openrouter');
    assert.deepEqual(byFields.asked, ['models']);
  });

  it('falls back to spec when nothing names a dialect; an empty list answered everywhere names none', async () => {
    const decision = await detectDialect(GW, table({ models: { list: [{ id: 'm' }] }, modelInfo: { list: [] }, videoModels: { list: [] } }).probe);
    assert.equal(decision.dialect, 'spec');
    assert.equal(decision.settled, true);
    assert.match(decision.reason, /nothing the gateway says about itself names another dialect/);
    assert.equal(decision.evidence.length, 4);
  });

  it('a probe that could not be asked leaves the decision unsettled, and says so', () => {
    const step = decideDialect(GW, { models: { failed: 'no API key is set' }, modelInfo: { absent: 'HTTP 404, no such list' }, videoModels: { absent: 'HTTP 404, no such list' } });
    assert.ok(!('next' in step));
    assert.equal(step.dialect, 'spec');
    assert.equal(step.settled, false);
    assert.ok(step.evidence.includes('/models could not be asked (no API key is set)'));
  });

  it('keeps a settled decision per profile until its URL or setting changes, shares one detection, and never keeps an unsettled one', async () => {
    const detector = new DialectDetector();
    const first = table({ modelInfo: { list: [{ id: 'veo' }] } });
    const profile = { id: 'p1', baseUrl: GW };
    const [a, b] = await Promise.all([detector.resolve(profile, first.probe), detector.resolve(profile, first.probe)]);
    assert.equal(a, b);
    assert.deepEqual(first.asked, ['models', 'modelInfo'], 'asked once for both needs');
    await detector.resolve(profile, first.probe);
    assert.equal(first.asked.length, 2, 'kept');
    await detector.resolve({ ...profile, baseUrl: 'https://other.example/v1' }, first.probe);
    assert.equal(first.asked.length, 4, 'a new URL is asked again');
    const set = await detector.resolve({ ...profile, dialect: 'xai' }, first.probe);
    assert.deepEqual([set.dialect, set.setting, first.asked.length], ['xai', 'xai', 4]);
    assert.match(set.reason, /setting is xai/);

    const failing = table({ models: { failed: 'the network' } });
    await detector.resolve({ id: 'p2', baseUrl: GW }, failing.probe);
    await detector.resolve({ id: 'p2', baseUrl: GW }, failing.probe);
    assert.equal(failing.asked.filter((n) => n === 'models').length, 2, 'asked again on the next need');
  });

  it('reads a 404 or a page that is no list as absent, and no key, a 5xx or the network as not asked', () => {
    assert.ok('absent' in probeFailure(new GatewayError({ status: 404, code: 'not_found', message: 'No route' })));
    assert.ok('absent' in probeFailure(new GatewayError({ status: 200, code: 'bad_response', message: 'not JSON' })));
    assert.ok('failed' in probeFailure(new GatewayError({ status: 503, code: 'unavailable', message: 'busy' })));
    assert.ok('failed' in probeFailure(new GatewayError({ status: 0, code: 'network', message: 'ECONNREFUSED' })));
  });

  it("detects the simulator as spec through the gateway client, its /model/info and /videos/models answering 404", async () => {
    const sim = await startSimulator({ quiet: true });
    const client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
    try {
      const probe = gatewayProbe(async () => ({ ok: true, api: client, origin: sim.origin }));
      const decision = await detectDialect(sim.baseUrl, probe);
      assert.equal(decision.dialect, 'spec');
      assert.equal(decision.settled, true);
      assert.deepEqual(decision.evidence.slice(2), ['/model/info: HTTP 404, no such list', '/videos/models: HTTP 404, no such list']);
      const missing = await gatewayProbe(async () => ({ ok: false, missing: 'key' }))('models');
      assert.deepEqual(missing, { failed: 'no API key is set' });
    } finally {
      await client.close();
      await sim.close();
    }
  });
});
