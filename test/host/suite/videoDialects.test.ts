// Video through every dialect in the real VS Code (issue 34): for each of spec, dashscope (the simulator), openai,
// openrouter and xai (@copilotkit/aimock, a server nobody on this project wrote), a profile of that dialect submits
// through Generate Video's argument form, the job is polled to completion and its result kept; the key goes only
// where the dialect needs it; the cost is in the usage ledger with its source; a failed job shows the gateway's words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ModelGatewayApi } from '../../../src/extension';
import { startSimulator, type Simulator } from '../../simulator';
import { VIDEO_MODEL } from '../../simulator/models';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as os from 'node:os';
import { AIMOCK_KEY, AIMOCK_MODEL, AIMOCK_MP4, type Aimock, dialectGateway, type DialectName, dialectProfile, EMPTY_MEMENTO, fastPolling, finished, generate, removeDialectProfile, SIMULATOR_OPTIONS, startAimock, startContentFront, THUMBNAIL_PNG, videoArgument, videoRecords } from '../dialectJobs';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { isFinalRecord } from '../../../src/videos/core/jobRecord';
import { extensionApi, until } from '../helpers';
import type { VideoInstance, VideoTestHooks } from '../../../src/videos/vscode/feature';

const KEY = AIMOCK_KEY;

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
      sim = await startSimulator(SIMULATOR_OPTIONS);
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

  describe('on @copilotkit/aimock', () => {
    let aimock: Aimock;
    let profile: string | undefined;
    const model = AIMOCK_MODEL;
    /** The requests aimock journalled, by method and path (without the query), with whether they carried a key. */
    const journal = () => aimock.mock.getRequests().map((e) => ({ method: e.method, path: e.path.split('?')[0], query: e.path.split('?')[1] ?? '', keyed: Boolean(e.headers.authorization) }));

    beforeEach(async () => {
      aimock = await startAimock();
    });
    afterEach(async () => {
      await removeDialectProfile(api, profile, aimock.mock.url);
      profile = undefined;
      await aimock.close();
    });

    it("openrouter: submits to /api/v1/videos, follows polling_url to completed, keeps unsigned_urls fetched with the key on the gateway's origin, records usage.cost as reported, and shows a failure in its words", async () => {
      profile = await dialectProfile(api, 'openrouter', `${aimock.mock.url}/api/v1`, KEY);
      const record = await generate(profile, 'a lighthouse at dusk', model);
      const job = await finished(api, record.key);
      assert.equal(job.state, 'complete', job.detail);
      assert.deepEqual(fs.readFileSync(job.keptFile!), AIMOCK_MP4, 'the kept file is the video the gateway served');
      const sent = journal();
      assert.deepEqual(sent.filter((e) => e.method === 'POST').map((e) => [e.path, e.keyed]), [['/api/v1/videos', true]]);
      assert.ok(sent.some((e) => e.method === 'GET' && e.path === `/api/v1/videos/${record.id}` && e.keyed), 'polled with the key');
      const content = sent.filter((e) => e.path === `/api/v1/videos/${record.id}/content`);
      assert.ok(content.length > 0 && content.every((e) => e.keyed), 'the content endpoint is fetched with the key');
      assert.deepEqual(aimock.storageAuth.filter(Boolean), [], 'no key to the storage host');
      const [ledger] = await videoRecords(api, since, (r) => r.profileId === profile && r.costSource === 'reported', 'the reported cost in the ledger');
      assert.equal(ledger.cost, 0.25);
      assert.equal(ledger.model, model);

      const failed = await finished(api, (await generate(profile, 'a storm the moderator refuses', model)).key);
      assert.equal(failed.state, 'failed');
      assert.match(failed.detail, /The prompt was refused by content moderation\./);
    });

    it('xai: submits a flat body to /v1/videos/generations, polls /v1/videos/{request_id} until done, keeps video.url without the key, records the ticks as reported, and shows a failure in its words', async () => {
      profile = await dialectProfile(api, 'xai', `${aimock.mock.url}/v1`, KEY);
      const record = await generate(profile, 'a lighthouse at dusk', model);
      const job = await finished(api, record.key);
      assert.equal(job.state, 'complete', job.detail);
      assert.deepEqual(fs.readFileSync(job.keptFile!), AIMOCK_MP4, 'the kept file is the video from the storage host');
      const sent = journal();
      assert.deepEqual(sent.filter((e) => e.method === 'POST').map((e) => [e.path, e.keyed]), [['/v1/videos/generations', true]]);
      assert.ok(sent.some((e) => e.method === 'GET' && e.path === `/v1/videos/${record.id}` && e.keyed), 'polled with the key');
      assert.ok(aimock.storageAuth.length > 0, 'the result came from the storage host');
      assert.deepEqual(aimock.storageAuth.filter(Boolean), [], 'the signed link is fetched without the key');
      const [ledger] = await videoRecords(api, since, (r) => r.profileId === profile && r.costSource === 'reported', 'the reported cost in the ledger');
      assert.equal(ledger.cost, 0.25);

      const failed = await finished(api, (await generate(profile, 'a storm the moderator refuses', model)).key);
      assert.equal(failed.state, 'failed');
      assert.match(failed.detail, /The prompt was refused by content moderation\./);
    });

    it('openai: submits {model, prompt, seconds} to /v1/videos with the key, reads it to completed, keeps the content endpoint\'s video and thumbnail (fetched with the key on its own origin), shows the thumbnail as the job\'s preview, and ends a failed job as failed', async () => {
      // aimock's openai mock serves no /content endpoint: a front serves it and hands the rest to aimock.
      const front = await startContentFront(aimock);
      try {
        profile = await dialectProfile(api, 'openai', `${front.url}/v1`, KEY);
        const record = await generate(profile, 'a lighthouse at dusk', model);
        const job = await finished(api, record.key);
        assert.equal(job.state, 'complete', job.detail);
        assert.equal(job.url, `${front.url}/v1/videos/${record.id}/content?variant=video`);
        assert.deepEqual(fs.readFileSync(job.keptFile!), AIMOCK_MP4, 'the kept file is the video the content endpoint served');
        const feature = (api.testing.videos as VideoTestHooks).feature;
        const thumbnail = await until(() => feature.service.kept?.thumbnailFile(record.key), 'the thumbnail to be kept');
        assert.deepEqual(fs.readFileSync(thumbnail), THUMBNAIL_PNG);
        assert.equal(path.dirname(thumbnail), path.dirname(job.keptFile!), 'kept beside the video');
        assert.deepEqual([...new Set(front.content.map((c) => `${c.variant} ${c.keyed}`))].sort(), ['thumbnail true', 'video true'], 'both fetched with the key, on the profile\'s own origin');
        const item = await until(() => {
          const shown = feature.view.provider.getTreeItem(feature.view.provider.jobNode(record.key));
          return shown.iconPath instanceof vscode.Uri ? shown : undefined;
        }, 'the job item to show its thumbnail');
        assert.equal((item.iconPath as vscode.Uri).fsPath, vscode.Uri.file(thumbnail).fsPath);
        const tooltip = item.tooltip as vscode.MarkdownString;
        assert.equal(tooltip.supportHtml, false);
        assert.ok(tooltip.value.includes(`![Thumbnail of the video](${vscode.Uri.file(thumbnail).toString()})`), tooltip.value);
        const posts = journal().filter((e) => e.method === 'POST');
        assert.deepEqual(posts.map((e) => [e.path, e.keyed]), [['/v1/videos', true]]);
        assert.deepEqual(aimock.storageAuth.filter(Boolean), [], 'no key to the storage host');
        await videoRecords(api, since, (r) => r.profileId === profile, 'the job in the ledger');

        const failed = await finished(api, (await generate(profile, 'a storm the moderator refuses', model)).key);
        assert.equal(failed.state, 'failed');
      } finally {
        await removeDialectProfile(api, profile, front.url);
        profile = undefined;
        await front.close();
      }
    });
  });
  describe('a job submitted before a reload', () => {
    const dialects: DialectName[] = ['spec', 'dashscope', 'openrouter', 'xai', 'openai'];
    for (const dialect of dialects) {
      it(`${dialect}: is picked up by the store and service built after the reload over the same folder, polled to completion and its result kept`, async () => {
        const hooks = api.testing.videos as VideoTestHooks;
        const gateway = await dialectGateway(dialect);
        const folder = fs.mkdtempSync(path.join(os.tmpdir(), `mg-reload-${dialect}-`));
        const instances: VideoInstance[] = [];
        // As a window reload does: the folder stays, the store and service are built anew over it.
        const open = async () => {
          const instance = hooks.createForTest({ folder: path.join(folder, 'jobs'), keptFolder: path.join(folder, 'kept'), storage: EMPTY_MEMENTO });
          instances.push(instance);
          await instance.store.ready;
          instance.store.setFocused(true);
          return instance;
        };
        let profile: string | undefined;
        try {
          profile = await dialectProfile(api, dialect, gateway.baseUrl, gateway.key);
          const first = await open();
          const record = (await first.commands.generateVideo(videoArgument(profile, gateway.prompt, gateway.model))) as VideoJobRecord | undefined;
          assert.ok(record?.id, 'the gateway took the job');
          // aimock's openai mock answers `completed` at once: there the reload covers keeping the result, not the polls.
          if (dialect !== 'openai') assert.equal(isFinalRecord(record), false, 'still running when the window goes');
          await first.store.flush();
          first.dispose();

          const second = await open();
          const restored = second.store.get(record.key);
          assert.equal(restored?.id, record.id, 'the job is back');
          assert.equal(restored?.dialect, dialect, 'in its own dialect');
          const job = await until(() => {
            const seen = second.service.job(record.key);
            return seen && (seen.state === 'failed' || (seen.state === 'complete' && seen.keptFile)) ? seen : undefined;
          }, `the ${dialect} job to end after the reload, its result kept`, 40_000, 100);
          assert.equal(job.state, 'complete', job.detail);
          assert.equal(path.dirname(job.keptFile!), path.join(folder, 'kept'));
          assert.ok(fs.readFileSync(job.keptFile!).length > 0, 'the kept file holds the video');
        } finally {
          for (const instance of instances) instance.dispose();
          await removeDialectProfile(api, profile, gateway.origin);
          await gateway.close();
          fs.rmSync(folder, { recursive: true, force: true });
        }
      });
    }
  });
});
