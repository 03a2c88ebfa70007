import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../../../src/auth/core/apiKeyStore';
import { clearHeaderValues } from '../../../src/auth/core/headerSecrets';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ProfileStore } from '../../../src/auth/core/profileStore';
import type { ConnectionStatusBar } from '../../../src/ui/vscode/statusBar';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import type { JobStore } from '../../../src/videos/core/jobStore';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';
import { RecordingUi } from '../recordingUi';
import type { UserInterface } from '../../../src/ui/vscode/userInterface';

/** A header value that must reach the Work profile's gateway, and never its profile list. */
const TEAM = 'team-work-9c1f';

/** The last four characters of a key: what the simulator's log keeps of it. */
const tail = (key: string) => key.slice(-4);
const sentWith = (sim: Simulator) => new Set(sim.log.map((e) => e.authorization?.slice(-4)).filter(Boolean));

describe('Profiles: several gateways and keys side by side (issue 23)', function () {
  this.timeout(60_000);
  let a: Simulator;
  let b: Simulator;
  let api: ModelGatewayApi;
  let profiles: ProfileStore;
  let work: string;
  let client: string;

  before(async () => {
    a = await startSimulator();
    b = await startSimulator({ video: { queuedMs: 1500, inProgressMs: 1500 } });
    api = await extensionApi();
    profiles = await (api.testing.profiles as Promise<ProfileStore>);
    await config().update('video.pollMinSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', 1, vscode.ConfigurationTarget.Global);
    await connectTo(api, a);
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
    for (const id of [work, client]) if (id) await vscode.commands.executeCommand('modelGateway.profiles.delete', id, { confirm: false });
    await config().update('video.pollMinSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', undefined, vscode.ConfigurationTarget.Global);
    await disconnect();
    await Promise.all([a.close(), b.close()]);
  });

  it('creates profiles from a script, refuses a duplicate name and headers that set Authorization', async () => {
    assert.deepEqual(profiles.profiles.map((p) => p.name), ['Default'], 'the update made today\'s gateway the Default profile, asking nothing');
    work = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Work', baseUrl: a.baseUrl, headers: { 'X-Team': TEAM } })) as string;
    assert.doesNotMatch(readFileSync(profiles.path, 'utf8'), new RegExp(TEAM), 'a header value is kept in secret storage, never in the profile list');
    assert.deepEqual(profiles.get(work)?.headers, { 'X-Team': '' });
    client = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Client', baseUrl: b.baseUrl })) as string;
    assert.ok(work && client && work !== client);
    // A refused script call escapes the handler: the one catch around every command words it once, through the
    // seam, with its actions (not VS Code's "Running the contributed command … failed"), and the command resolves.
    const ui = new RecordingUi();
    const restore = (api.testing.useUi as (ui: UserInterface) => () => void)(ui);
    try {
      assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'work', baseUrl: b.baseUrl }), undefined);
      assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Sneaky', baseUrl: b.baseUrl, headers: { Authorization: 'Bearer x' } }), undefined);
    } finally {
      restore();
    }
    assert.equal(ui.shown.length, 2, ui.notes.join('\n'));
    assert.ok(ui.shown.every((s) => s.kind === 'advice'));
    assert.match(ui.notes[0], /exists already/);
    assert.match(ui.notes[1], /reserved/);
    assert.deepEqual(ui.advised.map((a) => a.actions.map((action) => action.title)), [['Open Logs'], ['Open Logs']]);
    await until(() => api.connections.profiles.length === 3, 'the connections to see three profiles');
    // Two profiles on one origin with different keys; a third on another gateway.
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', a.keys.restricted, 'Work'), true);
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', b.apiKey, client), true);
  });

  it('sends each profile\'s requests with its own key to its own origin only', async () => {
    a.clearLog();
    b.clearLog();
    for (const profile of ['default', work, client]) {
      const access = await api.connections.access(profile);
      assert.ok(access.ok, `access for ${profile}`);
      await access.api.listModels();
      await access.api.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'hi' }] });
    }
    assert.deepEqual(sentWith(a), new Set([tail(a.apiKey), tail(a.keys.restricted)]), 'the origin two profiles share saw both their keys');
    assert.deepEqual(sentWith(b), new Set([tail(b.apiKey)]), 'the other gateway saw only its profile\'s key');
    const workRequests = a.log.filter((e) => e.authorization?.endsWith(tail(a.keys.restricted)));
    assert.ok(workRequests.length > 0 && workRequests.every((e) => e.headers['x-team'] === TEAM), 'the Work profile\'s headers go with its key');
    assert.ok(a.log.filter((e) => e.authorization?.endsWith(tail(a.apiKey))).every((e) => e.headers['x-team'] === undefined));
  });

  it("moves the requestHeaders setting's values to secret storage, and still sends them to Default's origin", async () => {
    const keys = api.testing.keys as ApiKeyStore;
    const user = () => config().inspect<Record<string, string>>('requestHeaders')?.globalValue;
    try {
      await config().update('requestHeaders', { 'X-Default-Secret': 'dflt-5e2a' }, vscode.ConfigurationTarget.Global);
      await until(() => user()?.['X-Default-Secret'] === '', 'the value to leave the user setting');
      assert.deepEqual(await keys.headerValues(a.origin), { 'X-Default-Secret': 'dflt-5e2a' });
      a.clearLog();
      const access = await api.connections.access('default');
      assert.ok(access.ok);
      await access.api.listModels();
      assert.ok(a.log.length > 0 && a.log.every((e) => e.headers['x-default-secret'] === 'dflt-5e2a'), 'sent from secret storage');
    } finally {
      await config().update('requestHeaders', undefined, vscode.ConfigurationTarget.Global);
      await clearHeaderValues(keys, a.origin);
    }
  });

  it("offers every keyed profile's models in VS Code's chat, named by profile, each sent with its own profile's key", async () => {
    const models = await until(async () => {
      const listed = await vscode.lm.selectChatModels({ vendor: 'model-gateway' });
      return listed.some((m) => m.name === 'model-k3 (Client)') && listed;
    }, "the Client profile's models in VS Code chat");
    const names = models.map((m) => m.name);
    for (const name of ['model-k3 (Default)', 'model-k3 (Work)', 'model-k3 (Client)']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    const ask = async (name: string, sim: Simulator) => {
      sim.clearLog();
      const response = await models.find((m) => m.name === name)!.sendRequest([vscode.LanguageModelChatMessage.User('[echo] hi')]);
      for await (const part of response.stream) void part;
      return sim.log.filter((e) => e.path === '/v1/chat/completions').map((e) => e.authorization?.slice(-4));
    };
    assert.deepEqual(await ask('model-k3 (Client)', b), [tail(b.apiKey)]);
    assert.deepEqual(await ask('model-k3 (Work)', a), [tail(a.keys.restricted)]);
    assert.deepEqual(await ask('model-k3 (Default)', a), [tail(a.apiKey)]);
  });

  it('polls a job with its own profile\'s key after switching to another profile, and shows the active profile', async () => {
    const store = (api.testing.videos as { feature: { store: JobStore } }).feature.store;
    store.setFocused(true);
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: 'A lighthouse at dawn', profile: 'Client' })) as VideoJobRecord;
    assert.equal(record.profile, client);
    assert.equal(record.origin, b.origin);
    assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Work'), work);
    const statusBar = api.testing.statusBar as ConnectionStatusBar;
    await until(() => statusBar.text.endsWith('· Work'), 'the status bar to name the active profile');
    assert.equal(api.connection.origin, a.origin);
    await until(() => store.get(record.key)?.status === 'completed', 'the job to complete after the switch', 30_000);
    const polls = b.log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/videos/'));
    assert.ok(polls.length > 0);
    assert.ok(polls.every((e) => e.authorization?.endsWith(tail(b.apiKey))), 'every poll went with the Client profile\'s key');
    assert.equal(sentWith(b).size, 1, 'the Work profile\'s key never reached the other gateway');
    await store.remove(record.key);
  });

  it('refuses to delete the active profile, and deletes another with its key', async () => {
    assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.delete', 'Work', { confirm: false }), false);
    assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Default'), 'default');
    const copied = await profiles.duplicate(client);
    assert.ok(copied.ok);
    const duplicate = copied.profile.id;
    assert.equal(copied.profile.name, 'Client (2)');
    await until(() => api.connections.profile(duplicate), 'the connections to see the copy');
    assert.equal((await api.connections.access(duplicate)).ok, false, 'a copy has no key of its own');
    assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.delete', duplicate, { confirm: false }), true);
    assert.equal(profiles.get(duplicate), undefined);
  });
});
