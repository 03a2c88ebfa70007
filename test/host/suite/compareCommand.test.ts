// Compare Models… from the Command Palette, in the real VS Code against the simulator: the registered command starts
// Compare in the chat used last (two requests, one per model, shown in that chat's columns), and a dismissed question
// box starts nothing and opens no chat.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { CompareState, HostMessage } from '../../../src/chatProtocol/messages';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

describe('Compare Models… command (issue 13)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let manager: ChatPanelManager;
  const chatModels = () => sim.log.filter((e) => e.path === '/v1/chat/completions').map((e) => (e.body as { model: string }).model);

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 400 });
    const api = await extensionApi();
    manager = (api.testing.chat as { manager: ChatPanelManager }).manager;
    await connectTo(api, sim);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await manager.flush();
    await disconnect();
    await sim.close();
  });

  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => manager.openPanels.length === 0, 'every chat to close');
    sim.clearLog();
  });

  it('starts Compare in the open chat: one request per model, shown in its columns, and the kept reply joins the thread', async () => {
    await vscode.commands.executeCommand('modelGateway.newChat', { model: 'model-k3' });
    const panel = await until(() => manager.activePanel, 'the new chat');
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the chat to load', 20_000);

    await vscode.commands.executeCommand('modelGateway.compareModels', { question: '[echo] Say this, both of you', models: ['model-k3', 'model-5.2'] });
    const done = await until(() => {
      const last = [...posted].reverse().find((m): m is Extract<HostMessage, { type: 'compare' }> => m.type === 'compare')?.compare;
      return last && last.columns.every((c) => c.status === 'complete') ? last : undefined;
    }, 'both replies in the chat', 20_000);
    assert.equal(manager.openPanels.length, 1, 'no other chat was opened');
    assert.deepEqual(chatModels().sort(), ['model-5.2', 'model-k3']);
    assert.deepEqual(
      done.columns.map((c: CompareState['columns'][number]) => [c.model, c.content]),
      [
        ['model-k3', 'Say this, both of you'],
        ['model-5.2', 'Say this, both of you'],
      ],
    );

    await panel.handleMessage({ type: 'keepCompare', id: done.id, index: 1 });
    await until(() => panel.controller.session.turns.length === 2, 'the kept reply in the thread');
    const reply = panel.controller.session.turns[1];
    assert.ok(reply.role === 'assistant' && reply.model === 'model-5.2');
    assert.equal(chatModels().length, 2, 'keeping a reply sends nothing more');
  });

  it('keeps a stalled column marked interrupted, with the reason, as a stalled reply in the chat is', async () => {
    await config().update('idleTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('modelGateway.newChat', { model: 'model-k3' });
      const panel = await until(() => manager.activePanel, 'the new chat');
      const posted: HostMessage[] = [];
      panel.onDidPost((m) => posted.push(m));
      await until(() => posted.some((m) => m.type === 'init'), 'the chat to load', 20_000);
      // The model list is loaded first, so the fault below meets a chat request.
      await until(async () => (await manager.refreshModels()).models.length > 0 || undefined, 'the model list');
      sim.clearLog();
      // The first of the two requests stalls after its first words; the other finishes.
      sim.setDefaultFault('stall', 1);
      await vscode.commands.executeCommand('modelGateway.compareModels', { question: '[echo] one two three four', models: ['model-k3', 'model-5.2'] });
      const done = await until(() => {
        const last = [...posted].reverse().find((m): m is Extract<HostMessage, { type: 'compare' }> => m.type === 'compare')?.compare;
        return last && last.columns.every((c) => c.status !== 'streaming') ? last : undefined;
      }, 'both columns to end', 20_000);
      const stalled = done.columns.findIndex((c) => c.status === 'interrupted');
      assert.ok(stalled >= 0, `one column broke off: ${done.columns.map((c) => c.status).join(', ')}`);
      const column = done.columns[stalled];
      assert.ok(column.content !== '' && 'one two three four'.startsWith(column.content.trim()), column.content);

      await panel.handleMessage({ type: 'keepCompare', id: done.id, index: stalled });
      await until(() => panel.controller.session.turns.length === 2, 'the kept reply in the thread');
      const reply = panel.controller.session.turns[1];
      assert.ok(reply.role === 'assistant');
      assert.equal(reply.content, column.content);
      assert.equal(reply.status, 'interrupted');
      assert.equal(reply.error?.kind, 'timeout');
      assert.match(reply.error?.message ?? '', /sent nothing for 1 s/);
      const finished = await until(() => posted.find((m) => m.type === 'turnFinished'), 'the thread to show the kept reply');
      assert.ok(finished.type === 'turnFinished' && finished.finish.status === 'interrupted' && finished.finish.error?.kind === 'timeout');
    } finally {
      sim.setDefaultFault(null);
      await config().update('idleTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('opens a chat for the comparison when none is open', async () => {
    await vscode.commands.executeCommand('modelGateway.compareModels', { question: '[echo] A fresh start', models: ['model-k3', 'model-5.2'] });
    assert.equal(manager.openPanels.length, 1);
    await until(() => chatModels().length === 2, 'both requests');
    assert.deepEqual(chatModels().sort(), ['model-5.2', 'model-k3']);
  });

  it('asks for the question when none is given; dismissing the box starts nothing and opens no chat', async () => {
    let finished = false;
    const run = Promise.resolve(vscode.commands.executeCommand('modelGateway.compareModels')).finally(() => (finished = true));
    // The box is shown by the window; Escape (as the user would) until the command returns.
    await until(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      return finished;
    }, 'the question box to be dismissed', 10_000, 100);
    await run;
    assert.equal(manager.openPanels.length, 0);
    assert.deepEqual(chatModels(), []);
  });
});
