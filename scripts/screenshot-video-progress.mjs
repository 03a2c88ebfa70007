// Makes media/screenshots/video-progress.png: the Video Jobs tree with a job "in progress · 40%" (the progress the
// gateway reports), one finished and kept, and one queued, beside the finished one playing, in VS Code (the same VS
// Code server the host tests use) against the gateway simulator in the OpenAI Videos shape (`openaiVideos`, whose jobs
// report `progress`; the profile's `auto` dialect finds it from the model list). The simulator runs on a clock this
// script moves, so the running job stays at 40% while the picture is taken. Run after a build:
// node scripts/screenshot-video-progress.mjs
import { withWorkbench } from './screenshot-session.mjs';

const QUEUED_MS = 1000;
const IN_PROGRESS_MS = 10_000;
let clock = Date.now();
const simulator = { openaiVideos: true, now: () => clock, video: { queuedMs: QUEUED_MS, inProgressMs: IN_PROGRESS_MS } };
const settings = { 'modelGateway.video.pollMinSeconds': 1, 'modelGateway.video.pollMaxSeconds': 1 };

await withWorkbench({ simulator, settings, viewport: { width: 1100, height: 560 } }, async (wb) => {
  const { page, sim } = wb;
  const quickInput = page.locator('.quick-input-widget');
  const step = (n) => quickInput.locator('.quick-input-title', { hasText: `Generate Video (${n}/6)` }).waitFor({ timeout: 30_000 });
  const answer = async (n, text) => {
    await step(n);
    await quickInput.locator('input').fill(text);
    await quickInput.locator('input').press('Enter');
  };
  const submitted = () => sim.log.filter((entry) => entry.method === 'POST' && entry.path === '/v1/videos').length;
  /** Generate Video's six steps; resolves once the gateway has the job (its clock may move from then on). */
  const generate = async (prompt) => {
    const before = submitted();
    await wb.runCommand('Model Gateway: Generate Video…');
    await answer(1, prompt);
    await step(2);
    await wb.pick('model-1.0-video-edit');
    await step(3);
    await wb.pick('1280x720');
    await answer(4, '4');
    await answer(5, '');
    await step(6);
    await wb.pick('No first frame');
    for (let i = 0; i < 120 && submitted() === before; i++) await page.waitForTimeout(250);
    if (submitted() === before) throw new Error(`"${prompt}" was not submitted`);
  };
  const row = (...texts) => texts.reduce((rows, text) => rows.filter({ hasText: text }), page.locator('.part.sidebar .monaco-list-row')).first();

  await wb.runCommand('Model Gateway: Focus on Video Jobs View');
  // Room for each job's description: the side bar dragged wider by its edge.
  const sideBar = await page.locator('.part.sidebar').boundingBox();
  await page.mouse.move(sideBar.x + sideBar.width + 1, sideBar.y + 200);
  await page.mouse.down();
  await page.mouse.move(sideBar.x + 640, sideBar.y + 200, { steps: 8 });
  await page.mouse.up();

  await generate('Waves rolling onto dark rocks, slow motion');
  clock += QUEUED_MS + IN_PROGRESS_MS + 1000;
  await row('Waves rolling', 'completed').waitFor({ timeout: 30_000 });
  await generate('A lighthouse at dawn, the camera circling it');
  clock += QUEUED_MS + 0.4 * IN_PROGRESS_MS;
  await row('A lighthouse', 'in progress · 40%').waitFor({ timeout: 30_000 });
  // The third waits its turn at the gateway: the clock stays where it is.
  await generate('Rain on a harbour at night');
  await row('Rain on a harbour', 'queued').waitFor({ timeout: 30_000 });

  // The finished one plays beside the tree.
  await row('Waves rolling').hover();
  await row('Waves rolling').locator('.actions .action-label[aria-label="Preview"]').click();
  let playing = false;
  for (let i = 0; i < 120 && !playing; i++) {
    for (const frame of page.frames()) {
      const video = frame.locator('video');
      if (frame.isDetached() || (await video.count().catch(() => 0)) === 0) continue;
      playing = await video
        .evaluate(async (v) => {
          v.muted = true;
          v.loop = true;
          await v.play();
          return v.readyState >= 3;
        })
        .catch(() => false);
    }
    if (!playing) await page.waitForTimeout(250);
  }
  if (!playing) throw new Error('The preview did not play');
  await row('A lighthouse').click();
  for (const toast of await page.locator('.notification-toast').all()) await toast.locator('.codicon-notifications-clear').click({ timeout: 2000 }).catch(() => undefined);
  await row('A lighthouse', 'in progress · 40%').waitFor({ timeout: 30_000 });
  await wb.save(page.locator('.monaco-workbench'), 'video-progress.png');
});
