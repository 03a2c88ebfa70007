// Profiles in the chat, and a profile deleted while its video job runs (issue 23), in the real VS Code. Two gateways
// and three profiles, two of them with different keys on one origin (profiles.test.ts covers the API, the model list,
// VS Code's chat and a job polled after a switch): here a chat keeps the profile it started with, whichever profile
// the window switches to; its header names it; only Change Chat Profile… moves it, and its /image and replies go with
// its own key, and so does Generate Title; its model picker lists its own profile's models. A profile deleted while its job runs is hidden at once, the job is still polled with its key, and the
// key goes when the job has finished; and deleting one asks first (declining changes nothing).
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../../../src/auth/core/apiKeyStore';
import type { ProfileStore } from '../../../src/auth/core/profileStore';
import type { ChatPanel } from '../../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import { CHAT_VIEW_TYPE, type HostMessage } from '../../../src/chatProtocol/messages';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import type { JobStore } from '../../../src/videos/core/jobStore';
import { ProfileCommands } from '../../../src/auth/vscode/profileCommands';
import { RecordingUi } from '../recordingUi';
import { startSimulator, type Simulator } from '../../simulator';
import { IMAGE_MODEL, SPEECH_MODEL, VIDEO_MODEL } from '../../simulator/models';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

const tail = (key: string) => key.slice(-4);
/** The key tails each gateway saw on a path, in order. */
const keysOn = (sim: Simulator, path: string) => sim.log.filter((e) => e.path === path).map((e) => e.authorization?.slice(-4));

describe('Profiles in the chat, and deleting a profile whose job still runs (issue 23)', function () {
  this.timeout(90_000);
  let a: Simulator;
  let b: Simulator;
  let api: ModelGatewayApi;
  let profiles: ProfileStore;
  let manager: ChatPanelManager;
  const created: string[] = [];

  const reply = async (panel: ChatPanel, text: string) => {
    const before = panel.controller.session.turns.length;
    await panel.handleMessage({ type: 'send', requestId: 1, text });
    await until(() => panel.controller.session.turns.length >= before + 2 && !panel.controller.busy, 'the reply to finish', 20_000);
  };

  before(async () => {
    a = await startSimulator();
    // The Client gateway lists another set of chat models than the Default and Work one (which lists them all).
    b = await startSimulator({ video: { queuedMs: 500, inProgressMs: 500 }, listedModels: ['model-5.2', VIDEO_MODEL, IMAGE_MODEL, SPEECH_MODEL] });
    api = await extensionApi();
    profiles = await (api.testing.profiles as Promise<ProfileStore>);
    manager = (api.testing.chat as { manager: ChatPanelManager }).manager;
    await config().update('video.pollMinSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', 1, vscode.ConfigurationTarget.Global);
    await connectTo(api, a);
    for (const [name, sim, key] of [['Work', a, a.keys.restricted], ['Client', b, b.apiKey]] as const) {
      const id = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name, baseUrl: sim.baseUrl, models: { chat: 'model-k3' } })) as string;
      created.push(id);
      await until(() => api.connections.profile(id), `the connections to see ${name}`);
      assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', key, id), true);
    }
    await (api.testing.media as MediaTestHooks).history.ready;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
    for (const id of created) if (profiles.get(id)) await vscode.commands.executeCommand('modelGateway.profiles.delete', id, { confirm: false });
    await config().update('video.pollMinSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', undefined, vscode.ConfigurationTarget.Global);
    await disconnect();
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps the profile a chat started with after a switch, names it in the header, and moves it only by Change Chat Profile…', async () => {
    const [work, client] = created;
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Work');
    await vscode.commands.executeCommand('modelGateway.newChat');
    const panel = manager.activePanel!;
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'profile' && m.name === 'Work'), 'the header to name the Work profile', 20_000);
    assert.equal(panel.controller.session.settings.profile, work);

    // The window switches: the chat does not.
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Default');
    a.clearLog();
    b.clearLog();
    await reply(panel, '[echo] under Work');
    await panel.handleMessage({ type: 'send', requestId: 1, text: '/image a red kite' });
    await until(() => panel.controller.session.turns.some((t) => t.role === 'media' && t.state !== 'pending'), 'the image to finish', 20_000);
    assert.deepEqual(keysOn(a, '/v1/chat/completions'), [tail(a.keys.restricted)], "the reply went with the Work profile's key");
    assert.deepEqual(keysOn(a, '/v1/images/generations'), [tail(a.keys.restricted)], "so did the chat's /image");
    assert.equal(b.log.length, 0);

    // The page cannot move the chat to another key; the command can, and the window's profile stays as it was.
    await panel.handleMessage({ type: 'updateSettings', settings: { ...panel.controller.session.settings, profile: client } });
    assert.equal(panel.controller.session.settings.profile, work);
    assert.equal(await vscode.commands.executeCommand('modelGateway.changeChatProfile', 'Client', panel.sessionId), client);
    await until(() => posted.some((m) => m.type === 'profile' && m.name === 'Client'), 'the header to name the Client profile');
    assert.equal(api.connections.active.id, 'default', 'changing a chat\'s profile switches nothing else');
    a.clearLog();
    await reply(panel, '[echo] under Client');
    assert.deepEqual(keysOn(b, '/v1/chat/completions'), [tail(b.apiKey)]);
    assert.equal(keysOn(a, '/v1/chat/completions').length, 0, 'nothing more reached the other gateway');
    const saved = await manager.store.load(panel.sessionId);
    assert.equal(saved?.settings.profile, client, 'the chat is saved with its new profile');

    // Generate Title (from the Chats view) sends the chat's words too: to the chat's gateway, with its key.
    a.clearLog();
    b.clearLog();
    await vscode.commands.executeCommand('modelGateway.chats.generateTitle', panel.sessionId);
    assert.deepEqual(keysOn(b, '/v1/chat/completions'), [tail(b.apiKey)], "the title was asked with the chat's Client key");
    assert.equal(a.log.length, 0, 'nothing reached the active profile\'s gateway');
  });

  it('restores a chat opened under a profile but never saved (nothing sent) under that profile after a reload, not Default', async () => {
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Work');
    const sessionId = randomUUID();
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'New Chat', vscode.ViewColumn.Active, { enableScripts: true });
    try {
      await manager.deserializeWebviewPanel(webviewPanel, { sessionId });
      const panel = manager.openPanels.find((p) => p.sessionId === sessionId);
      assert.equal(panel?.controller.session.settings.profile, created[0], "the window's profile (Work), as a new chat opens");
    } finally {
      webviewPanel.dispose();
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Default');
    }
  });

  it("lists the chat's own profile's models in its picker, not the window's, and follows Change Chat Profile…", async () => {
    const client = created[1];
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Default');
    // The window's (Default's) list is loaded: the chat must not be given it once it runs under Client.
    assert.deepEqual((await manager.refreshModels({ force: true }, 'default')).models, ['model-k3', 'model-5.2']);
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'profile'), 'the chat page to load', 20_000);
    a.clearLog();
    b.clearLog();
    assert.equal(await vscode.commands.executeCommand('modelGateway.changeChatProfile', 'Client', panel.sessionId), client);
    const pickerModels = () => posted.filter((m) => m.type === 'models' && !m.models.loading).map((m) => (m.type === 'models' ? m.models.models : []));
    await until(() => pickerModels().some((models) => models.join() === 'model-5.2'), "the picker to list the Client profile's models", 20_000);
    assert.deepEqual(pickerModels().at(-1), ['model-5.2']);
    // The page's refresh button asks the chat's gateway again, with its key, and nothing of the window's.
    const before = pickerModels().length;
    await panel.handleMessage({ type: 'refreshModels' });
    await until(() => pickerModels().length > before, 'the refreshed list');
    assert.deepEqual(pickerModels().at(-1), ['model-5.2']);
    assert.deepEqual(keysOn(b, '/v1/models'), [tail(b.apiKey)], "listed with the Client profile's key");
    assert.equal(keysOn(a, '/v1/models').length, 0, "nothing was asked of the window's gateway");

    // Opened again (as after a reload), the chat's first message lists its own profile's models too.
    await manager.closeSession(panel.sessionId);
    const reopened = (await manager.openSession(panel.sessionId))!;
    const again: HostMessage[] = [];
    reopened.onDidPost((m) => again.push(m));
    const init = await until(() => again.find((m) => m.type === 'init'), 'the reopened chat to load', 20_000);
    assert.deepEqual(init.type === 'init' && init.models.models, ['model-5.2']);
    assert.equal(api.connections.active.id, 'default');
  });

  it("moves a chat to a profile whose gateway lacks its model onto that profile's first chat model, and keeps one it lists", async () => {
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Default');
    // Bare names no default chat model, and its gateway (Client's) does not list Default's first one.
    const bare = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Bare', baseUrl: b.baseUrl })) as string;
    created.push(bare);
    await until(() => api.connections.profile(bare), 'the connections to see Bare');
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', b.apiKey, bare), true);
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => panel.controller.session.settings.model === 'model-k3', "the chat to take Default's first chat model", 20_000);
    assert.equal(await vscode.commands.executeCommand('modelGateway.changeChatProfile', 'Bare', panel.sessionId), bare);
    assert.equal(panel.controller.session.settings.model, 'model-5.2', 'the first chat model Bare lists, not model-k3 (404 there)');
    assert.ok(posted.some((m) => m.type === 'settings' && m.settings.model === 'model-5.2'), 'the picker shows it');
    await reply(panel, '[echo] under Bare');
    const answer = panel.controller.session.turns.at(-1);
    assert.ok(answer?.role === 'assistant' && answer.error === undefined && answer.content.includes('under Bare'), 'the next message is answered');
    // Default's gateway lists model-5.2 too: moved back, the chat keeps it.
    assert.equal(await vscode.commands.executeCommand('modelGateway.changeChatProfile', 'Default', panel.sessionId), 'default');
    assert.equal(panel.controller.session.settings.model, 'model-5.2');
    await manager.closeSession(panel.sessionId);
  });

  it('deletes a profile whose job still runs by hiding it, polls the job with its key until it ends, then removes the key', async () => {
    const client = created[1];
    const store = (api.testing.videos as { feature: { store: JobStore } }).feature.store;
    const keys = api.testing.keys as ApiKeyStore;
    const slot = api.connections.slotOf(client)!;
    store.setFocused(true);
    b.holdVideos();
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: 'A harbour at night', profile: 'Client' })) as VideoJobRecord;
    assert.equal(record.profile, client);
    assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.delete', 'Client', { confirm: false }), true);
    await until(() => !api.connections.profiles.some((p) => p.id === client), 'the profile to be hidden');
    assert.equal(profiles.get('Client'), undefined, 'no longer offered by name');
    assert.equal(await keys.get(slot), b.apiKey, 'its key stays while its job runs');
    b.clearLog();
    b.releaseHeldVideos();
    await until(() => store.get(record.key)?.status === 'completed', 'the job to complete after the delete', 30_000);
    const polls = b.log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/videos/'));
    assert.ok(polls.length > 0 && polls.every((e) => e.authorization?.endsWith(tail(b.apiKey))), 'polled with its own key');
    await until(() => profiles.all.every((p) => p.id !== client), 'the profile to be removed once its job ended');
    await until(async () => (await keys.get(slot)) === undefined, 'its key to be removed');
    await store.remove(record.key);
  });

  it('asks before deleting a profile whose job runs: declining changes nothing, accepting retires it, a job begun while it asked included', async () => {
    const videos = api.testing.videos as { feature: { store: JobStore }; runningJobs(slot: string): number };
    const store = videos.feature.store;
    const keys = api.testing.keys as ApiKeyStore;
    const ui = new RecordingUi();
    const memento = { get: () => undefined, update: async () => undefined };
    const commands = new ProfileCommands({ profiles, connection: api.connections, keys, ui, workspaceState: memento, globalState: memento, runningJobs: (slot) => videos.runningJobs(slot), defaultGateway: () => ({ baseUrl: undefined, headers: {} }) });
    const make = async (name: string) => {
      const id = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name, baseUrl: b.baseUrl })) as string;
      created.push(id);
      await until(() => api.connections.profile(id), `the connections to see ${name}`);
      assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', b.apiKey, id), true);
      return { id, slot: api.connections.slotOf(id)! };
    };
    const video = async (profile: string) => (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: 'A quay in rain', profile })) as VideoJobRecord;
    const retired = (id: string) => profiles.all.find((p) => p.id === id)?.retired === true;
    const busy = await make('Busy');
    const quiet = await make('Quiet');
    store.setFocused(true);
    b.holdVideos();
    const jobs = [await video(busy.id)];

    ui.answer = undefined;
    assert.equal(await commands.delete('Busy', undefined), false, 'declined');
    assert.equal(ui.asked.length, 1, 'it asked first');
    assert.match(ui.asked[0], /Delete the profile "Busy"/);
    assert.ok(profiles.get(busy.id) && !retired(busy.id), 'neither deleted nor retired');
    assert.equal(await keys.get(busy.slot), b.apiKey);

    ui.answer = 'Delete When Jobs Finish';
    assert.equal(await commands.delete('Busy', undefined), true);
    assert.ok(retired(busy.id) && !profiles.get(busy.id), 'hidden, kept for its job');
    assert.equal(await keys.get(busy.slot), b.apiKey, 'its key stays while its job runs');
    // Deleted for the user: a script naming it by id finds nothing to bind or edit.
    assert.equal(await commands.useInWorkspace(busy.id), false, 'a deleted profile is not bound to the workspace');
    assert.notEqual(api.connections.active.id, busy.id);
    assert.match(ui.shown.at(-1)?.message ?? '', /"Busy" was deleted/);

    // No job when it asks, one started while the question is open: its key must stay for it.
    ui.ask = async (_kind, message) => {
      ui.asked.push(message);
      jobs.push(await video(quiet.id));
      return 'Delete Profile';
    };
    assert.equal(await commands.delete('Quiet', undefined), true);
    assert.ok(retired(quiet.id), 'retired, not removed: a job started under it while it asked');
    assert.equal(await keys.get(quiet.slot), b.apiKey);

    // A job still being submitted (its answer on the way) needs the key as much as one being polled.
    const slow = await make('Slow');
    const submitting = vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: '[fault:slow-headers] A slow barge', profile: slow.id }) as Thenable<VideoJobRecord>;
    await until(() => store.jobs(slow.slot).some((job) => job.localState === 'submitting'), 'the submission to be on its way');
    assert.equal(await commands.delete('Slow', { confirm: false }), true);
    assert.ok(retired(slow.id), 'retired, not removed: its job was being submitted');
    assert.equal(await keys.get(slow.slot), b.apiKey);
    jobs.push(await submitting);

    b.releaseHeldVideos();
    await until(() => jobs.every((job) => store.get(job.key)?.status === 'completed'), 'the jobs to complete', 30_000);
    await until(() => profiles.all.every((p) => ![busy.id, quiet.id, slow.id].includes(p.id)), 'the profiles to be removed once their jobs ended');
    for (const job of jobs) await store.remove(job.key);
  });
});
