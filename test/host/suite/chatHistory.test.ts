// The Chats view in the real VS Code, through the real commands and the extension's own store and view: reopen a
// chat after closing its panel, rename, delete (asks first) and undo, filter. Prompts are answered by replacing
// the commands' UI object; everything else is the shipped code path.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatHistoryCommands } from '../../../src/chat/vscode/chatHistoryCommands';
import type { UserInterface } from '../../../src/ui/vscode/userInterface';
import type { ChatHistoryNode, ChatHistoryView, ChatSessionNode } from '../../../src/chat/vscode/chatHistoryView';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import type { ModelGatewayApi } from '../../../src/extension';
import { defaultSettings, type ChatSession } from '../../../src/chatProtocol/session';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, until } from '../helpers';
import { RecordingUi } from '../recordingUi';

interface ChatTesting {
  manager: ChatPanelManager;
  history: ChatHistoryView;
  historyCommands: ChatHistoryCommands;
}

describe('Chats view (issue 13: history)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let chat: ChatTesting;
  let ui: RecordingUi;
  let original: UserInterface;
  const created: string[] = [];

  async function sessionNode(id: string): Promise<ChatSessionNode | undefined> {
    for (const group of await chat.history.getChildren()) {
      const found = (await chat.history.getChildren(group)).find((n: ChatHistoryNode): n is ChatSessionNode => n.kind === 'session' && n.summary.id === id);
      if (found) return found;
    }
    return undefined;
  }

  async function saved(title: string, text: string): Promise<ChatSession> {
    const now = Date.now();
    const session: ChatSession = {
      id: `host-history-${now}-${created.length}`,
      title,
      createdAt: now,
      updatedAt: now,
      settings: { ...defaultSettings(), model: 'model-k3' },
      turns: [{ id: 'u1', role: 'user', createdAt: now, content: text }],
    };
    created.push(session.id);
    await chat.manager.store.save(session);
    return session;
  }

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 500 });
    const api = await vscode.extensions.getExtension<ModelGatewayApi>('model-gateway.model-gateway')!.activate();
    chat = api.testing.chat as ChatTesting;
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    original = chat.historyCommands.ui;
  });

  beforeEach(() => {
    ui = new RecordingUi();
    chat.historyCommands.ui = ui;
  });

  after(async () => {
    chat.historyCommands.ui = original;
    await chat.history.setFilter('');
    for (const id of created) await chat.manager.closeSession(id);
    for (const id of created) await chat.manager.store.delete(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
  });

  it('lists a chat after its panel is closed, under Today with title, model and turns, and reopens it from the view', async () => {
    await vscode.commands.executeCommand('modelGateway.newChat');
    const panel = await until(() => chat.manager.activePanel, 'the new chat');
    const id = panel.sessionId;
    created.push(id);
    await panel.handleMessage({ type: 'ready' });
    await until(() => panel.controller.session.settings.model !== '' || undefined, 'a model for the chat');
    await panel.handleMessage({ type: 'send', requestId: 1, text: '[echo] Where did my chat about otters go?' });
    await until(() => panel.controller.session.turns.some((t) => t.role === 'assistant' && t.status === 'complete'), 'the reply');
    const closed = new Promise<void>((resolve) => panel.onDidDispose(() => resolve()));
    panel.dispose();
    await closed;
    await chat.manager.flush();
    assert.equal(chat.manager.openPanels.some((p) => p.sessionId === id), false);

    await chat.history.refresh();
    const groups = await chat.history.getChildren();
    assert.equal(groups[0]?.label, 'Today');
    const node = await until(() => sessionNode(id), 'the chat in the Chats view');
    assert.equal(node.label, '[echo] Where did my chat about otters go?', 'the first question, trimmed');
    assert.match(String(node.description), /^model-\S+ · 1 turn$/);
    assert.match(node.contextValue ?? '', /\bsession\b.*\bopen\b.*\bexportable\b/);

    await vscode.commands.executeCommand(node.command!.command, ...(node.command!.arguments ?? []));
    const reopened = await until(() => chat.manager.openPanels.find((p) => p.sessionId === id), 'the reopened chat');
    assert.deepEqual(
      reopened.controller.session.turns.map((t) => t.content),
      ['[echo] Where did my chat about otters go?', 'Where did my chat about otters go?'],
    );
    // Opening it again reveals the same panel.
    await vscode.commands.executeCommand('modelGateway.chats.open', node);
    assert.equal(chat.manager.openPanels.filter((p) => p.sessionId === id).length, 1);
  });

  it('a double-click (two opens while the first is still loading) opens one panel', async () => {
    const session = await saved('Double-clicked', 'Open me twice');
    await chat.history.refresh();
    const node = await until(() => sessionNode(session.id), 'the chat in the Chats view');
    // The tree item's command runs once per click: a double-click runs it twice before the first has loaded.
    await Promise.all([
      vscode.commands.executeCommand(node.command!.command, ...(node.command!.arguments ?? [])),
      vscode.commands.executeCommand(node.command!.command, ...(node.command!.arguments ?? [])),
      vscode.commands.executeCommand('modelGateway.chats.open', session.id),
    ]);
    const panels = chat.manager.openPanels.filter((p) => p.sessionId === session.id);
    assert.equal(panels.length, 1, 'one chat is one panel');
    const chatTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label === 'Double-clicked');
    await until(() => chatTabs().length > 0 || undefined, 'the chat tab');
    assert.equal(chatTabs().length, 1, `one tab (tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')})`);
    await chat.manager.closeSession(session.id);
  });

  it('renames a chat, open or not, and filters by title and message text', async () => {
    const session = await saved('Old title', 'Tell me about pangolins and their scales');
    await chat.history.refresh();
    ui.inputs = ['  Pangolin facts  '];
    await vscode.commands.executeCommand('modelGateway.chats.rename', await sessionNode(session.id));
    assert.equal((await sessionNode(session.id))?.label, 'Pangolin facts');
    assert.equal((await chat.manager.store.peek(session.id))?.title, 'Pangolin facts');

    await vscode.commands.executeCommand('modelGateway.chats.open', session.id);
    const panel = await until(() => chat.manager.openPanels.find((p) => p.sessionId === session.id), 'the chat panel');
    ui.inputs = ['Scaly friends'];
    await vscode.commands.executeCommand('modelGateway.chats.rename', session.id);
    assert.equal(panel.panel.title, 'Scaly friends', 'the open panel shows the new title');
    await chat.manager.flush();
    assert.equal((await chat.manager.store.peek(session.id))?.title, 'Scaly friends');

    ui.inputs = ['SCALES pangolins'];
    await vscode.commands.executeCommand('modelGateway.chats.filter');
    assert.equal(chat.history.filter, 'SCALES pangolins');
    assert.deepEqual(chat.history.shown.map((s) => s.id), [session.id], 'message text matches');
    await vscode.commands.executeCommand('modelGateway.chats.clearFilter');
    assert.equal(chat.history.filter as string, '');
    assert.ok(chat.history.shown.length >= 1);
  });

  it('deletes only after asking, and Undo from the notification brings the files back exactly', async () => {
    const session = await saved('Delete me', 'A chat to delete and bring back');
    await chat.history.refresh();
    const file = vscode.Uri.joinPath(vscode.Uri.file(chat.manager.storageFolder), `${session.id}.json`);
    const before = Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8');

    ui.answer = undefined;
    await vscode.commands.executeCommand('modelGateway.chats.delete', await sessionNode(session.id));
    assert.equal(ui.asked.length, 1);
    assert.ok(await chat.manager.store.peek(session.id), 'declining keeps the chat');

    await vscode.commands.executeCommand('modelGateway.chats.open', session.id);
    await until(() => chat.manager.openPanels.find((p) => p.sessionId === session.id), 'the chat panel');
    ui.answer = 'Delete';
    let click!: (choice: string | undefined) => void;
    const clicked = new Promise<string | undefined>((resolve) => (click = resolve));
    ui.onNotify = (message) => (message.startsWith('Deleted') ? clicked : Promise.resolve(undefined));
    const deleting = vscode.commands.executeCommand('modelGateway.chats.delete', session.id);
    await until(() => ui.notes.some((n) => n.startsWith('Deleted')), 'the deletion notice');
    assert.equal(await chat.manager.store.peek(session.id), undefined, 'the file is gone');
    assert.equal(chat.manager.openPanels.some((p) => p.sessionId === session.id), false, 'its panel was closed');
    assert.equal(await sessionNode(session.id), undefined, 'the view no longer lists it');

    click('Undo');
    await deleting;
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'), before, 'the file is back byte for byte');
    assert.ok(await sessionNode(session.id), 'the view lists it again');
  });

  it('Generate Title asks the chat model only when run, and takes its answer as the title', async () => {
    const session = await saved('Untitled thoughts', '[echo] Otter facts');
    sim.clearLog();
    await chat.history.refresh();
    assert.equal(sim.log.filter((e) => e.path === '/v1/chat/completions').length, 0, 'listing sends nothing');
    await vscode.commands.executeCommand('modelGateway.chats.generateTitle', await sessionNode(session.id));
    const requests = sim.log.filter((e) => e.path === '/v1/chat/completions');
    assert.equal(requests.length, 1);
    const body = requests[0]!.body as { model: string; max_tokens: number; messages: Array<{ role: string; content: string }> };
    assert.equal(body.model, 'model-k3');
    assert.equal(body.messages[0]?.role, 'system');
    assert.match(body.messages[1]?.content ?? '', /Otter facts/);
    const title = (await chat.manager.store.peek(session.id))?.title ?? '';
    assert.match(title, /Otter facts$/, ui.notes.join('; '));
    assert.equal((await sessionNode(session.id))?.label, title);
  });

  it('shows a chat another window saved, without being asked to refresh', async () => {
    const now = Date.now();
    const id = `host-history-other-${now}`;
    created.push(id);
    // Another window: its own store over the same folder (its index changes reach this window only through the folder).
    const otherWindow = new ChatSessionStore(new NodeFileSystem(chat.manager.storageFolder), { pid: process.pid + 100_000 });
    await otherWindow.save({ id, title: 'From the other window', createdAt: now, updatedAt: now, settings: defaultSettings(), turns: [] });
    await until(() => chat.history.shown.some((s) => s.id === id), 'the view to show the other window\'s chat', 10_000);
  });
});
