import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ConnectionStatusBar } from '../../../src/ui/vscode/statusBar';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { modelList } from '../../simulator/models';
import { config, connectTo, extensionApi, until } from '../helpers';

describe('API key, settings and status (issue 4)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let statusBar: ConnectionStatusBar;

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    statusBar = api.testing.statusBar as ConnectionStatusBar;
    await connectTo(api, sim, { key: false });
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
  });

  it('sets a key from the argument, verifies it, rotates and clears it', async () => {
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', `  ${sim.apiKey}  `), true);
    const client = await until(() => api.connection.api(), 'a client');
    const models = await client.listModels();
    assert.deepEqual(models.map((m) => m.id).sort(), modelList().data.map((m) => m.id).sort());
    assert.ok(models.some((m) => m.id === 'model-k3'));
    assert.equal(sim.log.at(-1)?.authorization?.includes(sim.apiKey), false, 'the log shows the key redacted');
    await until(() => statusBar.text === '$(cloud) Gateway' && api.connection.state.kind === 'connected', 'connected status');

    assert.equal(await vscode.commands.executeCommand('modelGateway.rotateApiKey', sim.keys.disabled), true);
    await assert.rejects((await api.connection.api())!.listModels(), (e: { status: number }) => e.status === 403);

    assert.equal(await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false }), true);
    assert.equal(await api.connection.api(), undefined);
    await until(() => api.connection.state.kind === 'no-key', 'no-key state');
    assert.match(statusBar.text, /no key/);
  });

  it('rejects an empty key and keeps the old one', async () => {
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', '   '), false);
    const client = await api.connection.api();
    assert.ok(client, 'the previous key is still there');
    await client.listModels();
  });

  it('keeps keys per origin and never sends one to another origin', async () => {
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    const other = await startSimulator();
    try {
      await config().update('baseUrl', other.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => api.connection.origin === other.origin, 'the new origin');
      assert.equal(await api.connection.api(), undefined, 'no key for the new origin');
      assert.equal(api.connection.state.kind, 'no-key');
      assert.equal(other.log.length, 0, 'nothing was sent to the other origin');
    } finally {
      await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => api.connection.origin === sim.origin, 'the first origin again');
      await other.close();
    }
    assert.ok(await api.connection.api(), 'the first origin still has its key');
  });

  it('ignores a workspace-level baseUrl, as a cloned repository would set it', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run with a folder open');
    const settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    const before = api.connection.baseUrl;
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    // video.resolutions may be set per workspace: once VS Code shows its workspace value, it has read the file
    // (and the extension has seen the change event, which reaches every listener in this host at once).
    const witness = ['640x360'];
    fs.writeFileSync(settingsFile, JSON.stringify({ 'modelGateway.baseUrl': 'http://127.0.0.1:9/v1', 'modelGateway.requestHeaders': { 'X-Evil': '1' }, 'modelGateway.video.resolutions': witness }));
    try {
      await until(() => JSON.stringify(config().inspect('video.resolutions')?.workspaceValue) === JSON.stringify(witness), 'VS Code to read the workspace settings file');
      assert.notEqual(config().get('baseUrl'), 'http://127.0.0.1:9/v1', 'VS Code does not apply an application setting from a workspace');
      assert.equal(api.connection.baseUrl, before, 'the connection still uses the user value');
      await (await api.connection.api())!.listModels();
      assert.equal(sim.log.at(-1)?.headers['x-evil'], undefined, 'workspace headers are not sent');
    } finally {
      fs.rmSync(path.dirname(settingsFile), { recursive: true, force: true });
    }
  });

  it('shows unauthorized, forbidden, rate limited with a countdown, and offline', async () => {
    await vscode.commands.executeCommand('modelGateway.setApiKey', 'sk-not-a-real-key');
    await assert.rejects((await api.connection.api())!.listModels(), (e: { status: number }) => e.status === 401);
    await until(() => /unauthorized/.test(statusBar.text), 'unauthorized status');

    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.keys.disabled);
    await assert.rejects((await api.connection.api())!.listModels(), (e: { status: number }) => e.status === 403);
    await until(() => /forbidden/.test(statusBar.text), 'forbidden status');

    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    sim.force429(120, 1);
    await assert.rejects((await api.connection.api())!.listModels(), (e: { status: number }) => e.status === 429);
    const first = await until(() => /rate limited (\d+)s/.exec(statusBar.text) ?? undefined, 'rate limited status');
    assert.ok(Number(first[1]) > 100 && Number(first[1]) <= 120, statusBar.text);
    const later = await until(() => {
      const m = /rate limited (\d+)s/.exec(statusBar.text);
      return m && Number(m[1]) < Number(first[1]) ? m : undefined;
    }, 'the countdown to tick', 5000);
    assert.ok(Number(later[1]) < Number(first[1]));

    const closed = await startSimulator();
    const deadOrigin = closed.baseUrl;
    const deadOriginKey = closed.origin;
    await closed.close();
    await config().update('baseUrl', deadOrigin, vscode.ConfigurationTarget.Global);
    try {
      await until(() => api.connection.origin === deadOriginKey, 'the dead origin');
      await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
      await assert.rejects((await api.connection.api())!.listModels(), (e: { code: string }) => e.code === 'network');
      await until(() => /offline/.test(statusBar.text), 'offline status');
      await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    } finally {
      await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    }
  });

  it('never writes a canary key to logs, settings or extension state', async () => {
    const canary = `sk-canary-${Date.now().toString(36)}-do-not-leak`;
    await vscode.commands.executeCommand('modelGateway.setApiKey', canary);
    const client = (await api.connection.api())!;
    await assert.rejects(client.listModels(), (e: Error) => !String(e.message).includes(canary) && !JSON.stringify(e).includes(canary));
    await assert.rejects(client.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'hi' }], stream: true }));

    const logDir = (api.testing.logUri as vscode.Uri).fsPath;
    const readLogs = () => (fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => fs.readFileSync(path.join(logDir, f), 'utf8')).join('\n') : '');
    // Log channels flush to disk asynchronously: wait for the request's line, which is where a key would be.
    const logText = await until(
      () => {
        const text = readLogs();
        return /GET .*\/models.*401/.test(text) && text;
      },
      'the request to be logged',
      10_000,
      100,
    );
    assert.ok(!logText.includes(canary), 'the log does not contain the key');

    const settingsDump = JSON.stringify(vscode.workspace.getConfiguration('modelGateway'));
    assert.ok(!settingsDump.includes(canary), 'no setting holds the key');
    for (const memento of [api.testing.globalState, api.testing.workspaceState] as vscode.Memento[]) {
      const dump = JSON.stringify(memento.keys().map((k) => [k, memento.get(k)]));
      assert.ok(!dump.includes(canary), 'no extension state holds the key');
    }
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
  });
});
