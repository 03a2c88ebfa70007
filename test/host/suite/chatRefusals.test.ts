// Failures no wait cures, as a person meets them in the chat panel: LiteLLM's budget 429 is a budget problem with the
// gateway's figures and no countdown, and the next message goes out at once; OpenRouter's error inside a stream
// shows its own words.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { ModelGatewayApi } from '../../../src/extension';
import { startSimulator, type Simulator } from '../../simulator';
import { config, until } from '../helpers';
import { PanelRecorder } from '../panelRecorder';

describe('chat: refusals no wait cures (budget error, in-stream error)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let storage: string;
  let manager: ChatPanelManager;

  async function openChat(): Promise<PanelRecorder> {
    const recorder = new PanelRecorder(await manager.newChat());
    await until(() => recorder.posted.some((m) => m.type === 'models' && !m.models.loading) || recorder.posted.some((m) => m.type === 'init' && m.models.models.length > 0 && !m.models.loading), 'the model list');
    return recorder;
  }

  /** Sends one message into a new chat while the simulator answers it with `fault`, and waits for its end. */
  async function sendFailing(fault: string, text: string) {
    const recorder = await openChat();
    sim.setDefaultFault(fault, 1);
    const mark = recorder.posted.length;
    await recorder.send({ type: 'send', requestId: 1, text });
    return { recorder, finish: await recorder.finish(mark) };
  }

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 0 });
    const api = await vscode.extensions.getExtension<ModelGatewayApi>('model-gateway.model-gateway')!.activate();
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-refusals-host-'));
    manager = (api.testing.chat as { createManager(folder: string): ChatPanelManager }).createManager(storage);
  });

  after(async () => {
    manager.dispose();
    await manager.flush();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  beforeEach(() => {
    sim.clearLog();
    sim.setDefaultFault(null);
  });

  it("a LiteLLM-style budget 429 is a budget problem with the gateway's figures, no countdown, and the next message goes out at once", async () => {
    const { recorder, finish } = await sendFailing('budget-429', '[echo] over budget?');
    assert.equal(finish.status, 'failed');
    assert.equal(finish.error?.kind, 'budget');
    assert.match(finish.error?.message ?? '', /^Budget reached on Default: \$10\.51 of \$10\.00\./);
    assert.equal(finish.error?.retryInMs, undefined, 'no countdown to a wait that cannot help');
    assert.ok(finish.error?.actions.includes('Profile Settings…'), JSON.stringify(finish.error?.actions));
    assert.equal(sim.log.filter((e) => e.path === '/v1/chat/completions').length, 1, 'never retried');
    // The gateway's Retry-After did not pause the key: the next message is sent without waiting.
    const mark = recorder.posted.length;
    await recorder.send({ type: 'send', requestId: 2, text: '[echo] and now?' });
    const next = await recorder.finish(mark);
    assert.equal(next.status, 'complete');
    assert.ok(!recorder.posted.slice(mark).some((m) => m.type === 'turnWaiting' && m.waitMs !== null), 'no wait for the rate limit');
  });

  it("OpenRouter's error inside a stream is shown with its own words", async () => {
    const { finish } = await sendFailing('openrouter-error-chunk', '[echo] alpha beta gamma delta epsilon');
    assert.equal(finish.status, 'interrupted');
    assert.equal(finish.error?.kind, 'server');
    assert.ok(finish.error?.message.includes('Provider returned error: upstream disconnected (simulated)'), finish.error?.message);
  });
});
