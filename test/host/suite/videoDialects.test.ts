// Video through every dialect in the real VS Code (issue 34): for each of spec, dashscope (the simulator), openai,
// openrouter and xai (@copilotkit/aimock, a server nobody on this project wrote), a profile of that dialect submits
// through Generate Video's argument form, the job is polled to completion and its result kept; the key goes only
// where the dialect needs it; the cost is in the usage ledger with its source; a failed job shows the gateway's words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ModelGatewayApi } from '../../../src/extension';
import { startSimulator, type Simulator } from '../../simulator';
import { VIDEO_MODEL } from '../../simulator/models';
import { dialectProfile, fastPolling, finished, generate, removeDialectProfile, videoRecords } from '../dialectJobs';
import { extensionApi } from '../helpers';

describe('video through every dialect (issue 34)', function () {
  this.timeout(120_000);
  let api: ModelGatewayApi;
  let since: number;

  before(async () => {
    api = await extensionApi();
    await fastPolling(api, true);
    since = Date.now();
  });

  after(async () => {
    await fastPolling(api, false);
  });

  describe('on the simulator', () => {
    let sim: Simulator;
    before(async () => {
      sim = await startSimulator({ video: { queuedMs: 600, inProgressMs: 600 } });
    });
    after(async () => {
      await sim.close();
    });

    it("spec: submits to /videos/generations, polls to completed, keeps the result (on the gateway's own origin, fetched with its key, as before dialects), and records the job", async () => {
      let profile: string | undefined;
      try {
        profile = await dialectProfile(api, 'spec', sim.baseUrl, sim.apiKey);
        sim.clearLog();
        const record = await generate(profile, 'a spec lighthouse at dusk', VIDEO_MODEL);
        const job = await finished(api, record.key);
        assert.equal(job.state, 'complete', job.detail);
        assert.ok(fs.readFileSync(job.keptFile!).length > 1000, 'the kept file holds the video');
        const submits = sim.log.filter((e) => e.method === 'POST' && e.path.startsWith('/v1/videos'));
        assert.deepEqual(submits.map((e) => e.path), ['/v1/videos/generations']);
        assert.ok(submits[0].authorization, 'the submission carries the key');
        assert.ok(sim.log.some((e) => e.method === 'GET' && e.path === `/v1/videos/generations/${record.id}` && e.authorization), 'polled with the key');
        const files = sim.log.filter((e) => e.path.startsWith('/files/'));
        assert.ok(files.length > 0, 'the result was fetched');
        // The spec names no signed links: its result on the gateway's own origin is fetched with the profile's key, as before.
        assert.deepEqual(files.map((e) => e.authorization), files.map(() => submits[0].authorization), 'the result is fetched with the profile\'s own key');
        const [ledger] = await videoRecords(api, since, (r) => r.profileId === profile && r.surface === 'video', 'the job in the ledger');
        assert.equal(ledger.model, VIDEO_MODEL);

        const failed = await finished(api, (await generate(profile, 'a spec storm [fail]', VIDEO_MODEL)).key);
        assert.equal(failed.state, 'failed');
        assert.match(failed.detail, /the prompt asked for a failure \(\[fail\]\)/);
      } finally {
        await removeDialectProfile(api, profile, sim.origin);
      }
    });

    it('dashscope: submits asynchronously to the task API, polls /tasks/{id} to SUCCEEDED, keeps the signed video_url fetched without the key, records the job, and shows FAILED in its own words', async () => {
      let profile: string | undefined;
      try {
        profile = await dialectProfile(api, 'dashscope', sim.baseUrl, sim.apiKey);
        sim.clearLog();
        const record = await generate(profile, 'a dashscope lighthouse at dusk', VIDEO_MODEL);
        const job = await finished(api, record.key);
        assert.equal(job.state, 'complete', job.detail);
        assert.ok(fs.readFileSync(job.keptFile!).length > 1000, 'the kept file holds the video');
        const submits = sim.log.filter((e) => e.method === 'POST');
        assert.deepEqual(submits.map((e) => e.path), ['/v1/services/aigc/video-generation/video-synthesis']);
        assert.equal(submits[0].headers['x-dashscope-async'], 'enable');
        assert.deepEqual((submits[0].body as { input: unknown }).input, { prompt: 'a dashscope lighthouse at dusk' });
        assert.ok(submits[0].authorization, 'the submission carries the key');
        assert.ok(sim.log.some((e) => e.method === 'GET' && e.path === `/v1/tasks/${record.id}` && e.authorization), 'polled with the key');
        const files = sim.log.filter((e) => e.path.startsWith('/files/'));
        assert.ok(files.length > 0, 'the result was fetched');
        assert.deepEqual(files.map((e) => e.authorization), files.map(() => undefined), 'the signed link is fetched without the key, even on the gateway\'s origin');
        const [ledger] = await videoRecords(api, since, (r) => r.profileId === profile && r.surface === 'video', 'the job in the ledger');
        assert.equal(ledger.model, VIDEO_MODEL);

        const failed = await finished(api, (await generate(profile, 'a dashscope storm [fail]', VIDEO_MODEL)).key);
        assert.equal(failed.state, 'failed');
        assert.match(failed.detail, /the prompt asked for a failure \(\[fail\]\)/);
      } finally {
        await removeDialectProfile(api, profile, sim.origin);
      }
    });
  });
});
