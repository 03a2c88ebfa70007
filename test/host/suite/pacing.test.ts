// Pacing in the real VS Code (issue 24, "Limits"): after the gateway says no requests remain, the next request
// waits for the reset, with a countdown in the chat panel that Stop cancels, and nothing reaches the gateway
// meanwhile; the status bar says when it slows down. The suite has its own simulator, so its own origin and
// pacing state.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ConnectionStatusBar } from '../../../src/ui/vscode/statusBar';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { connectTo, disconnect, extensionApi, until } from '../helpers';

interface ChatTesting {
  createManager(storageFolder: string): ChatPanelManager;
}

describe('pacing: slow down before a 429 (issue 24)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let statusBar: ConnectionStatusBar;
  let storage: string;
  let manager: ChatPanelManager;

  /** A chat whose webview has loaded and whose model list has arrived, and what its host side posts. */
  async function openChat(): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => panel.controller.session.settings.model !== '' || posted.some((m) => m.type === 'models' && !m.models.loading), 'the chat to load its models', 20_000);
    return { panel, posted };
  }

  const chatRequests = () => sim.log.filter((e) => e.path === '/v1/chat/completions');

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    statusBar = api.testing.statusBar as ConnectionStatusBar;
    await connectTo(api, sim);
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-pacing-host-'));
    manager = (api.testing.chat as ChatTesting).createManager(storage);
    manager.openExternal = async () => undefined;
  });

  after(async () => {
    manager.dispose();
    await manager.flush();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(storage, { recursive: true, force: true });
    await disconnect();
    await sim.close();
  });

  it('says "slowing down" in the status bar below a tenth of the budget', async () => {
    sim.setRateLimit({ requests: 100, windowMs: 60_000 });
    const gateway = (await api.connection.api())!;
    // Other parts of the window may ask the gateway too (VS Code's chat models): count answers, not requests.
    for (let i = 0; i < 95 && !statusBar.text.includes('slowing'); i++) await gateway.listModels();
    await until(() => /slowing down: [1-9] requests? left, resets in (5\d|60) s/.test(statusBar.text) && statusBar.text, `the status bar to slow down (it reads "${statusBar.text}")`);
    assert.equal(api.connection.state.kind, 'connected', 'slowing down is not a failure');
    sim.setRateLimit(null);
    await gateway.listModels(); // an answer without figures: nothing is known to be low any more
    await until(() => !statusBar.text.includes('slowing'), 'the status bar to stop slowing down');
  });

  it('holds a chat message until a short reset, then sends it', async () => {
    const { panel, posted } = await openChat();
    sim.setRateLimit({ requests: 1, windowMs: 2000 });
    sim.clearLog();
    await (await api.connection.api())!.listModels(); // the answer: x-ratelimit-remaining-requests: 0, reset 2s
    const answeredAt = sim.log.at(-1)!.startedAt;
    await panel.handleMessage({ type: 'send', requestId: 1, text: '[echo] after the reset' });
    const finished = await until(() => posted.find((m) => m.type === 'turnFinished'), 'the reply', 15_000);
    assert.ok(finished.type === 'turnFinished' && finished.finish.status === 'complete', JSON.stringify(finished));
    const sent = chatRequests();
    assert.ok(sent.length >= 1);
    for (const request of sent) assert.ok(request.startedAt >= answeredAt + 1500, `sent ${request.startedAt - answeredAt} ms after the answer that said none remained`);
    sim.setRateLimit(null);
  });

  it('after x-ratelimit-remaining-requests: 0 with a 20 s reset, the next request waits 20 s, and Stop cancels it unsent', async () => {
    const { panel, posted } = await openChat();
    sim.setRateLimit({ requests: 1, windowMs: 20_000 });
    sim.clearLog();
    await (await api.connection.api())!.listModels();
    const answer = sim.log.at(-1)!;
    assert.equal(answer.status, 200);
    await until(() => /rate limited (19|20)s/.test(statusBar.text) && statusBar.text, `the status bar countdown (it reads "${statusBar.text}")`);
    await panel.handleMessage({ type: 'send', requestId: 1, text: '[echo] not before the reset' });
    const waiting = await until(() => posted.find((m) => m.type === 'turnWaiting' && m.waitMs !== null), 'the countdown');
    assert.ok(waiting.type === 'turnWaiting' && waiting.waitMs! > 15_000 && waiting.waitMs! <= 20_000, `waits ${JSON.stringify(waiting)}`);
    assert.equal(chatRequests().length, 0, 'nothing reached the gateway');
    await panel.handleMessage({ type: 'stop' });
    const finished = await until(() => posted.find((m) => m.type === 'turnFinished'), 'the stopped reply');
    assert.ok(finished.type === 'turnFinished' && finished.finish.status === 'stopped', JSON.stringify(finished));
    assert.equal(chatRequests().length, 0, 'cancelled before anything was sent');
    assert.deepEqual(sim.log.slice(1), [], 'no request at all went to that gateway after the answer');
    sim.setRateLimit(null);
  });

  // Last: model-k3's budget stays spent in this origin's pacing for the two minutes of its window.
  it("one model's spent budget holds that model only; its long wait offers Send anyway, and the gateway answers for it", async () => {
    const { panel, posted } = await openChat();
    await panel.handleMessage({ type: 'updateSettings', settings: { ...panel.controller.session.settings, model: 'model-k3' } });
    sim.setRateLimit({ requests: 1, windowMs: 120_000, model: 'model-k3' });
    try {
      const gateway = (await api.connection.api())!;
      await gateway.chat({ model: 'model-k3', messages: [{ role: 'user', content: '[echo] spends the budget' }] });
      sim.clearLog();
      // Another model and the model list go at once; the key as a whole is not rate limited.
      await gateway.chat({ model: 'model-5.2', messages: [{ role: 'user', content: '[echo] another model' }] });
      await gateway.listModels();
      assert.deepEqual(sim.log.map((e) => e.status), [200, 200]);
      assert.notEqual(api.connection.state.kind, 'rate-limited');
      await panel.handleMessage({ type: 'send', requestId: 1, text: '[echo] held for its model' });
      const waiting = await until(() => posted.find((m) => m.type === 'turnWaiting' && m.waitMs !== null), 'the countdown');
      assert.ok(waiting.type === 'turnWaiting' && waiting.waitMs! > 60_000 && waiting.sendAnyway, JSON.stringify(waiting));
      assert.equal(chatRequests().length, 1, 'only the other model\'s chat went');
      await panel.handleMessage({ type: 'sendAnyway', turnId: waiting.turnId });
      const finished = await until(() => posted.find((m) => m.type === 'turnFinished'), 'the reply sent anyway');
      assert.equal(chatRequests().length, 2, 'sent at once');
      // The gateway's own answer decides: here its limit holds, and says so.
      assert.ok(finished.type === 'turnFinished' && finished.finish.error?.kind === 'rate_limit', JSON.stringify(finished));
    } finally {
      sim.setRateLimit(null);
    }
  });
});
