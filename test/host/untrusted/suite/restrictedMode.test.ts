// A cloned repository opened in Restricted Mode (its folder not trusted), holding hostile settings, instruction files
// and prompt files (scripts/untrustedFolder.mjs): the usage history is not deleted, no glob of it is matched (the
// editor does not freeze), and nothing of it is sent: no instruction text, no /video job.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../../src/chat/vscode/chatPanelManager';
import type { HostMessage, InstructionsState } from '../../../../src/chatProtocol/messages';
import type { UsageService } from '../../../../src/usage/vscode/usageService';
import type { Simulator } from '../../../simulator';
import { startSimulator } from '../../../simulator';
import { connectTo, disconnect, extensionApi, until } from '../../helpers';

const OLD_RECORD_MODEL = 'model-restricted-old-month';

describe('Restricted Mode: a hostile repository', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: Awaited<ReturnType<typeof extensionApi>>;
  let usage: UsageService;

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 1000 });
    api = await extensionApi();
    usage = (api.testing.usage as () => UsageService)();
    await connectTo(api, sim);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  it('runs in an untrusted folder whose settings VS Code holds at workspace level', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const inspected = vscode.workspace.getConfiguration('modelGateway').inspect<number>('usage.retentionDays');
    assert.equal(inspected?.workspaceValue ?? 1, 1, 'the hostile value is in the folder (VS Code may hide it: application scope)');
  });

  it('keeps the usage history: the workspace retention of 1 day is not read, and the clean-up removes nothing', async () => {
    assert.equal(usage.settings.retentionDays, 400);
    // The clean-up runs 5 s after activation; run it again now to be sure it had its chance.
    usage.start();
    const pruned = await usage.ledger.prune(Date.now(), usage.settings.retentionDays);
    assert.deepEqual(pruned, { months: [], records: 0 });
    const { records } = await usage.ledger.read();
    assert.ok(records.some((r) => r.model === OLD_RECORD_MODEL), 'the 70-day-old record is still there');
  });

  it('reads no instruction or prompt file, matches no glob, and sends neither instruction text nor a /video job', async () => {
    // A file with a 4,000-character path is active: the hostile applyTo would backtrack on it if it were matched.
    const [long] = await vscode.workspace.findFiles('**/aaaa.txt', undefined, 1);
    assert.ok(long, 'the long-path file');
    assert.ok(long.fsPath.length > 4000);
    await vscode.window.showTextDocument(long, { preview: false });
    const manager = (api.testing.chat as { manager: ChatPanelManager }).manager;
    sim.clearLog();
    await vscode.commands.executeCommand('modelGateway.newChat', { model: 'model-k3' });
    const panel = await until(() => manager.activePanel, 'the new chat');
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the chat to load', 20_000);
    const instructions = await until(() => posted.filter((m): m is Extract<HostMessage, { type: 'instructions' }> => m.type === 'instructions').at(-1)?.instructions, 'the instructions state');
    assert.deepEqual(instructions, { enabled: false, restricted: true, files: [], problems: [], prompts: [] } satisfies InstructionsState);
    // Turning them on does nothing in Restricted Mode.
    await panel.handleMessage({ type: 'instructionsAction', action: 'toggle', index: 0 });
    // What a stale page could still send: the prompt's command typed, and the prompt file's text sent as a prompt.
    // Each waits for its reply to finish, so the second is not refused as sent while a reply runs.
    await panel.handleMessage({ type: 'send', requestId: 1, text: '/review' });
    await until(() => sim.log.filter((e) => e.path === '/v1/chat/completions').length === 1 && !panel.controller.busy, 'the first reply', 20_000);
    await panel.handleMessage({ type: 'sendPrompt', requestId: 2, text: '/video a paid job from a repository file' });
    await until(() => sim.log.filter((e) => e.path === '/v1/chat/completions').length === 2 && !panel.controller.busy, 'the prompt text as a chat message', 20_000);
    assert.deepEqual(sim.log.filter((e) => e.path.startsWith('/v1/videos')), [], 'no video job');
    const chats = sim.log.filter((e) => e.path === '/v1/chat/completions');
    assert.ok(JSON.stringify(chats[1].body).includes('a paid job from a repository file'), 'the prompt text went as a chat message');
    assert.ok(!chats.some((c) => JSON.stringify(c.body).includes('RESTRICTED-LEAK')), 'no instruction text was sent');
    const last = posted.filter((m): m is Extract<HostMessage, { type: 'instructions' }> => m.type === 'instructions').at(-1)?.instructions;
    assert.equal(last?.enabled, false);
  });
});
