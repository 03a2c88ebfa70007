// The commands the flow has not needed yet, each run the way a user would: the status bar menu (Open Logs,
// Replace API Key), the palette (Test Connection, Refresh Models, Export Chat, Clear API Key with its modal
// question) and the editor's context menu (Ask About Selection). Commands that cannot work are not offered.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatView } from './harness/chat';
import { session, SIM_KEY, type E2ESession } from './harness/session';
import { until, WAIT_MS, Workbench } from './harness/workbench';

describe('e2e 7: the other commands', function () {
  this.timeout(3 * WAIT_MS);
  let s: E2ESession;
  let wb: Workbench;
  let chat: ChatView;

  before(async () => {
    s = await session();
    wb = new Workbench(s);
    chat = new ChatView(wb);
  });

  it('opens the logs from the status bar menu', async () => {
    await wb.status().click();
    await wb.pick(/Open Logs/);
    await wb.page.locator('.part.panel', { hasText: 'Model Gateway' }).first().waitFor({ timeout: WAIT_MS });
    await wb.runCommand('View: Close Panel');
  });

  it('replaces the key from the status bar menu', async () => {
    await wb.status().click();
    await wb.pick(/Replace API Key/);
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Replace the API key' }).waitFor({ timeout: WAIT_MS });
    await wb.answerInput(SIM_KEY);
    await wb.toast(/Replaced the API key/).first().waitFor({ timeout: WAIT_MS });
    await wb.closeToasts();
  });

  it('tests the connection and refreshes the models from the palette', async () => {
    await wb.runCommand('Model Gateway: Test Connection');
    await wb.toast(/connection|works|reach/i).first().waitFor({ timeout: WAIT_MS });
    await wb.screenshot('test-connection');
    await wb.closeToasts();
    const before = s.sim.log.length;
    await wb.runCommand('Model Gateway: Refresh Models');
    await wb.toast(/lists 2 chat models?, 1 video model|lists .*model/).first().waitFor({ timeout: WAIT_MS });
    assert.ok(s.sim.log.slice(before).some((e) => e.path === '/v1/models' && e.status === 200), 'the list was asked again');
    await wb.closeToasts();
  });

  it('asks about the selection from the editor context menu', async () => {
    await wb.openFile('hello.py', 'def greet');
    const editor = wb.editorLines('def greet');
    await editor.click();
    await wb.page.keyboard.press('Control+A');
    await editor.click({ button: 'right' });
    await wb.menuItem('Ask Model Gateway About Selection');
    const composer = await chat.composer();
    await until(async () => /def greet\(name\)/.test(await composer.inputValue()), 'the selection in the chat box');
    assert.match(await composer.inputValue(), /hello\.py/);
    await composer.fill('');
  });

  it('exports the chat to Markdown through the save dialog', async () => {
    await wb.runCommand('Model Gateway: Export Chat to Markdown');
    // VS Code's own save dialog (a quick input in the browser), with the name the extension proposes.
    const input = wb.quickInputBox();
    await until(async () => /\.md$/.test(await input.inputValue()), 'the proposed file name');
    await input.press('Enter');
    await wb.toast(/Chat exported to/).first().waitFor({ timeout: WAIT_MS });
    const exported = readdirSync(s.paths.workspace).filter((f) => f.endsWith('.md'));
    assert.equal(exported.length, 1, exported.join(', '));
    const markdown = readFileSync(join(s.paths.workspace, exported[0]), 'utf8');
    assert.match(markdown, /Compare the models in a table/);
    assert.ok(existsSync(join(s.paths.workspace, exported[0])));
    await wb.closeToasts();
  });

  it('clears the key after asking, and then hides the commands that need one', async () => {
    await wb.runCommand('Model Gateway: Clear API Key');
    await wb.page.locator('.monaco-dialog-box', { hasText: 'Remove the API key' }).waitFor({ timeout: WAIT_MS });
    await wb.dialogButton('Clear Key');
    await until(async () => /no API key/.test((await wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say there is no key');
    for (const title of ['Model Gateway: Replace API Key', 'Model Gateway: Clear API Key', 'Model Gateway: Refresh Models', 'Model Gateway: Generate Video…']) {
      await until(async () => !(await wb.paletteOffers(title)), `${title} to leave the palette`);
    }
    assert.equal(await wb.paletteOffers('Model Gateway: Set API Key'), true);
    await wb.runCommand('Model Gateway: Set API Key');
    await wb.answerInput(SIM_KEY, 'API key for');
    await wb.toast(/Saved the API key/).first().waitFor({ timeout: WAIT_MS });
    await until(() => wb.paletteOffers('Model Gateway: Refresh Models'), 'Refresh Models to come back');
    await wb.closeToasts();
  });
});
