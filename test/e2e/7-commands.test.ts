// The commands the flow has not needed yet, each run the way a user would: the status bar menu (Open Logs,
// Replace API Key), the palette (Test Connection, Refresh Models, Diagnose Models, Export Chat, Clear API Key with its modal
// question) and the editor's context menu (Ask About Selection). Commands that cannot work are not offered.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIM_KEY } from './harness/session';
import { useE2E } from './harness/suite';
import { until, WAIT_MS, type Workbench } from './harness/workbench';

/** An action in the title bar of the active editor. */
function editorAction(wb: Workbench, label: string) {
  return wb.page.locator(`.editor-actions .action-label[aria-label^="${label}"]`).first();
}

describe('e2e 7: the other commands', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('commands', ['chat', 'crash']);


  it('opens the logs from the status bar menu', async () => {
    const log = e.wb.page.locator('.part.panel', { hasText: 'Model Gateway' }).first();
    // The chat restored after the crash may take the focus back as it loads, closing the menu: open it again, soon
    // (a menu that closed shows no row however long the pick waits).
    await until(async () => {
      await e.wb.closeQuickInput();
      await e.wb.status().click();
      await e.wb.pick(/Open Logs/, 5_000);
      return log.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
    }, 'the log to open from the status bar menu', 2 * WAIT_MS, 500);
    await e.wb.runCommand('View: Hide Panel');
  });

  it('replaces the key from the status bar menu', async () => {
    await e.wb.status().click();
    await e.wb.pick(/Replace API Key/);
    await e.wb.quickInputTitled('Replace the API key');
    await e.wb.answerInput(SIM_KEY);
    await e.wb.toast(/Replaced the API key/).first().waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
  });

  it('tests the connection into a read-only report, with Copy Report and Run Again in its title bar', async () => {
    const models = () => e.s.sim.log.filter((e) => e.path === '/v1/models').length;
    const before = models();
    await e.wb.runCommand('Model Gateway: Test Connection');
    const tab = e.wb.page.locator('.tabs-container .tab', { hasText: 'Model Gateway Connection Test' });
    await tab.first().waitFor({ timeout: WAIT_MS });
    await until(() => models() > before, 'the test to ask for the model list');
    await e.wb.screenshot('test-connection');
    await e.wb.closeToasts();
    await editorAction(e.wb, 'Copy Report').click();
    await until(async () => /connection test/i.test(await e.wb.page.evaluate(() => navigator.clipboard.readText())), 'the report on the clipboard');
    const first = models();
    await editorAction(e.wb, 'Run Again').click();
    await until(() => models() > first, 'the test to run again');
    // A report, not an unsaved file: closing it asks nothing.
    await tab.first().click();
    await e.wb.runCommand('View: Close Editor');
    await tab.first().waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.equal(await e.wb.page.locator('.monaco-dialog-box').count(), 0, 'no "save changes?" question');
    await e.wb.closeToasts();
  });

  it('refreshes the models from the palette', async () => {
    const before = e.s.sim.log.length;
    await e.wb.runCommand('Model Gateway: Refresh Models');
    await e.wb.toast(/lists .*model/).first().waitFor({ timeout: WAIT_MS });
    assert.ok(e.s.sim.log.slice(before).some((e) => e.path === '/v1/models' && e.status === 200), 'the list was asked again');
    await e.wb.closeToasts();
  });

  it('diagnoses the models into a read-only report: kinds and why, the picker, what is sent', async () => {
    await e.wb.runCommand('Model Gateway: Diagnose Models');
    const tab = e.wb.page.locator('.tabs-container .tab', { hasText: 'Model Gateway Models' });
    await tab.first().waitFor({ timeout: WAIT_MS });
    await e.wb.screenshot('diagnose-models');
    await tab.first().click();
    await e.wb.runCommand('View: Close Editor');
    await tab.first().waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.equal(await e.wb.page.locator('.monaco-dialog-box').count(), 0, 'no "save changes?" question');
    await e.wb.closeToasts();
  });

  it('asks about the selection from the editor context menu', async () => {
    await e.wb.runOnLine('hello.py', 'def greet', 'Ask Model Gateway About Selection');
    const composer = await e.chat.composer();
    await until(async () => /def greet\(name\)/.test(await composer.inputValue()), 'the selection in the chat box');
    assert.match(await composer.inputValue(), /hello\.py/);
    await composer.fill('');
  });

  it('exports the chat to Markdown through the save dialog', async () => {
    await e.wb.runCommand('Model Gateway: Export Chat to Markdown');
    // VS Code's own save dialog (a quick input in the browser), with the name the extension proposes.
    const input = e.wb.quickInputBox();
    await until(async () => /\.md$/.test(await input.inputValue()), 'the proposed file name');
    await input.press('Enter');
    await e.wb.toast(/Chat exported to/).first().waitFor({ timeout: WAIT_MS });
    const exported = readdirSync(e.s.paths.workspace).filter((f) => f.endsWith('.md'));
    assert.equal(exported.length, 1, exported.join(', '));
    const markdown = readFileSync(join(e.s.paths.workspace, exported[0]), 'utf8');
    assert.match(markdown, /Compare the models in a table/);
    assert.ok(existsSync(join(e.s.paths.workspace, exported[0])));
    await e.wb.closeToasts();
  });

  it('clears the key after asking, and then hides the commands that need one', async () => {
    await e.wb.runCommand('Model Gateway: Clear API Key');
    await e.wb.page.locator('.monaco-dialog-box', { hasText: 'Remove the API key' }).waitFor({ timeout: WAIT_MS });
    await e.wb.dialogButton('Clear Key');
    await until(async () => /no API key/.test((await e.wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say there is no key');
    for (const title of ['Model Gateway: Replace API Key', 'Model Gateway: Clear API Key', 'Model Gateway: Refresh Models', 'Model Gateway: Generate Video…']) {
      await until(async () => !(await e.wb.paletteOffers(title)), `${title} to leave the palette`);
    }
    assert.equal(await e.wb.paletteOffers('Model Gateway: Set API Key'), true);
    await e.wb.runCommand('Model Gateway: Set API Key');
    await e.wb.answerInput(SIM_KEY, 'API key for');
    await e.wb.toast(/Saved the API key/).first().waitFor({ timeout: WAIT_MS });
    await until(() => e.wb.paletteOffers('Model Gateway: Refresh Models'), 'Refresh Models to come back');
    await e.wb.closeToasts();
  });
});
