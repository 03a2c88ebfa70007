// The spec dialect's adapter against the project's simulator (aimock does not speak it): submit → poll → result
// through the gateway client, as the contract tests drive the other dialects. DashScope's task API is served by
// neither yet; its adapter is covered by its unit tests only.
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
});
