import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { DiagnosticReport } from '../../../src/diagnostics/core/diagnostics';
import type { CatalogSnapshot, ModelCatalog } from '../../../src/models/core/modelCatalog';
import type { ModelCommands } from '../../../src/models/vscode/modelCommands';
import type { ModelListGroup } from '../../../src/models/core/modelList';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, connectTo, extensionApi, until } from '../helpers';

const modelRequests = (sim: Simulator) => sim.log.filter((e) => e.method === 'GET' && e.path === '/v1/models');

const REPORT_SCHEME = 'model-gateway-report';
const allTabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
const isReportTab = (tab: vscode.Tab): boolean =>
  (tab.input instanceof vscode.TabInputWebview && tab.label.includes('Model Gateway Connection Test')) ||
  (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === REPORT_SCHEME);
const reportTab = (): vscode.Tab | undefined => allTabs().find(isReportTab);

/** The report's virtual document (the preview's source). */
async function reportDocument(): Promise<vscode.TextDocument> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === REPORT_SCHEME);
  return open ?? vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: REPORT_SCHEME, path: '/Model Gateway Connection Test.md' }));
}

/** Untitled or dirty documents and dirty tabs: what closing would ask about. */
function unsaved(): string[] {
  const documents = vscode.workspace.textDocuments.filter((d) => d.isUntitled || d.isDirty).map((d) => `document ${d.uri.toString()}`);
  return [...documents, ...allTabs().filter((t) => t.isDirty).map((t) => `tab ${t.label}`)].sort();
}

/** Test Connection left nothing unsaved beyond what other suites left before it. */
function assertNothingUnsaved(before: string[]): void {
  assert.deepEqual(unsaved(), before, 'no new untitled or dirty document or tab');
  const report = vscode.workspace.textDocuments.find((d) => d.uri.scheme === REPORT_SCHEME);
  if (report) assert.equal(report.isUntitled || report.isDirty, false);
}

describe('models: catalog, List Models, Refresh Models, Test Connection', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let catalog: ModelCatalog;
  let commands: ModelCommands;

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    catalog = api.testing.models as ModelCatalog;
    commands = api.testing.modelCommands as ModelCommands;
    await connectTo(api, sim);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
  });

  it('loads and classifies the gateway\'s models, once for concurrent callers', async () => {
    sim.clearLog();
    const [a, b] = await Promise.all([catalog.load({ force: true }), catalog.load()]);
    assert.equal(a, b);
    assert.equal(modelRequests(sim).length, 1);
    assert.equal(a?.origin, sim.origin);
    assert.deepEqual(
      a?.models.map((m) => [m.id, m.kind, m.ownedBy]),
      [
        ['model-k3', 'chat', 'model-gateway'],
        ['model-5.2', 'chat', 'model-gateway'],
        ['model-1.0-video-edit', 'video', 'model-gateway'],
        ['model-image-1.0', 'image', 'model-gateway'],
        ['model-speech-1.0', 'speech', 'model-gateway'],
        ['model-transcribe-1.0', 'other', 'model-gateway'],
      ],
    );
    await catalog.load();
    assert.equal(modelRequests(sim).length, 1, 'a fresh list is served from the cache');
  });

  it('Refresh Models asks the gateway again and returns the list', async () => {
    sim.clearLog();
    const snapshot = await vscode.commands.executeCommand<CatalogSnapshot | undefined>('modelGateway.refreshModels');
    assert.equal(snapshot?.models.length, 6);
    assert.equal(modelRequests(sim).length, 1);
  });

  it('List Models shows chat, video, image, speech and other groups with details and per-model actions', async () => {
    await config().update('chat.model', 'model-5.2', vscode.ConfigurationTarget.Global);
    const groups = await vscode.commands.executeCommand<ModelListGroup[] | undefined>('modelGateway.listModels');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(groups);
    assert.deepEqual(
      groups.map((g) => [g.title, g.entries.map((e) => e.id)]),
      [
        ['Chat models', ['model-k3', 'model-5.2']],
        ['Video models', ['model-1.0-video-edit']],
        ['Image models', ['model-image-1.0']],
        ['Speech models', ['model-speech-1.0']],
        ['Other models', ['model-transcribe-1.0']],
      ],
    );
    const [chat, video, image, speech] = groups;
    assert.equal(chat.entries[1].description, 'default chat model');
    assert.match(chat.entries[0].detail, /^Owner: model-gateway · Created: \d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(chat.entries[0].actions, ['startChat', 'setDefaultChat', 'copyId']);
    assert.deepEqual(video.entries[0].actions, ['copyId']);
    assert.deepEqual(image.entries[0].actions, ['setDefaultImage', 'copyId']);
    assert.deepEqual(speech.entries[0].actions, ['setDefaultSpeech', 'copyId']);
  });

  it('sets the default chat model in user settings', async () => {
    await config().update('chat.model', undefined, vscode.ConfigurationTarget.Global);
    await commands.run('setDefaultChat', 'model-k3');
    assert.equal(config().inspect<string>('chat.model')?.globalValue, 'model-k3');
  });

  it('copies a model id to the clipboard', async () => {
    await vscode.env.clipboard.writeText('');
    await commands.run('copyId', 'model-1.0-video-edit');
    assert.equal(await vscode.env.clipboard.readText(), 'model-1.0-video-edit');
  });

  it('drops the list when the gateway changes and loads the new gateway\'s list', async () => {
    await catalog.load();
    const other = await startSimulator();
    try {
      await config().update('baseUrl', other.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => api.connection.origin === other.origin, 'the new origin');
      assert.equal(catalog.current, undefined);
      assert.equal(await catalog.load(), undefined, 'no key for the new origin yet: nothing loaded');
      assert.equal(other.log.length, 0, 'nothing was sent without a key');
      await vscode.commands.executeCommand('modelGateway.setApiKey', other.apiKey);
      const snapshot = await catalog.load();
      assert.equal(snapshot?.origin, other.origin);
      assert.deepEqual(snapshot?.models.map((m) => m.id), ['model-k3', 'model-5.2', 'model-1.0-video-edit', 'model-image-1.0', 'model-speech-1.0', 'model-transcribe-1.0']);
      // VS Code may ask the provider again once the new key has worked, so there can be more than one request.
      assert.ok(modelRequests(other).length >= 1);
    } finally {
      await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
      await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
      await until(() => api.connection.origin === sim.origin, 'the first origin again');
      await other.close();
    }
  });

  it('gives the report documents text before Test Connection or Diagnose Models has run (report tabs VS Code restores after a reload), loading none of their code', async () => {
    const loaded = () => Object.keys(require.cache).some((file) => path.basename(file) === 'testConnectionCommand.js');
    assert.equal(loaded(), false, 'Test Connection has not run in this extension host yet');
    const document = await reportDocument();
    assert.match(document.getText(), /^# Model Gateway: connection test\n[^]*Run "Model Gateway: Test Connection"/);
    assert.equal(loaded(), false, 'asking for the document loaded no Test Connection code');
    // Diagnose Models has not run in this extension host (its commands' file may have: this suite's List Models).
    const models = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'model-gateway-models', path: '/Model Gateway Models.md' }));
    assert.match(models.getText(), /^# Model Gateway: models\n\nNo report in this window[^]*Run "Model Gateway: Diagnose Models"/);
    // A run writes its report into that same document.
    assert.ok((await commands.diagnoseModels())?.some((d) => d.id === 'model-k3'));
    await until(() => models.getText().includes('model-k3') || undefined, 'the report in the document');
    // The video dialect, decided from what the simulator says about itself (no /model/info, no /videos/models).
    assert.match(models.getText(), /## Video dialect\n\nVideo jobs use the `spec` dialect: nothing the gateway says about itself names another dialect[^]*\/model\/info\\: HTTP 404/);
    await vscode.window.tabGroups.close(allTabs().filter((tab) => tab.label.includes('Model Gateway Models')));
  });

  it('Test Connection checks every layer and shows a read-only report, never an unsaved document, with Copy Report and Run Again', async () => {
    const before = unsaved();
    sim.clearLog();
    const report = await vscode.commands.executeCommand<DiagnosticReport>('modelGateway.testConnection');
    assert.ok(report);
    assert.deepEqual(
      report.steps.map((s) => [s.id, s.status]),
      [
        ['settings', 'ok'],
        ['dns', 'ok'],
        ['connect', 'ok'],
        ['tls', 'skipped'],
        ['auth', 'ok'],
        ['models', 'ok'],
        ['latency', 'ok'],
        ['dialect', 'ok'],
      ],
    );
    assert.match(report.steps.at(-1)!.message, /^Video jobs use the spec dialect: nothing the gateway says about itself names another dialect\. What the gateway said: host 127\.0\.0\.1 names no dialect; \/models: 6 models/);
    assert.equal(report.ok, true);
    assert.equal(report.modelCount, 6);
    assert.ok(modelRequests(sim).length >= 1, 'the model list was requested for real');

    const tab = await until(reportTab, 'the report preview tab');
    assert.ok(tab.input instanceof vscode.TabInputWebview, `the report is shown rendered (a ${tab.input?.constructor.name} tab: ${tab.label})`);
    assertNothingUnsaved(before);
    // The document hears of the new text after the tab opens (VS Code asks the provider again): ~80 ms when a
    // preview of another report was opened and closed just before.
    const text = await until(async () => {
      const current = (await reportDocument()).getText();
      return current.includes('Everything works') ? current : undefined;
    }, 'the report in its document');
    assert.match(text, /^# Model Gateway: connection test/);
    assert.match(text, /Everything works/);
    assert.equal(text.includes(sim.apiKey), false, 'the key is not in the report');
    assert.equal(JSON.stringify(report).includes(sim.apiKey), false);

    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('modelGateway.copyConnectionReport');
    assert.equal(await vscode.env.clipboard.readText(), text, 'Copy Report copies the report');

    sim.clearLog();
    const again = await vscode.commands.executeCommand<DiagnosticReport>('modelGateway.runConnectionTestAgain');
    assert.ok(again.startedAt >= report.startedAt);
    assert.ok(modelRequests(sim).length >= 1, 'Run Again tests for real');
    assert.equal(allTabs().filter(isReportTab).length, 1, 'the report is refreshed in place, not opened twice');
    assertNothingUnsaved(before);
    assert.equal(await vscode.window.tabGroups.close(reportTab()!), true, 'the report closes without asking');
    assert.equal(reportTab(), undefined);
  });

  it('Test Connection says when the key is rejected', async () => {
    await vscode.commands.executeCommand('modelGateway.rotateApiKey', 'sk-not-a-valid-key-1234567890');
    const before = unsaved();
    try {
      const report = await vscode.commands.executeCommand<DiagnosticReport>('modelGateway.testConnection');
      const auth = report.steps.find((s) => s.id === 'auth');
      assert.equal(auth?.status, 'failed');
      assert.match(auth?.message ?? '', /^API key missing or invalid for /, 'worded as every feature words a refused key');
      assert.equal(report.ok, false);
      await until(reportTab, 'the report preview tab');
      await until(async () => (await reportDocument()).getText().includes('API key missing or invalid') || undefined, 'the report to show the refusal');
      assertNothingUnsaved(before);
      await vscode.window.tabGroups.close(reportTab()!);
    } finally {
      await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    }
  });
});
