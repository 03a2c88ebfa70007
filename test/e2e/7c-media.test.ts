// Images and speech as a user makes them: Generate Image… from the Media view's title bar (its four questions),
// the gallery, every action of a Media item (Save to Workspace, Copy Link or Path, Open, Show, Remove), Synthesize
// Speech… from the palette, Read Selection Aloud from the editor's context menu, and Clear Media History.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID } from './harness/session';
import { useE2E } from './harness/suite';
import { rowAction, rowMenu, sideBarView, viewTitleAction, welcomeView } from './harness/views';
import { until, WAIT_MS } from './harness/workbench';

const KITE = 'A red kite over green hills';
const SPOKEN = 'Hello from the end to end suite';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('e2e 7c: images and speech', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('media', ['commands']);

  const mediaRow = (text: string | RegExp) => sideBarView(e.wb, 'Media').locator('.monaco-list-row').filter({ hasText: text });
  const titleAction = async (label: string) => {
    await sideBarView(e.wb, 'Media').locator('.pane-header').hover();
    await viewTitleAction(e.wb, label).first().click();
  };
  const tab = (text: string | RegExp) => e.wb.page.locator('.tabs-container .tab', { hasText: text }).first();
  const served = (path: string) => e.s.sim.log.filter((entry) => entry.path === path && entry.status === 200).length;
  /** True once a webview (the gallery) shows a loaded image. */
  const galleryImageShown = async () => {
    for (const frame of e.wb.page.frames()) {
      if (frame.isDetached() || (await frame.locator('img').count().catch(() => 0)) === 0) continue;
      if (await frame.locator('img').first().evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0).catch(() => false)) return true;
    }
    return false;
  };
  const pngsInWorkspace = () => readdirSync(e.s.paths.workspace).filter((f) => f.endsWith('.png'));

  it('generates an image from the Media view and shows it in the gallery', async () => {
    await e.wb.runCommand('Model Gateway: Focus on Media View');
    await welcomeView(e.wb, 'Media', 'Generated images and speech are kept here').waitFor({ timeout: WAIT_MS });
    const before = served('/v1/images/generations');
    await titleAction('Generate Image…');
    await e.wb.answerInput(KITE, 'Generate Image (1/4)');
    await e.wb.quickInputTitled('Generate Image (2/4)');
    await e.wb.pick('model-image-1.0');
    await e.wb.quickInputTitled('Generate Image (3/4)');
    await e.wb.pick('1024x1024');
    await e.wb.quickInputTitled('Generate Image (4/4)');
    await e.wb.pick('1');
    await mediaRow(KITE).first().waitFor({ timeout: WAIT_MS });
    await tab(/Images: A red kite/).waitFor({ timeout: WAIT_MS });
    assert.equal(served('/v1/images/generations'), before + 1);
    await e.wb.screenshot('image-gallery');
  });

  it('saves, copies, opens, shows and removes a Media item', async () => {
    const row = mediaRow(KITE).first();
    const before = pngsInWorkspace();
    await rowAction(row, 'Save to Workspace');
    await e.wb.toast(/Saved .*\.png/).first().waitFor({ timeout: WAIT_MS });
    const saved = pngsInWorkspace().filter((f) => !before.includes(f));
    assert.equal(saved.length, 1, saved.join(', '));
    assert.deepEqual(readFileSync(join(e.s.paths.workspace, saved[0])).subarray(0, 4), PNG);
    await e.wb.closeToasts();

    // The image came as base64 (the default format), so the link is the kept file's path.
    await rowMenu(e.wb, row, 'Copy Link or Path');
    const copied = await until(async () => {
      const text = await e.wb.page.evaluate(() => navigator.clipboard.readText());
      return /\.png$/.test(text) ? text : undefined;
    }, 'the kept file on the clipboard');
    assert.ok(existsSync(copied) && readFileSync(copied).subarray(0, 4).equals(PNG), copied);

    await rowMenu(e.wb, row, 'Open');
    await tab(/\.png/).waitFor({ timeout: WAIT_MS });
    await rowMenu(e.wb, row, 'Show');
    await e.wb.page.locator('.tabs-container .tab.active', { hasText: /Images: A red kite/ }).first().waitFor({ timeout: WAIT_MS });

    await rowMenu(e.wb, row, 'Remove from History');
    await mediaRow(KITE).first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await until(() => !existsSync(copied), 'the kept file to go with its entry');
    assert.ok(existsSync(join(e.s.paths.workspace, saved[0])), 'the copy saved in the workspace stays');
  });

  it('synthesizes typed speech, and reads the editor selection aloud', async () => {
    const before = served('/v1/audio/speech');
    await e.wb.runCommand('Model Gateway: Synthesize Speech…');
    await e.wb.answerInput(SPOKEN, 'Synthesize Speech (1/2)');
    await e.wb.quickInputTitled('Synthesize Speech (2/2)');
    await e.wb.pick('alloy');
    await mediaRow(SPOKEN).first().waitFor({ timeout: WAIT_MS });
    await tab(/Speech: Hello from the end/).waitFor({ timeout: WAIT_MS });

    await e.wb.runOnLine('hello.py', 'def greet', 'Read Selection Aloud');
    await mediaRow('def greet(name):').first().waitFor({ timeout: WAIT_MS });
    assert.equal(served('/v1/audio/speech'), before + 2);
    const spoken = e.s.sim.log.filter((entry) => entry.path === '/v1/audio/speech').at(-1)?.body as { input?: string } | undefined;
    assert.equal(spoken?.input, 'def greet(name):', 'the selected line, and only it');
  });

  it('clears the media history from the title bar, after asking', async () => {
    await e.wb.runCommand('Model Gateway: Focus on Media View');
    await titleAction('Clear Media History');
    await e.wb.page.locator('.monaco-dialog-box', { hasText: 'Remove all 2 entries' }).waitFor({ timeout: WAIT_MS });
    await e.wb.dialogButton('Clear');
    await welcomeView(e.wb, 'Media', 'Generated images and speech are kept here').waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
  });

  it("answers @gateway /image in VS Code's own chat with the image's anchor, and keeps the file", async () => {
    const before = served('/v1/images/generations');
    await e.wb.runCommand('Chat: Open Chat');
    const input = e.wb.page.locator('.interactive-input-part .monaco-editor').first();
    await input.click({ timeout: WAIT_MS });
    await e.wb.page.keyboard.type('@gateway /image a lighthouse');
    await e.wb.page.keyboard.press('Enter');
    const anchor = e.wb.page.locator('.interactive-response .chat-inline-anchor-widget', { hasText: /\.png/ }).last();
    await anchor.waitFor({ timeout: WAIT_MS });
    await e.wb.page.locator('.interactive-response .monaco-button', { hasText: 'Save to Workspace' }).last().waitFor({ timeout: WAIT_MS });
    assert.equal(served('/v1/images/generations'), before + 1, 'one request, to the gateway');
    // Its file: the anchor names the kept PNG, and opens it in VS Code's image viewer (a modal editor).
    const name = /[\w.-]+\.png/.exec((await anchor.textContent()) ?? '')?.[0];
    assert.ok(name, 'the anchor names the file');
    const kept = readFileSync(join(e.s.paths.userData, 'User', 'globalStorage', EXTENSION_ID, 'media', 'files', name));
    assert.ok(kept.subarray(0, 4).equals(PNG), 'the file is the PNG');
    await e.wb.closeAllEditors();
    await anchor.click();
    const viewer = e.wb.page.locator('.modal-editor-part');
    await viewer.locator('.image-carousel-editor img').first().waitFor({ timeout: WAIT_MS });
    await e.wb.page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden', timeout: WAIT_MS });
    // Open Preview shows it in the Media gallery, beside the chat.
    await e.wb.page.locator('.interactive-response .monaco-button', { hasText: 'Open Preview' }).last().click();
    await tab(/Images: a lighthouse/).waitFor({ timeout: WAIT_MS });
    await until(galleryImageShown, 'the gallery to show the image');
    // The README's picture: the chat and the gallery, without the rest of the window (which made it too large).
    await e.wb.page.mouse.move(5, 400);
    await e.wb.screenshot('readme-vscode-chat-gateway', [e.wb.page.locator('.part.editor'), e.wb.page.locator('.part.auxiliarybar')]);
    await e.wb.closeAllEditors();
    await e.wb.runCommand('View: Hide Secondary Side Bar');
    await e.wb.runCommand('Model Gateway: Focus on Media View');
    await mediaRow('a lighthouse').first().waitFor({ timeout: WAIT_MS });
  });

  it("answers @gateway /usage with this month's spend by model, read from the ledger without a request", async () => {
    const posts = () => e.s.sim.log.filter((entry) => entry.method === 'POST').length;
    const before = posts();
    await e.wb.runCommand('Chat: Open Chat');
    await e.wb.page.locator('.interactive-input-part .monaco-editor').first().click({ timeout: WAIT_MS });
    // The trailing space ends the command's word, so Enter sends rather than accepting a completion.
    await e.wb.page.keyboard.type('@gateway /usage ');
    await e.wb.page.locator('.suggest-widget.visible').waitFor({ state: 'hidden', timeout: WAIT_MS });
    await e.wb.page.keyboard.press('Enter');
    const table = e.wb.page.locator('.interactive-response table').last();
    await table.locator('tr', { hasText: 'model-image-1.0' }).waitFor({ timeout: WAIT_MS });
    await table.locator('tr', { hasText: 'Total' }).waitFor({ timeout: WAIT_MS });
    await e.wb.page.locator('.interactive-response .monaco-button', { hasText: 'Show Usage' }).last().waitFor({ timeout: WAIT_MS });
    assert.equal(posts(), before, 'nothing was sent to the gateway');
    await e.wb.runCommand('View: Hide Secondary Side Bar');
  });
});
