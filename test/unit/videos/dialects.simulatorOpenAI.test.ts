// The OpenAI Videos shape of the simulator (option `openaiVideos`) through the openai adapter: a `Video` object whose
// `progress` moves with the job, the result at /videos/{id}/content behind the key, and a model list that names the
// shape (so `auto` picks it). aimock serves this shape for the contract tests; the simulator serves it for pictures
// and flows that need a job held at a given progress.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import type { VideoJob } from '../../../src/gateway/types';
import { dialectOf, pollWire, submitWire, type DialectJobExtras } from '../../../src/videos/core/dialects';
import { dialectOfModelFields } from '../../../src/videos/core/dialects/detect';
import { startSimulator, type Simulator } from '../../simulator';

describe('video dialects against the simulator: openai', () => {
  const IN_PROGRESS_MS = 10_000;
  let clock = 1_800_000_000_000;
  let sim: Simulator;
  let client: GatewayClient;

  before(async () => {
    sim = await startSimulator({ openaiVideos: true, now: () => clock, video: { queuedMs: 0, inProgressMs: IN_PROGRESS_MS }, quiet: true });
    client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
  });

  after(async () => {
    await client?.close();
    await sim?.close();
  });

  it('submits to /v1/videos, reports the progress the job is at, and serves the finished video at /content with the key only', async () => {
    const openai = dialectOf('openai');
    const ctx = { baseUrl: sim.baseUrl, now: 0 };
    const ask = { model: 'model-1.0-video-edit', prompt: 'a lighthouse', durationSeconds: 4, resolution: '1280x720', firstFrame: 'data:image/png;base64,iVBORw0KGgo=' };
    const submitted = (await client.submitVideo({ model: ask.model, input: { prompt: ask.prompt } }, { wire: submitWire(openai, ask, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(submitted.dialect, 'openai');
    const submit = sim.log.find((entry) => entry.method === 'POST');
    assert.equal(submit?.path, '/v1/videos');
    assert.deepEqual(submit?.body, { model: ask.model, prompt: ask.prompt, seconds: '4', size: '1280x720', input_reference: ask.firstFrame });

    clock += 0.4 * IN_PROGRESS_MS;
    const running = (await client.getVideo(submitted.id, { wire: pollWire(openai, submitted.id, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(running.gatewayStatus, 'in_progress');
    assert.equal(running.progress, 40);

    clock += IN_PROGRESS_MS;
    const done = (await client.getVideo(submitted.id, { wire: pollWire(openai, submitted.id, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(done.status, 'completed');
    const content = `${sim.baseUrl}/videos/${submitted.id}/content?variant=video`;
    const withKey = await fetch(content, { headers: { authorization: `Bearer ${sim.apiKey}` } });
    assert.equal(withKey.status, 200);
    assert.equal(withKey.headers.get('content-type'), 'video/mp4');
    await withKey.arrayBuffer();
    assert.equal((await fetch(content)).status, 401, 'the content needs the key');
  });

  it("lists the video model with supported_endpoints ['/v1/videos'], which names the openai dialect", async () => {
    const list = (await (await fetch(`${sim.baseUrl}/models`, { headers: { authorization: `Bearer ${sim.apiKey}` } })).json()) as { data: unknown[] };
    assert.equal(dialectOfModelFields(list.data)?.dialect, 'openai');
  });
});
