// The spec and DashScope dialects' adapters against the project's simulator (aimock speaks neither): submit → poll →
// result through the gateway client, as the contract tests drive the other dialects.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { openResult } from '../../../src/gateway/resultFetch';
import type { VideoJob } from '../../../src/gateway/types';
import { dialectOf, pollWire, submitWire, type DialectJobExtras } from '../../../src/videos/core/dialects';
import { isFinalStatus } from '../../../src/videos/core/dialects/status';
import { startSimulator, type Simulator } from '../../simulator';

describe('video dialects against the simulator: spec', () => {
  let sim: Simulator;
  let client: GatewayClient;

  before(async () => {
    sim = await startSimulator({ video: { queuedMs: 0, inProgressMs: 0 }, quiet: true });
    client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
  });

  after(async () => {
    await client?.close();
    await sim?.close();
  });

  it("submits the spec's body through its adapter, polls to completed and fetches data[].url", async () => {
    const spec = dialectOf('spec');
    const ctx = { baseUrl: sim.baseUrl, now: 0 };
    const ask = { model: 'model-1.0-video-edit', prompt: 'a lighthouse', durationSeconds: 5, resolution: '720p' };
    const submitted = (await client.submitVideo({ model: ask.model, input: { prompt: ask.prompt } }, { wire: submitWire(spec, ask, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(submitted.dialect, 'spec');
    let job = submitted;
    for (let polls = 0; !isFinalStatus(job.status) && polls < 20; polls++) job = (await client.getVideo(submitted.id, { wire: pollWire(spec, submitted.id, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(job.status, 'completed');
    const url = job.data![0].url;
    const response = await openResult(url, { proxy: false, credentials: { origin: sim.origin, headers: { authorization: `Bearer ${sim.apiKey}` } } });
    response.body.destroy();
    assert.equal(response.status, 200);
    const submit = sim.log.find((entry) => entry.method === 'POST');
    assert.equal(submit?.path, '/v1/videos/generations');
  });

  it('serves DashScope\'s task API: an asynchronous submission, PENDING → RUNNING → SUCCEEDED at /tasks/{id} with output.video_url, and no progress field', async () => {
    const dashscope = dialectOf('dashscope');
    const ctx = { baseUrl: sim.baseUrl, now: 0 };
    const ask = { model: 'model-1.0-video-edit', prompt: 'a harbour', durationSeconds: 5, resolution: '720p', firstFrame: 'data:image/png;base64,iVBORw0KGgo=' };
    sim.clearLog();
    const submitted = (await client.submitVideo({ model: ask.model, input: { prompt: ask.prompt } }, { wire: submitWire(dashscope, ask, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(submitted.gatewayStatus, 'PENDING');
    const submit = sim.log.find((entry) => entry.method === 'POST');
    assert.equal(submit?.path, '/v1/services/aigc/video-generation/video-synthesis');
    assert.equal(submit?.headers['x-dashscope-async'], 'enable');
    assert.deepEqual((submit?.body as { input: unknown }).input, { prompt: 'a harbour', img_url: ask.firstFrame });
    let job = submitted;
    for (let polls = 0; !isFinalStatus(job.status) && polls < 20; polls++) job = (await client.getVideo(submitted.id, { wire: pollWire(dashscope, submitted.id, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(job.gatewayStatus, 'SUCCEEDED');
    assert.equal(job.status, 'completed');
    assert.equal(job.progress, undefined);
    const polled = sim.log.filter((entry) => entry.method === 'GET' && entry.path.startsWith('/v1/tasks/'));
    assert.ok(polled.length >= 1);
    const response = await openResult(job.data![0].url, { proxy: false });
    response.body.destroy();
    assert.equal(response.status, 200, 'the signed link is fetched without the key');
  });

  it('DashScope: a failed task says FAILED with its message in a 200, an unknown id UNKNOWN, and a synchronous call is refused', async () => {
    const dashscope = dialectOf('dashscope');
    const ctx = { baseUrl: sim.baseUrl, now: 0 };
    const failed = await client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: '[fail]' } }, { wire: submitWire(dashscope, { model: 'model-1.0-video-edit', prompt: 'a storm [fail]' }, ctx) });
    let job = failed as VideoJob & DialectJobExtras;
    for (let polls = 0; !isFinalStatus(job.status) && polls < 20; polls++) job = (await client.getVideo(failed.id, { wire: pollWire(dashscope, failed.id, ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(job.gatewayStatus, 'FAILED');
    assert.match(job.error?.message ?? '', /could not be generated/);
    const unknown = (await client.getVideo('no-such-task', { wire: pollWire(dashscope, 'no-such-task', ctx) })) as VideoJob & DialectJobExtras;
    assert.equal(unknown.gatewayStatus, 'UNKNOWN');
    assert.equal(isFinalStatus(unknown.status), false, 'an unknown task is neither done nor failed');
    const sync = await fetch(`${sim.baseUrl}/services/aigc/video-generation/video-synthesis`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'model-1.0-video-edit', input: { prompt: 'x' } }) });
    assert.equal(sync.status, 403);
  });
});
