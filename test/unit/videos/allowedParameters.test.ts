// The parameters a gateway allows per model, read from the lists the dialect card describes (OpenRouter's
// /videos/models, LiteLLM's /model/info), checked before anything is sent, and worded in the one error vocabulary.
import * as assert from 'node:assert/strict';
import { allowedAnswers, checkAllowed, fitDefaults, ParameterNotAllowedError, readAllowedParameters } from '../../../src/videos/core/dialects/allowedParameters';
import { GatewayLists } from '../../../src/videos/core/dialects/parameterLists';
import { DialectDetector, type ProbeName, type ProbeResult } from '../../../src/videos/core/dialects/detect';
import { modelListEntries } from '../../../src/gateway/modelLists';
import { adviceFor, allowedText } from '../../../src/ui/core/errorAdvice';
import { videoCalls } from '../../../src/videos/core/videoCalls';
import { readSettings } from '../../../src/settings/settings';
import type { JobStore } from '../../../src/videos/core/jobStore';

/** OpenRouter's GET /videos/models, as the card lists its fields. */
const OPENROUTER_VIDEO_MODELS = {
  data: [
    {
      id: 'google/veo-3.1',
      supported_durations: [4, 6, 8],
      supported_resolutions: ['720p', '1080p'],
      supported_aspect_ratios: ['16:9', '9:16'],
      supported_sizes: ['1280x720', '1920x1080'],
      supported_frame_images: ['first_frame', 'last_frame'],
      generate_audio: true,
      pricing_skus: { per_second: '0.40' },
    },
    { id: 'openai/sora-2', supported_durations: [4, 8, 12] },
    { id: 'lists-nothing' },
  ],
};

/** LiteLLM's GET /model/info: `model_name` is the id; the fields sit in `model_info` where present. */
const LITELLM_MODEL_INFO = {
  data: [
    { model_name: 'veo-3', litellm_params: { model: 'vertex_ai/veo-3.0' }, model_info: { mode: 'video_generation', output_cost_per_second: 0.4, supported_durations: [5, 10], supported_resolutions: ['720p'] } },
    { model_name: 'gpt-4o', model_info: { mode: 'chat' } },
  ],
};

const GW = { id: 'p1', baseUrl: 'https://gw.example.com/v1' };

describe('video parameters the gateway allows', () => {
  it("reads OpenRouter's /videos/models entries: durations, resolutions with sizes, aspect ratios", () => {
    const byModel = readAllowedParameters(modelListEntries(OPENROUTER_VIDEO_MODELS, 'videoModels')!);
    assert.deepEqual(byModel.get('google/veo-3.1'), { durations: [4, 6, 8], resolutions: ['720p', '1080p', '1280x720', '1920x1080'], aspectRatios: ['16:9', '9:16'] });
    assert.deepEqual(byModel.get('openai/sora-2'), { durations: [4, 8, 12] });
    assert.equal(byModel.has('lists-nothing'), false, 'a model that lists nothing is not checked');
  });

  it("reads LiteLLM's model_info fields where present, by model_name", () => {
    const byModel = readAllowedParameters(modelListEntries(LITELLM_MODEL_INFO, 'modelInfo')!);
    assert.deepEqual(byModel.get('veo-3'), { durations: [5, 10], resolutions: ['720p'] });
    assert.equal(byModel.has('gpt-4o'), false);
  });

  it('keeps only short plain values from a hostile list, bounded in count', () => {
    const many = Array.from({ length: 1000 }, (_, i) => i + 1);
    const [entry] = readAllowedParameters([
      { id: 'm', supported_durations: [-1, 0, 'NaN', 1e9, '6', ...many], supported_resolutions: ['720p', '<img src=x>', 'a'.repeat(500), { p: 1 }, '](javascript:x)'], supported_aspect_ratios: 'not a list' },
    ]).values();
    assert.ok(entry.durations!.length <= 32, 'at most 32 values read');
    assert.deepEqual(entry.durations!.slice(0, 3), [6, 1, 2]);
    assert.deepEqual(entry.resolutions, ['720p']);
    assert.equal(entry.aspectRatios, undefined);
  });

  it('refuses a value outside the set with the allowed values, and takes one inside it as listed', () => {
    const allowed = { durations: [4, 6, 8], resolutions: ['720p', '1080p'], aspectRatios: ['16:9'] };
    assert.throws(
      () => checkAllowed({ model: 'veo', duration: 5 }, allowed),
      (error: unknown) => error instanceof ParameterNotAllowedError && error.parameter === 'duration' && error.value === '5' && error.allowed.join() === '4,6,8',
    );
    assert.throws(() => checkAllowed({ model: 'veo', resolution: '480p' }, allowed), /720p, 1080p/);
    assert.throws(() => checkAllowed({ model: 'veo', aspectRatio: '1:1' }, allowed), /16:9/);
    assert.deepEqual(checkAllowed({ model: 'veo', duration: 6, resolution: '1080P', aspectRatio: '16:9' }, allowed), { model: 'veo', duration: 6, resolution: '1080p', aspectRatio: '16:9' });
    assert.deepEqual(checkAllowed({ model: 'veo', duration: 5, resolution: 'any' }, undefined), { model: 'veo', duration: 5, resolution: 'any' }, 'nothing listed: nothing checked');
    assert.deepEqual(checkAllowed({ model: 'veo', duration: 5 }, { resolutions: ['720p'] }), { model: 'veo', duration: 5 }, 'durations not listed: any duration');
  });

  it('fits a default from settings to the set, and leaves an asked value for the check to refuse', () => {
    const allowed = { durations: [4, 6, 8], resolutions: ['720p', '1080p'] };
    assert.deepEqual(fitDefaults({ model: 'm', duration: 5, resolution: '1280x720' }, allowed, {}), { model: 'm', duration: 4, resolution: '720p' });
    assert.deepEqual(fitDefaults({ model: 'm', duration: 7.5 }, allowed, {}), { model: 'm', duration: 8 });
    assert.throws(() => allowedAnswers({ model: 'm', duration: 5 }, allowed, { duration: true }), ParameterNotAllowedError);
  });

  it('words the refusal in the one vocabulary: nothing sent, the allowed values named', () => {
    const advice = adviceFor(new ParameterNotAllowedError('google/veo-3.1', 'duration', '5', ['4', '6', '8']));
    assert.equal(advice.message, 'Not sent: the gateway allows google/veo-3.1 only the durations 4, 6, 8 seconds, not 5 seconds. Choose one of those.');
    assert.match(adviceFor(new ParameterNotAllowedError('m', 'aspectRatio', '1:1', ['16:9'])).message, /aspect ratios 16:9, not 1:1/);
    assert.equal(allowedText({ durations: [4, 8], resolutions: ['720p'], aspectRatios: ['16:9'] }), 'durations 4, 8 s; resolutions 720p; aspect ratios 16:9');
  });

  describe('kept per profile with the dialect detection', () => {
    function counting(answers: Partial<Record<ProbeName, ProbeResult>>) {
      const asked: ProbeName[] = [];
      return { asked, probe: async (name: ProbeName): Promise<ProbeResult> => (asked.push(name), answers[name] ?? { absent: 'HTTP 404, no such list' }) };
    }

    it("reads the allowed values from the list the detection fetched, without a second fetch", async () => {
      const lists = new GatewayLists();
      const { asked, probe } = counting({ models: { list: [{ id: 'x' }] }, videoModels: { list: OPENROUTER_VIDEO_MODELS.data } });
      const decision = await new DialectDetector().resolve(GW, lists.memo(GW, probe));
      assert.equal(decision.dialect, 'openrouter');
      const allowed = await lists.allowed(GW, decision.dialect, 'google/veo-3.1', probe);
      assert.deepEqual(allowed?.durations, [4, 6, 8]);
      assert.deepEqual(asked, ['models', 'modelInfo', 'videoModels'], 'each list asked once');
    });

    it("asks the dialect's list when the detection did not (a dialect set, or decided by the host), once", async () => {
      const lists = new GatewayLists();
      const { asked, probe } = counting({ videoModels: { list: OPENROUTER_VIDEO_MODELS.data }, modelInfo: { list: modelListEntries(LITELLM_MODEL_INFO, 'modelInfo')! } });
      assert.deepEqual((await lists.allowed(GW, 'openrouter', 'openai/sora-2', probe))?.durations, [4, 8, 12]);
      assert.deepEqual((await lists.allowed(GW, 'openrouter', 'google/veo-3.1', probe))?.aspectRatios, ['16:9', '9:16']);
      assert.deepEqual(asked, ['videoModels']);
      const other = { id: 'p2', baseUrl: 'https://litellm.example.com' };
      assert.deepEqual(await lists.allowed(other, 'openai', 'veo-3', probe), { durations: [5, 10], resolutions: ['720p'] });
      assert.equal(await lists.allowed({ id: 'p3', baseUrl: 'https://spec.example.com' }, 'spec', 'veo-3', probe), undefined, 'a spec profile asks nothing');
      assert.deepEqual(asked, ['videoModels', 'modelInfo']);
    });

    it('does not keep a list that could not be asked', async () => {
      const lists = new GatewayLists();
      let failing = true;
      const asked: ProbeName[] = [];
      const probe = async (name: ProbeName): Promise<ProbeResult> => (asked.push(name), failing ? { failed: 'no answer' } : { list: OPENROUTER_VIDEO_MODELS.data });
      assert.equal(await lists.allowed(GW, 'openrouter', 'google/veo-3.1', probe), undefined);
      failing = false;
      assert.deepEqual((await lists.allowed(GW, 'openrouter', 'google/veo-3.1', probe))?.durations, [4, 6, 8]);
      assert.deepEqual(asked, ['videoModels', 'videoModels']);
    });
  });

  it('refuses a disallowed duration asked through VideoApi.submit before the store sends anything, and fits a default', async () => {
    const defaults = readSettings({ userValue: () => undefined, value: () => undefined }).video;
    const sent: unknown[] = [];
    const store = { submit: async (_origin: string, request: unknown) => (sent.push(request), { key: 'k1', model: 'm', status: 'queued', localState: 'submitted', resultUrls: [] }) } as unknown as JobStore;
    const calls = videoCalls({
      store,
      access: async () => ({ ok: true, origin: 'https://gw.example' }),
      settings: () => ({ ...defaults, model: 'm', duration: 5, resolutions: ['1280x720'] }),
      allowed: async (model) => (model === 'm' ? { durations: [4, 6, 8], resolutions: ['720p'] } : undefined),
    });
    await assert.rejects(calls.submit({ prompt: 'a kite', duration: 5 }), /Not sent: the gateway allows m only the durations 4, 6, 8 seconds, not 5 seconds/);
    assert.equal(sent.length, 0, 'nothing sent');
    await calls.submit({ prompt: 'a kite', duration: 6, aspectRatio: '16:9' });
    await calls.submit({ prompt: 'a kite' });
    assert.deepEqual(
      sent.map((r) => (r as { parameters: unknown }).parameters),
      [
        { resolution: '720p', duration: 6, aspect_ratio: '16:9' },
        { resolution: '720p', duration: 4 },
      ],
    );
  });
});
