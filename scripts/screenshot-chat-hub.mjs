// Makes media/screenshots/chat-hub.png: a chat thread with text, an /image and a playing /video, in VS Code (the
// same VS Code server the host tests use) against the gateway simulator. Run after a build: node scripts/screenshot-chat-hub.mjs
import { withWorkbench } from './screenshot-session.mjs';

const settings = { 'modelGateway.video.pollMinSeconds': 1, 'modelGateway.video.pollMaxSeconds': 1 };
await withWorkbench({ simulator: { video: { queuedMs: 1500, inProgressMs: 1500 } }, settings }, async (wb) => {
  const { page } = wb;
  // Close the side bar so the chat has the room.
  await page.keyboard.press('Control+B');
  const chat = await wb.newChat('model-k3');
  const input = chat.locator('textarea.composer-input');
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
  await wb.save(page.locator('.editor-group-container').first(), 'chat-hub.png');
});
