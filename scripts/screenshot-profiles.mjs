// Makes media/screenshots/profiles.png: a second profile ("Work") created from the status bar's Profiles… menu,
// switched to and given its key from the status bar, and a chat under it whose header names it, in VS Code (the same
// VS Code server the host tests use) against the gateway simulator. Run after a build: node scripts/screenshot-profiles.mjs
import { withWorkbench } from './screenshot-session.mjs';

await withWorkbench({ viewport: { width: 960, height: 640 } }, async (wb) => {
  const { page } = wb;
  const quickInput = page.locator('.quick-input-widget');
  const status = page.locator('[id="model-gateway.model-gateway.modelGateway.status"]');
  const answer = async (text) => {
    const input = quickInput.locator('input');
    await input.waitFor({ timeout: 30_000 });
    await input.fill(text);
    await input.press('Enter');
    await page.waitForTimeout(500);
  };
  const statusMenu = async (...items) => {
    await status.click();
    for (const item of items) await wb.pick(item);
  };
  // Close the side bar so the chat has the room.
  await page.keyboard.press('Control+B');
  await statusMenu('Profiles…', 'Create Profile…');
  await answer('Work');
  await answer(wb.sim.baseUrl);
  await statusMenu('Switch Profile…', 'Work');
  await page.locator('.statusbar-item', { hasText: '· Work' }).first().waitFor({ timeout: 30_000 });
  // The new profile has no key yet: the status bar's menu offers to set it.
  await statusMenu('Set API Key');
  await answer(wb.sim.apiKey);
  await page.locator('.statusbar-item', { hasText: 'no key' }).first().waitFor({ state: 'detached', timeout: 30_000 });
  // Clear the toasts the key and the switch left.
  for (const item of await page.locator('.notification-toast').all()) await item.locator('.codicon-notifications-clear').click({ timeout: 2000 }).catch(() => undefined);
  const chat = await wb.newChat('model-k3');
  await chat.locator('button.profile-chip', { hasText: 'Work' }).waitFor({ timeout: 30_000 });
  await wb.ask('[echo] Which gateway does this chat use? It keeps the Work profile even if the window switches.');
  // The picture is the whole window: the chat's header names its profile, the status bar the window's.
  await wb.save(page.locator('.monaco-workbench'), 'profiles.png');
});
