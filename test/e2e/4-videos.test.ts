// Video jobs as a user follows them: Generate Video's five prompts, the job moving from queued to in progress
// to completed in the tree, Preview playing the result, and every action of the Video Jobs view run from its
// title bar, an inline button or a row's context menu, with their questions answered.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

import { answerGenerateVideo, findVideo, rowAction, rowMenu, videoRow, viewTitleAction, walkthroughStepDone, welcomeView } from './harness/views';
import { useE2E } from './harness/suite';
import { textNow, until, WAIT_MS } from './harness/workbench';

const BOAT = 'A paper boat drifting down a rain-soaked street';
const HAVE_ENOUGH_DATA = 4;

describe('e2e 4: video jobs', function () {
  this.timeout(4 * WAIT_MS);
  const e = useE2E('videos', ['firstRun']);


  const clipboard = () => e.wb.page.evaluate(() => navigator.clipboard.readText());

  const statusOf = async (prompt: string) => (await textNow(videoRow(e.wb, prompt).first())).replace(/\s+/g, ' ');

  it('marks an uncertain submission, and Check Submission offers to remove it', async () => {
    await e.wb.showVideoJobs();
    await e.wb.runCommand('Model Gateway: Generate Video…');
    await answerGenerateVideo(e.wb, '[fault:drop-mid-stream] A lighthouse in a gale');
    await e.wb.toast(/Submission uncertain/).first().waitFor({ timeout: WAIT_MS });
    const row = videoRow(e.wb, 'A lighthouse in a gale');
    await until(async () => /submission uncertain/.test(await statusOf('A lighthouse in a gale')), 'the uncertain job in the tree');
    await rowMenu(e.wb, row.first(), 'Check Submission');
    await e.wb.dialogButton('Remove from List');
    // It is unfinished, so Remove asks again.
    await e.wb.page.locator('.monaco-dialog-box', { hasText: 'Remove the unfinished video job' }).waitFor({ timeout: WAIT_MS });
    await e.wb.dialogButton('Remove');
    await row.first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await e.wb.closeToasts();
  });

  it('follows a failed job, refreshes it, shows its error and resubmits it; Remove and Clear Finished empty the list', async () => {
    await e.wb.runCommand('Model Gateway: Generate Video…');
    // Held queued until it has been refreshed: Refresh Job is offered only while a job is unfinished, and under load
    // the job used to fail before its menu opened (the menu then never offered it).
    e.s.sim.holdVideos();
    await answerGenerateVideo(e.wb, '[fail] A storm over the harbour');
    const row = videoRow(e.wb, 'A storm over the harbour');
    await row.first().waitFor({ timeout: WAIT_MS });
    const polls = e.s.sim.log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/videos/generations/')).length;
    await rowMenu(e.wb, row.first(), 'Refresh Job');
    await until(() => e.s.sim.log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/videos/generations/')).length > polls, 'a status check');
    e.s.sim.releaseHeldVideos();
    await until(async () => /failed/.test(await statusOf('A storm over the harbour')), 'the job to fail');
    await rowAction(row.first(), 'Show Error');
    await e.wb.page.locator('.monaco-dialog-box', { hasText: 'failed' }).waitFor({ timeout: WAIT_MS });
    await e.wb.dialogButton('Resubmit');
    await until(async () => (await row.count()) === 2, 'the resubmitted job');
    await until(async () => (await row.allInnerTexts()).every((t) => /failed/.test(t)), 'both to fail');
    await rowMenu(e.wb, row.first(), 'Resubmit');
    await until(async () => (await row.count()) === 3, 'the job resubmitted from the menu');
    await until(async () => (await row.allInnerTexts()).every((t) => /failed/.test(t)), 'all three to fail');
    await rowMenu(e.wb, row.first(), 'Remove from List');
    await until(async () => (await row.count()) === 2, 'one job removed');
    await viewTitleAction(e.wb, 'Clear Finished Video Jobs').first().click();
    await until(async () => (await row.count()) === 0, 'the finished jobs cleared');
    await welcomeView(e.wb, 'Video Jobs', 'No video jobs yet').waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
  });

  it('generates a video from the view: queued, then in progress, then completed', async () => {
    await e.wb.showVideoJobs();
    await viewTitleAction(e.wb, 'Generate Video…').first().click();
    await answerGenerateVideo(e.wb, BOAT);
    await until(async () => /queued/.test(await statusOf(BOAT)), 'queued');
    await e.wb.screenshot('video-queued');
    await until(async () => /in progress/.test(await statusOf(BOAT)), 'in progress');
    await until(async () => /completed/.test(await statusOf(BOAT)), 'completed', 2 * WAIT_MS);
    await e.wb.toast(/Video ready/).first().waitFor({ timeout: WAIT_MS });
    assert.match(await statusOf(BOAT), /completed · .* · 1280x720 · 4 s/);
  });

  it('previews the result, and the video plays', async () => {
    await e.wb.closeToasts();
    await rowAction(videoRow(e.wb, BOAT).first(), 'Preview');
    const video = await until(() => findVideo(e.wb.page), 'the preview webview');
    await video.click();
    await until(async () => (await video.readyState()) >= HAVE_ENOUGH_DATA, 'the video to have enough data to play');
    await e.wb.screenshot('video-preview');
  });

  it('copies the job id and the result link, opens the result, and downloads it to the workspace', async () => {
    const row = videoRow(e.wb, BOAT).first();
    await rowMenu(e.wb, row, 'Copy Job ID');
    const id = await until(async () => /^vid_\w+$/.exec(await clipboard())?.[0], 'the job id on the clipboard');
    await rowMenu(e.wb, row, 'Copy URL');
    const url = await until(async () => ((await clipboard()).startsWith(`${e.s.sim.origin}/files/${id}.mp4?`) ? clipboard() : undefined), 'the result link on the clipboard');

    const opened: string[] = [];
    const onPage = (page: Page) => opened.push(page.url());
    e.wb.page.context().on('page', onPage);
    try {
      await rowAction(row, 'Open Result');
      const dialog = e.wb.page.locator('.monaco-dialog-box');
      await until(async () => opened.length > 0 || (await dialog.isVisible()), 'the result to open or VS Code to ask');
      if (opened.length === 0) await e.wb.dialogButton('Open');
      const popup = await until(() => e.wb.page.context().pages().find((p) => p !== e.wb.page), 'the opened page');
      await until(() => popup.url() !== 'about:blank', 'its address');
      assert.match(popup.url(), new RegExp(`/files/${id}\\.mp4\\?`), 'the signed link of this job');
      await popup.close();
    } finally {
      e.wb.page.context().off('page', onPage);
    }
    assert.ok(url.includes('sig='));

    await rowMenu(e.wb, row, 'Download to Workspace');
    await e.wb.toast(/Saved .*\.mp4/).first().waitFor({ timeout: WAIT_MS });
    const saved = readdirSync(e.s.paths.workspace).filter((f) => f.endsWith('.mp4'));
    assert.equal(saved.length, 1, saved.join(', '));
    assert.ok(existsSync(`${e.s.paths.workspace}/${saved[0]}`));
  });

  it('refreshes all jobs from the view title, and the walkthrough is complete', async () => {
    const polls = e.s.sim.log.length;
    await viewTitleAction(e.wb, 'Refresh All Video Jobs').first().click();
    // A completed job needs no status check; the command still runs (recorded in the log) and changes nothing.
    await until(() => e.wb.commandRuns().has('modelGateway.videos.refreshAll'), 'Refresh All to run');
    assert.equal(e.s.sim.log.slice(polls).filter((e) => e.path.startsWith('/v1/videos')).length, 0, 'no request for a finished job');
    assert.match(await statusOf(BOAT), /completed/);
    await e.wb.runCommand('Welcome: Open Walkthrough...');
    await e.wb.pick('Get Started with Model Gateway');
    for (const step of ['Set the gateway URL', 'Add your API key', 'Test the connection', 'Open a chat', 'Generate a video']) {
      await until(() => walkthroughStepDone(e.wb, step), `the walkthrough step "${step}" to be ticked`);
    }
    await e.wb.screenshot('walkthrough-done');
  });
});
