// The README's pictures, taken from the packaged extension at the end of the flow with a tidy window: a chat
// with a table and code, the job tree beside a playing preview, the model list, and the finished walkthrough.
// They go to the run's screenshots folder as readme-*.png; the ones in media/screenshots/ are copies of them.
import { ALL_MODELS } from '../simulator/models';
import { useE2E } from './harness/suite';
import { findVideo, rowAction, videoRow } from './harness/views';
import { until, WAIT_MS } from './harness/workbench';

const HAVE_ENOUGH_DATA = 4;

describe('e2e 8b: the README pictures', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('pictures', ['chat', 'videos', 'errors']);

  /** The mouse away from anything with a hover, so no tooltip is in the picture. */
  const restMouse = () => e.wb.page.mouse.move(700, 848);

  it('closes every editor, unsaved ones without saving', async () => {
    await e.wb.closeToasts();
    await e.wb.runCommand('View: Close All Editors');
    const tabs = e.wb.page.locator('.tabs-container .tab');
    await until(async () => {
      const dialog = e.wb.page.locator('.monaco-dialog-box');
      if (await dialog.isVisible()) await e.wb.dialogButton("Don't Save");
      return (await tabs.count()) === 0;
    }, 'every editor to close');
  });

  it('a chat with a table and highlighted code', async () => {
    await e.wb.runCommand('Model Gateway: Focus on Chats View');
    await e.wb.runCommand('Model Gateway: New Chat');
    const frame = await e.chat.frame();
    await until(async () => (await frame.locator('select[aria-label="Model"] option[value="model-k3"]').count()) > 0, 'the model list in the panel');
    const reply = await e.chat.sendAndWait('How do the gateway models compare?');
    await reply.locator('table').waitFor({ timeout: WAIT_MS });
    await reply.locator('h3', { hasText: 'Key points' }).scrollIntoViewIfNeeded();
    await restMouse();
    await e.wb.screenshot('readme-chat');
  });

  it('the job tree beside a playing preview', async () => {
    await e.wb.runCommand('View: Close All Editors');
    await e.wb.showVideoJobs();
    const row = videoRow(e.wb, 'A paper boat').first();
    await rowAction(row, 'Preview');
    const video = await until(() => findVideo(e.wb.page), 'the preview webview');
    await until(async () => (await video.readyState()) >= HAVE_ENOUGH_DATA, 'the video to have enough data to play');
    await row.click();
    await restMouse();
    await e.wb.screenshot('readme-video-preview');
  });

  it('the model list', async () => {
    await e.wb.runCommand('Model Gateway: List Models');
    await e.wb.page.locator(`.quick-input-widget input.input[placeholder^="${ALL_MODELS.length} models"]`).waitFor({ timeout: WAIT_MS });
    await restMouse();
    await e.wb.screenshot('readme-model-list');
    await e.wb.closeQuickInput();
  });

  it('the walkthrough, every step done', async () => {
    await e.wb.runCommand('View: Close All Editors');
    await e.wb.runCommand('Welcome: Open Walkthrough...');
    await e.wb.pick('Get Started with Model Gateway');
    const done = e.wb.page.locator('button.getting-started-step[aria-checked="true"]');
    await until(async () => (await done.count()) === 5, 'the five steps ticked');
    await restMouse();
    await e.wb.screenshot('readme-walkthrough');
    await e.wb.runCommand('View: Close All Editors');
  });
});
