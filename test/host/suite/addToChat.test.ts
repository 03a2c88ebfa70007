// Add to Model Gateway Chat in the real VS Code: files from the command (as the Explorer and the palette send them)
// and the editor's selection land in the context of the chat used last, with the chat's own Add Context rules (a
// file outside the workspace is read only after a yes).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import { extensionApi, until } from '../helpers';

describe('Add to Model Gateway Chat (context from the Explorer, the editor and the palette)', function () {
  this.timeout(60_000);
  let manager: ChatPanelManager;
  let folder: string;
  let outside: string;
  const chipsOf = () => (manager.activePanel?.context?.state.chips ?? []).map((c) => c.label);

  before(async () => {
    const api = await extensionApi();
    await vscode.commands.executeCommand('modelGateway.newChat');
    manager = (api.testing.chat as { manager: ChatPanelManager }).manager;
    folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'mg-add-to-chat');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'one.ts'), 'export const one = 1;\n');
    fs.writeFileSync(path.join(folder, 'two.md'), '# Two\n\nThe second file.\n');
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-add-outside-'));
    fs.writeFileSync(path.join(outside, 'notes.txt'), 'outside the workspace\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it("adds two workspace files from the command: both are in the open chat's context", async () => {
    const panel = await until(() => manager.activePanel, 'a chat to be open');
    await vscode.commands.executeCommand('modelGateway.addToChat', { paths: ['mg-add-to-chat/one.ts', path.join(folder, 'two.md')] });
    assert.equal(manager.activePanel, panel, 'the chat open last, not a new one');
    assert.deepEqual(chipsOf(), ['one.ts', 'two.md']);
    assert.match(panel.context!.state.chips[1].detail, /mg-add-to-chat\/two\.md, lines 1–3, markdown/);
  });

  it('adds the files the Explorer passes (the clicked one and the selection), each once', async () => {
    const uris = ['one.ts', 'two.md'].map((name) => vscode.Uri.file(path.join(folder, name)));
    await vscode.commands.executeCommand('modelGateway.addToChat', uris[0], uris);
    assert.deepEqual(chipsOf(), ['one.ts', 'two.md'], 'already attached: not twice');
  });

  it('asks before adding a file outside the workspace, and adds nothing on no', async () => {
    const sources = manager.contextSources;
    const modal = sources.askAttachSecrets;
    const asked: string[] = [];
    sources.askAttachSecrets = async (question) => (asked.push(question), false);
    try {
      await vscode.commands.executeCommand('modelGateway.addToChat', { paths: [path.join(outside, 'notes.txt')] });
      assert.equal(asked.length, 1);
      assert.match(asked[0], /notes\.txt is outside the workspace\. Attaching it sends its content to the gateway\./);
      assert.ok(!chipsOf().includes('notes.txt'), 'not attached without a yes');
      sources.askAttachSecrets = async (question) => (asked.push(question), true);
      await vscode.commands.executeCommand('modelGateway.addToChat', { paths: [path.join(outside, 'notes.txt')] });
      assert.ok(chipsOf().includes('notes.txt'), 'attached after the yes');
    } finally {
      sources.askAttachSecrets = modal;
    }
  });

  it("adds the editor's selection (Add Selection to Model Gateway Chat)", async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, 'two.md')));
    editor.selection = new vscode.Selection(2, 0, 2, 16);
    await vscode.commands.executeCommand('modelGateway.addSelectionToChat');
    assert.ok(chipsOf().includes('two.md:3-3'), chipsOf().join(', '));
  });

  it('refuses an argument it does not know, adding nothing', async () => {
    const before = chipsOf();
    await vscode.commands.executeCommand('modelGateway.addToChat', { files: ['one.ts'] });
    assert.deepEqual(chipsOf(), before);
  });
});
