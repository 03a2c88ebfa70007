// The usage ledger in the real VS Code against the simulator (issue 24): every surface that sends a request writes
// one record when it finishes, VS Code's own chat included, with the cost the gateway reported or one estimated
// from the prices on its model list; and Export Usage writes the documented JSON and CSV without asking.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import type { ModelCatalog } from '../../../src/models/core/modelCatalog';
import { EXPORT_COLUMNS } from '../../../src/usage/core/exportFormat';
import type { UsageRecord } from '../../../src/usage/core/recordTypes';
import type { UsageService } from '../../../src/usage/vscode/usageService';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

describe('usage ledger (issue 24)', function () {
  this.timeout(120_000);
  let sim: Simulator;
  let usage: UsageService;
  let api: Awaited<ReturnType<typeof extensionApi>>;
  let manager: ChatPanelManager;
  let since: number;
  let dir: string;

  const records = async (): Promise<UsageRecord[]> => {
    await usage.recorder.settled();
    return (await usage.ledger.read()).records.filter((r) => r.time >= since);
  };
  const bySurface = async (surface: string) => (await records()).filter((r) => r.surface === surface);
  /** The records of a surface once there are `count` of them (the newest last). */
  const recordsOf = (surface: string, what: string, count = 1) => until(async () => ((await bySurface(surface)).length >= count ? bySurface(surface) : undefined), what, 20_000);
  const chatRequests = () => sim.log.filter((e) => e.path === '/v1/chat/completions').length;

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 1000 });
    api = await extensionApi();
    usage = (api.testing.usage as () => UsageService)();
    manager = (api.testing.chat as { manager: ChatPanelManager }).manager;
    await connectTo(api, sim);
    dir = mkdtempSync(join(tmpdir(), 'mg-usage-host-'));
    since = Date.now();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await manager.flush();
    await disconnect();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records every surface when its request finishes, with reported or estimated cost', async () => {
    // VS Code's own chat, through the extension's provider: model-5.2 reports its cost in a header.
    const [lm] = await vscode.lm.selectChatModels({ vendor: 'model-gateway', id: 'model-5.2' });
    assert.ok(lm);
    sim.clearLog();
    const response = await lm.sendRequest([vscode.LanguageModelChatMessage.User('[echo] counted please')], {}, new vscode.CancellationTokenSource().token);
    for await (const _part of response.stream) void _part;
    const fromLms = await recordsOf('vscode-chat', "VS Code chat's record");
    assert.equal(fromLms.length, chatRequests(), 'one record per request VS Code chat sent');
    const fromLm = fromLms.at(-1);
    assert.equal(fromLm!.model, 'model-5.2');
    assert.equal(fromLm!.modality, 'chat');
    assert.equal(fromLm!.outcome, 'ok');
    assert.equal(fromLm!.costSource, 'reported');
    assert.ok(fromLm!.inputTokens! > 0 && fromLm!.outputTokens! > 0);

    // The panel's chat and Compare: model-k3's prices come from OpenRouter's layout on /v1/models.
    await vscode.commands.executeCommand('modelGateway.newChat', { model: 'model-k3' });
    const panel = await until(() => manager.activePanel, 'the new chat');
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the chat to load', 20_000);
    await panel.handleMessage({ type: 'send', requestId: 1, text: '[echo] one two three' });
    const chat = (await recordsOf('chat', "the panel chat's record")).at(-1);
    assert.equal(chat!.model, 'model-k3');
    assert.equal(chat!.costSource, 'estimated');
    assert.equal(chat!.cost!.toFixed(10), (chat!.inputTokens! * 0.0000005 + chat!.outputTokens! * 0.0000015).toFixed(10));
    // The reply shows its cost beside its tokens, the ledger's figure.
    const finished = await until(() => posted.find((m): m is Extract<HostMessage, { type: 'turnFinished' }> => m.type === 'turnFinished'), 'the reply to finish');
    assert.equal(finished.finish.usage?.cost, chat!.cost);
    await vscode.commands.executeCommand('modelGateway.compareModels', { question: '[echo] both of you', models: ['model-k3', 'model-5.2'] });
    const compare = await recordsOf('compare', "Compare's two records", 2);
    assert.deepEqual(compare.map((r) => r.model).sort(), ['model-5.2', 'model-k3']);
    const columns = await until(() => {
      const last = [...posted].reverse().find((m): m is Extract<HostMessage, { type: 'compare' }> => m.type === 'compare')?.compare;
      return last && last.columns.every((c) => c.status === 'complete') ? last.columns : undefined;
    }, "Compare's columns to finish", 20_000);
    assert.ok(columns.every((c) => c.usage?.cost !== undefined), 'each Compare column shows its cost beside its tokens');

    // Images (cost reported), speech (estimated per character) and video (estimated per requested second).
    await vscode.commands.executeCommand('modelGateway.generateImage', { prompt: 'A lighthouse', size: '256x256', count: 2 });
    const image = (await recordsOf('image', "the image's record")).at(-1);
    assert.deepEqual([image!.modality, image!.images, image!.imageSize, image!.costSource, image!.cost], ['image', 2, '256x256', 'reported', 0.08]);
    assert.ok(image!.imageBytes! > 0);
    const text = 'Twenty-six characters, ok.';
    await vscode.commands.executeCommand('modelGateway.synthesizeSpeech', { text, voice: 'nova' });
    const speech = (await recordsOf('speech', "the speech's record")).at(-1);
    assert.deepEqual([speech!.speechChars, speech!.costSource, speech!.cost!.toFixed(8)], [text.length, 'estimated', (text.length * 0.000015).toFixed(8)]);
    await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: 'A clock tower in fog', resolution: '1280x720', duration: 4 });
    const video = (await recordsOf('video', "the video job's record")).at(-1);
    assert.deepEqual([video!.modality, video!.videoSeconds, video!.costSource, video!.cost!.toFixed(4)], ['video', 4, 'estimated', '0.4000']);

    // Test Connection's requests are recorded, as free; the background model list is not.
    await vscode.commands.executeCommand('modelGateway.testConnection');
    const tests = await recordsOf('test-connection', "Test Connection's records");
    assert.ok(tests.every((r) => r.cost === 0 && r.costSource === 'estimated'));
    assert.deepEqual((await records()).filter((r) => r.surface === 'models'), []);

    // Nothing of what was said is in the ledger.
    const month = join(usage.ledger.folder, new Date().toISOString().slice(0, 7));
    const onDisk = readdirSync(month).map((name) => readFileSync(join(month, name), 'utf8')).join('');
    for (const secret of ['counted please', 'one two three', 'lighthouse', text, sim.apiKey]) assert.ok(!onDisk.includes(secret), `the ledger holds "${secret}"`);

    // The status bar shows the spend.
    await usage.statusBar.refresh();
    assert.match(usage.statusBar.text, /today/);
  });

  it("shows the newly active profile's spend in the status bar as soon as the window switches profile", async () => {
    const access = await api.connections.access();
    assert.ok(access.ok);
    await access.api.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'spend a little' }] });
    await usage.recorder.settled();
    await usage.statusBar.refresh();
    assert.match(usage.statusBar.text, /today/, "Default's spend");
    const spare = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Spare', baseUrl: sim.baseUrl })) as string;
    try {
      await until(() => api.connections.profile(spare), 'the connections to see Spare');
      assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Spare'), spare);
      await until(() => usage.statusBar.text === '', "the status bar to drop Default's spend (Spare has spent nothing)");
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
      await until(() => /today/.test(usage.statusBar.text), "the status bar to show Default's spend again");
    } finally {
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
      await vscode.commands.executeCommand('modelGateway.profiles.delete', spare, { confirm: false });
    }
  });

  it("prices a chat by its own profile's list, not the active profile's", async () => {
    const models = api.testing.models as { for(profile: string): { load(): Promise<unknown> } };
    await models.for('default').load();
    // The active profile's gateway answers nothing, so it has no list: before, every request was priced by it.
    const elsewhere = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Elsewhere', baseUrl: 'http://127.0.0.1:9/v1' })) as string;
    try {
      await until(() => api.connections.profile(elsewhere), 'the connections to see Elsewhere');
      assert.equal(await vscode.commands.executeCommand('modelGateway.profiles.switch', 'Elsewhere'), elsewhere);
      const access = await api.connections.access('default');
      assert.ok(access.ok);
      const started = Date.now();
      await access.api.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'priced by Default' }] }, { surface: 'compare' });
      const record = (await records()).filter((r) => r.surface === 'compare' && r.time >= started).at(-1);
      assert.equal(record?.profile, 'Default');
      assert.equal(record?.costSource, 'estimated', "Default's list prices model-k3");
      assert.ok((record?.cost ?? 0) > 0);
    } finally {
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
      await vscode.commands.executeCommand('modelGateway.profiles.delete', elsewhere, { confirm: false });
    }
  });

  it("shows the gateway's own figures for the key, labelled as its own, once the dashboard opens (never before)", async () => {
    assert.ok(!sim.log.some((e) => e.path === '/key/info'), 'not asked at activation nor by the requests so far');
    await vscode.commands.executeCommand('modelGateway.showUsage');
    try {
      const dashboard = usage.commands().dashboard;
      const update = await until(() => (dashboard.lastUpdate?.type === 'summary' && dashboard.lastUpdate.gateway ? dashboard.lastUpdate : undefined), "the gateway's figures on the dashboard");
      assert.equal(update.gateway, "LiteLLM's own figures for this key: $1.25 spent of $20.00");
      await until(() => String(usage.statusBar.tooltip ?? '').includes("LiteLLM's own figures for this key: $1.25 spent of $20.00"), "the gateway's figures in the status bar's tooltip");
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it("names whose monthly budget the dashboard shows beside every profile's totals", async () => {
    await config().update('usage.monthlyBudget', 40, vscode.ConfigurationTarget.Global);
    try {
      await until(() => usage.settings.monthlyBudget === 40, 'the budget setting to be read');
      await vscode.commands.executeCommand('modelGateway.showUsage');
      const dashboard = usage.commands().dashboard;
      await dashboard.refresh();
      const update = dashboard.lastUpdate;
      assert.ok(update?.type === 'summary');
      assert.deepEqual([update.budget, update.budgetOf], [40, 'Default'], "the window's profile's budget, named: the totals are every profile's");
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await config().update('usage.monthlyBudget', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('keeps nothing of a closed dashboard: opening and closing it again and again holds no more subscriptions', async () => {
    const dashboard = usage.commands().dashboard;
    // What the dashboard holds for as long as the window lives (private: a closed page's listeners must not be in it).
    const held = () => (dashboard as unknown as { subscriptions: unknown[] }).subscriptions.length;
    const cycle = async () => {
      const panel = dashboard.show();
      const closed = new Promise<void>((resolve) => panel.onDidDispose(() => resolve()));
      panel.dispose();
      await closed;
    };
    await cycle();
    const before = held();
    for (let i = 0; i < 3; i++) await cycle();
    assert.equal(held(), before);
  });

  it("learns the model's characters per token from the prompt tokens the gateway reports (the chat's context meter)", async () => {
    const file = join(dirname(usage.ledger.folder), 'tokenRatios.json');
    type Stored = { models: Record<string, { charsPerToken: number; weight: number; at: number }> };
    const entry = () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Stored).models['model-5.2'] : undefined);
    // Other suites may have taught it already (the file is the profile's): this request must add to what is there.
    const before = entry()?.weight ?? 0;
    const started = Date.now();
    const [lm] = await vscode.lm.selectChatModels({ vendor: 'model-gateway', id: 'model-5.2' });
    // The simulator counts a word as a token: 150 words of 5 characters and a space are about 6 characters a token.
    const response = await lm!.sendRequest([vscode.LanguageModelChatMessage.User(`[echo] ${'words '.repeat(150)}`)], {}, new vscode.CancellationTokenSource().token);
    for await (const _part of response.stream) void _part;
    const learned = await until(() => {
      const now = entry();
      return now && now.at >= started && now.weight > before ? now : undefined;
    }, 'the sample in the shared file');
    assert.ok(learned.charsPerToken >= 0.8 && learned.charsPerToken <= 8);
    const scale = (api.testing.models as ModelCatalog).tokens!().scale('model-5.2');
    assert.equal(scale, 4 / learned.charsPerToken, "the chat's meter uses it");
    if (before === 0) assert.ok(scale > 0.5 && scale < 0.8, `flat estimates × ${scale}`);
  });

  it('exports the ledger to a .json or .csv path without asking', async () => {
    const all = (await usage.ledger.read()).records.length;
    const json = join(dir, 'usage.json');
    assert.equal(await vscode.commands.executeCommand('modelGateway.usage.export', { path: json }), json);
    const rows = JSON.parse(readFileSync(json, 'utf8')) as Array<Record<string, unknown>>;
    assert.equal(rows.length, all);
    assert.deepEqual(Object.keys(rows[0]!), [...EXPORT_COLUMNS]);
    assert.ok(rows.some((r) => r.surface === 'vscode-chat' && r.costSource === 'reported' && typeof r.cost === 'number'));
    const csv = join(dir, 'usage.csv');
    await vscode.commands.executeCommand('modelGateway.usage.export', { path: csv });
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    assert.equal(lines[0], EXPORT_COLUMNS.join(','));
    assert.equal(lines.length, all + 1);
  });
});
