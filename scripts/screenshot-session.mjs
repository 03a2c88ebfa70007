// What the README screenshot scripts share: the gateway simulator, VS Code (the server the host tests use) with the
// extension under development and the simulator's key, a workspace folder, and Debian's Chromium on the workbench;
// plus the few workbench gestures the pictures need. Run the scripts after a build (they load out/).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from './host-cache.mjs';
import { chromiumPath, freePort, startVSCodeServer } from './vscode-host.mjs';

const require = createRequire(import.meta.url);
export const EXTENSION_ID = 'model-gateway.model-gateway';
export const SHOTS = join(ROOT, 'media', 'screenshots');

/** A tidy window: dark theme, no AI features, no minimap or layout controls in the picture. */
const TIDY = {
  'workbench.startupEditor': 'none',
  'workbench.colorTheme': 'Default Dark Modern',
  'window.commandCenter': false,
  'workbench.layoutControl.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'editor.minimap.enabled': false,
  'workbench.tips.enabled': false,
  'git.enabled': false,
};

/**
 * Starts everything and runs `shoot` with the page and helpers; always cleans up. `files` are written into the
 * workspace (path → text or bytes); `seed(globalStorage)` may write the extension's storage before VS Code starts.
 */
export async function withWorkbench({ simulator = {}, settings = {}, files = {}, seed, viewport = { width: 960, height: 840 } }, shoot) {
  const { startSimulator } = require(join(ROOT, 'out', 'test', 'simulator', 'index.js'));
  const sim = await startSimulator({ tokensPerSecond: 400, quiet: true, ...simulator });
  const scratch = mkdtempSync(join(tmpdir(), 'mg-shot-'));
  const workspace = join(scratch, 'workspace');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  mkdirSync(workspace, { recursive: true });
  const userDataDir = join(scratch, 'data');
  if (seed) await seed(join(userDataDir, 'User', 'globalStorage', EXTENSION_ID));
  const seedFile = join(scratch, 'seed.json');
  writeFileSync(seedFile, JSON.stringify({ origin: sim.origin, apiKey: sim.apiKey }), { mode: 0o600 });
  const port = await freePort();
  const server = await startVSCodeServer({
    port,
    userDataDir,
    extensionsDir: join(scratch, 'extensions'),
    settings: { 'modelGateway.baseUrl': sim.baseUrl, ...TIDY, ...settings },
    env: { MODEL_GATEWAY_SEED_KEY_FILE: seedFile },
  });
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
  try {
    const page = await browser.newPage({ viewport });
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    const payload = [['extensionDevelopmentPath', remote(ROOT)], ['skipWelcome', 'true']];
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: 120_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // The extension's status bar item says it is loaded.
    await page.locator('.statusbar-item', { hasText: 'Gateway' }).first().waitFor({ timeout: 90_000 });
    await page.waitForTimeout(1000);
    await shoot(workbenchHelpers(page, { sim, workspace }));
  } catch (error) {
    const failed = join(tmpdir(), 'mg-shot-failed.png');
    await browser.contexts()[0]?.pages()[0]?.screenshot({ path: failed });
    console.error(`The window when it failed: ${failed}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
    await sim.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function workbenchHelpers(page, { sim, workspace }) {
  const quickInput = page.locator('.quick-input-widget');
  const helpers = {
    page,
    sim,
    workspace,
    async runCommand(title) {
      // A webview with focus (an image preview, a chat) keeps F1 from the workbench.
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('F1');
      await quickInput.locator('input').fill(`>${title}`);
      await page.waitForTimeout(1000);
      await quickInput.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click({ timeout: 30_000 });
    },
    /** Picks the row of the open quick pick with this text. */
    async pick(text) {
      const row = quickInput.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
      await row.waitFor({ timeout: 30_000 });
      // The list may still be laying out its rows: a click now can land on the row next to this one.
      await page.waitForTimeout(400);
      await row.click();
    },
    /** Opens a workspace file by name through Quick Open (`toSide`: in a new editor group to the right). */
    async openFile(name, { toSide = false } = {}) {
      await page.evaluate(() => document.activeElement?.blur());
      await page.keyboard.press('Control+P');
      await quickInput.locator('input').fill(name);
      const row = quickInput.locator('.quick-input-list .monaco-list-row', { hasText: name.split('/').pop() }).first();
      await row.waitFor({ timeout: 30_000 });
      if (toSide) await page.keyboard.press('Control+Enter');
      else await row.click();
      await page.locator('.tabs-container .tab.active', { hasText: name.split('/').pop() }).waitFor({ timeout: 30_000 });
    },
    /**
     * The page of the chat on screen (other webviews, such as an image preview, may be on screen too), as a locator
     * that follows the chat when its page is rebuilt (a media result from a new origin does that).
     */
    async chat() {
      for (let i = 0; i < 240; i++) {
        for (const frame of page.frames()) {
          if (frame.isDetached() || !(await frame.locator('textarea.composer-input').isVisible().catch(() => false))) continue;
          const name = frame.parentFrame()?.name();
          if (name) return page.frameLocator(`iframe[name="${name}"]`).frameLocator('#active-frame');
        }
        await page.waitForTimeout(250);
      }
      throw new Error('No chat on screen');
    },
    /** Opens a new chat on `model` and waits until it is ready for a question. */
    async newChat(model = 'model-k3') {
      await helpers.runCommand('Model Gateway: New Chat');
      const chat = await helpers.chat();
      await chat.locator(`select.model-select option[value="${model}"]`).waitFor({ state: 'attached', timeout: 30_000 });
      await chat.locator('select.model-select').selectOption(model);
      return chat;
    },
    /** Sends a question in the active chat and waits for its reply to end. */
    async ask(text) {
      const chat = await helpers.chat();
      const done = chat.locator('article.assistant-turn[aria-busy="false"]');
      const before = await done.count();
      await chat.locator('textarea.composer-input').fill(text);
      await chat.locator('textarea.composer-input').press('Enter');
      await done.nth(before).waitFor({ state: 'attached', timeout: 30_000 });
      await page.waitForTimeout(500);
    },
    /** Moves the mouse where nothing has a hover, so no tooltip is in the picture. */
    restMouse: () => page.mouse.move(page.viewportSize().width / 2, 2),
    async save(locator, name) {
      const out = join(SHOTS, name);
      await helpers.restMouse();
      await page.waitForTimeout(500);
      await locator.screenshot({ path: out });
      console.log(`${out}: ${Math.round(statSync(out).size / 1024)} KB`);
      return out;
    },
  };
  return helpers;
}
