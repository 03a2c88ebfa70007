// Generate Video on a profile whose gateway lists what its video model allows (OpenRouter's /videos/models): a
// duration outside the list is refused before any request, naming the allowed ones; an allowed one goes out.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import type { VideoTestHooks } from '../../../src/videos/vscode/feature';
import type { ProfileStore } from '../../../src/auth/core/profileStore';
import { startSimulator, type Simulator } from '../../simulator';
import { VIDEO_MODEL } from '../../simulator/models';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';
import { RecordingUi } from '../recordingUi';

describe('video parameters the gateway allows', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let active: Simulator;
  let api: ModelGatewayApi;
  let profileId: string;

  /** The video submissions the simulator saw: a gateway that lists /videos/models is detected as OpenRouter, so its jobs go to OpenRouter's path. */
  const submissions = () => sim.log.filter((e) => e.method === 'POST' && /^\/v1\/videos(\/generations)?$/.test(e.path));

  before(async () => {
    sim = await startSimulator({ videoModels: true, video: { queuedMs: 500, inProgressMs: 500 } });
    api = await extensionApi();
    await config().update('video.keptQuotaMB', 0, vscode.ConfigurationTarget.Global);
    // The active profile stays on a gateway of its own: the listed one is named by the command's argument.
    active = await startSimulator();
    await connectTo(api, active);
    profileId = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Listed', baseUrl: sim.baseUrl })) as string;
    await until(() => api.connections.profile(profileId), 'the connections to see the Listed profile');
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey, profileId), true);
  });

  after(async () => {
    const store = (api.testing.videos as VideoTestHooks).feature.store;
    // Every job on the listed gateway (a named profile's jobs are in its own lane), so its profile is deleted, not retired.
    for (const job of store.jobs().filter((j) => j.origin === sim.origin)) await store.remove(job.key);
    const profiles = await (api.testing.profiles as Promise<ProfileStore>);
    if (profiles.get(profileId)) await vscode.commands.executeCommand('modelGateway.profiles.delete', profileId, { confirm: false });
    await until(() => !profiles.all.some((p) => p.id === profileId), 'the Listed profile to be gone, not retired');
    await config().update('video.keptQuotaMB', undefined, vscode.ConfigurationTarget.Global);
    await disconnect();
    await Promise.all([sim.close(), active.close()]);
  });

  it('refuses a duration outside the list before any request, naming the allowed ones, and sends an allowed one', async () => {
    const ask = { profile: profileId, prompt: 'A kite over a grey sea', model: VIDEO_MODEL, resolution: '720p' };
    // The command's own handler (executeCommand shows the refusal and resolves): it rejects with the advice's words.
    const generate = (argument: object) => (api.testing.videos as VideoTestHooks).feature.commands.generateVideo(argument);
    await assert.rejects(
      generate({ ...ask, duration: 5 }),
      /Not sent: the gateway allows model-1\.0-video-edit only the durations 4, 6, 8 seconds, not 5 seconds/,
    );
    assert.ok(sim.log.some((e) => e.method === 'GET' && e.path === '/v1/videos/models'), 'the list was read');
    assert.deepEqual(submissions(), [], 'nothing was submitted');

    const listReads = sim.log.filter((e) => e.path === '/v1/videos/models').length;
    assert.equal(await vscode.commands.executeCommand('modelGateway.generateVideo', { ...ask, duration: 8, aspectRatio: '1:1' }), undefined, 'through executeCommand: refused and shown');
    assert.deepEqual(submissions(), [], 'still nothing submitted');
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { ...ask, duration: 6 })) as VideoJobRecord;
    assert.ok(record.key, 'the job was accepted');
    const [sent] = submissions();
    assert.ok(sent, 'the allowed duration went out');
    assert.equal(sent.path, '/v1/videos', "in OpenRouter's shape: auto detected the dialect from the /videos/models list");
    assert.match(JSON.stringify(sent.body), /"duration":6\b/);
    assert.equal(sim.log.filter((e) => e.path === '/v1/videos/models').length, listReads, 'the list is kept for the profile, not fetched again');
  });

  it('offers in the walk-through only the resolutions, aspect ratios and durations the gateway lists, and sends the ones picked', async () => {
    await vscode.commands.executeCommand('modelGateway.profiles.switch', profileId);
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-allowed-'));
    const ui = new RecordingUi();
    const offered: string[][] = [];
    const pick = ui.pick.bind(ui);
    ui.pick = (items, options) => (offered.push([...items]), pick(items, options));
    const kept = new Map<string, unknown>();
    const bundle = (api.testing.videos as VideoTestHooks).createForTest({ folder, storage: { get: <T>(key: string) => kept.get(key) as T | undefined, update: async (key, value) => void kept.set(key, value) }, ui });
    try {
      await bundle.store.flush();
      ui.inputs = ['A heron over a pond', VIDEO_MODEL, '1080p', '9:16', '8 s', '', 'skip'];
      const record = await bundle.commands.generateVideo();
      assert.ok(record?.key, `the job was submitted: ${JSON.stringify(ui.shown)}`);
      assert.deepEqual(offered, [['720p', '1080p', '1280x720'], ['16:9', '9:16'], ['4 s', '6 s', '8 s']]);
      const sent = submissions().at(-1);
      assert.match(JSON.stringify(sent?.body), /"resolution":"1080p"/);
      assert.match(JSON.stringify(sent?.body), /"duration":8\b/);
      assert.match(JSON.stringify(sent?.body), /"aspect_ratio":"9:16"/);
      await bundle.store.remove(record.key);
    } finally {
      bundle.dispose();
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
