// Makes media/screenshots/chat-hub.png: a chat thread with text, an /image and a playing /video, in VS Code (the
// same VS Code server the host tests use) against the gateway simulator. Run after a build: node scripts/screenshot-chat-hub.mjs
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from './host-cache.mjs';
import { chromiumPath, freePort, startVSCodeServer } from './vscode-host.mjs';

const require = createRequire(import.meta.url);
const { startSimulator } = require(join(ROOT, 'out', 'test', 'simulator', 'index.js'));
const out = join(ROOT, 'media', 'screenshots', 'chat-hub.png');

const sim = await startSimulator({ tokensPerSecond: 400, video: { queuedMs: 1500, inProgressMs: 1500 }, quiet: true });
const scratch = mkdtempSync(join(tmpdir(), 'mg-shot-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace, { recursive: true });
const seedFile = join(scratch, 'seed.json');
writeFileSync(seedFile, JSON.stringify({ origin: sim.origin, apiKey: sim.apiKey }), { mode: 0o600 });
const port = await freePort();
const server = await startVSCodeServer({
  port,
  userDataDir: join(scratch, 'data'),
  extensionsDir: join(scratch, 'extensions'),
  settings: { 'modelGateway.baseUrl': sim.baseUrl, 'workbench.startupEditor': 'none', 'modelGateway.video.pollMinSeconds': 1, 'modelGateway.video.pollMaxSeconds': 1, 'workbench.colorTheme': 'Default Dark Modern', 'window.commandCenter': false, 'workbench.layoutControl.enabled': false, 'workbench.secondarySideBar.defaultVisibility': 'hidden', 'chat.disableAIFeatures': true },
  env: { MODEL_GATEWAY_SEED_KEY_FILE: seedFile },
});
const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
try {
  const page = await browser.newPage({ viewport: { width: 960, height: 840 } });
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [['extensionDevelopmentPath', remote(ROOT)], ['skipWelcome', 'true']];
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  // The extension's status bar item says it is loaded.
  await page.locator('.statusbar-item', { hasText: 'Gateway' }).first().waitFor({ timeout: 90_000 });
  await page.waitForTimeout(1000);
  // Close the side bar so the chat has the room.
  await page.keyboard.press('Control+B');
  const runCommand = async (title) => {
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(`>${title}`);
    await page.waitForTimeout(1000);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click({ timeout: 30_000 });
  };
  await runCommand('Model Gateway: New Chat');
  const chat = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  const input = chat.locator('textarea.composer-input');
  await input.waitFor({ timeout: 30_000 });
  await chat.locator('select.model-select option[value="model-k3"]').waitFor({ state: 'attached', timeout: 30_000 });
  const send = async (text) => {
    await input.fill(text);
    await input.press('Enter');
  };
  await send('[echo] Three shots for the harbour piece: the lighthouse at dawn, the waves on the rocks, and a closing frame.');
  await chat.locator('.assistant-turn .turn-status').first().waitFor({ state: 'attached' });
  await page.waitForTimeout(1500);
  await send('/image a lighthouse on a cliff at dawn');
  await chat.locator('img.media-image').waitFor({ timeout: 30_000 });
  await chat.locator('img.media-image').evaluate((img) => (img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve, { once: true }))));
  await send('/video waves rolling onto dark rocks, slow motion');
  const video = chat.locator('video.media-video');
  await video.waitFor({ timeout: 60_000 });
  await video.evaluate(async (v) => {
    v.muted = true;
    v.loop = true;
    await v.play();
  });
  await page.waitForTimeout(600);
  const state = await video.evaluate((v) => ({ playing: !v.paused && v.currentTime > 0, error: v.error?.code ?? null }));
  console.log('video', JSON.stringify(state));
  await chat.locator('main.transcript').evaluate((t) => (t.scrollTop = t.scrollHeight));
  await page.waitForTimeout(800);
  const editor = page.locator('.editor-group-container').first();
  await editor.screenshot({ path: out });
  console.log(`${out}: ${Math.round(statSync(out).size / 1024)} KB`);
} catch (error) {
  await browser.contexts()[0]?.pages()[0]?.screenshot({ path: join(tmpdir(), 'mg-shot-failed.png') });
  throw error;
} finally {
  await browser.close();
  await server.stop();
  await sim.close();
  rmSync(scratch, { recursive: true, force: true });
}
