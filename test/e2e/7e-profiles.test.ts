// Profiles and the usage ledger from the workbench: a second profile created from the status bar's Profiles… menu
// with its key; a chat under each profile, each header naming its own; a video generated under the second profile
// completes after switching back; after a reload the profiles, the chats' profiles and the job are all still there;
// then the profile is deleted after asking. An OpenRouter profile is made from the palette, its dialect chosen in
// Edit Profile; a video with a workspace image as its first frame goes to OpenRouter's video API (a second simulator,
// which serves it), finishes in the tree and plays. The usage ledger is exported to CSV through VS Code's save
// dialog, and cleared after asking.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../simulator';
import { encodePng } from '../simulator/png';
import { SIM_KEY } from './harness/session';
import { useE2E } from './harness/suite';
import { answerGenerateVideo, findVideo, rowAction, videoRow } from './harness/views';
import { textNow, until, WAIT_MS } from './harness/workbench';

const HAVE_METADATA = 1;

describe('e2e 7e: profiles and usage', function () {
  this.timeout(4 * WAIT_MS);
  const e = useE2E('profiles', ['firstRun']);
  const statusSays = (text: RegExp, what: string) => until(async () => text.test(await e.wb.status().innerText()), what);
  /** The profile the chat on screen names in its header. */
  const chatProfile = async () => (await textNow((await e.wb.chatFrame()).locator('button.profile-chip'))).trim();
  /** Switches from the status bar's menu (as a person would), or from the palette. */
  const switchTo = async (name: string, from: 'status bar' | 'palette' = 'palette') => {
    if (from === 'status bar') {
      await e.wb.status().click();
      await e.wb.pick(/Switch Profile…/);
    } else {
      // The status menu is rebuilt while a key just saved is being checked, so a click aimed at one of its rows
      // can land on another (Replace API Key…): the palette's command is the steady way between the steps.
      await e.wb.runCommand('Model Gateway: Switch Profile…');
    }
    await e.wb.pick(new RegExp(`^${name}`));
    await statusSays(new RegExp(`· ${name}`), `the status bar to name the ${name} profile`);
  };
  const VIDEO = 'A kite over the dunes, made under Work';
  const FRAMED = 'A lantern drifting up from the first frame';
  // A 16×9 gradient: a real PNG of the workspace, sent as the first frame.
  const FRAME_PNG = encodePng(16, 9, Uint8Array.from({ length: 16 * 9 * 3 }, (_, i) => (i * 7) % 256));
  /**
   * OpenRouter, played by a second simulator: its video API (POST /videos, frame_images) is served only beside its
   * /videos/models list, and that list on the suite's own simulator would make the Default profile's `auto` pick
   * openrouter for every other flow.
   */
  let openrouter: Simulator;
  before(async () => {
    openrouter = await startSimulator({ apiKey: SIM_KEY, videoModels: true, openrouterModels: true, video: { queuedMs: 1000, inProgressMs: 2000 } });
  });
  after(() => openrouter?.close());

  it("creates a second profile from the status bar's Profiles… menu, and sets its key", async () => {
    await e.wb.closeToasts();
    await e.wb.status().click();
    await e.wb.pick(/Profiles…/);
    await e.wb.pick(/Create Profile…/);
    await e.wb.answerInput('Work', /New profile \(1\/3\)/);
    await e.wb.answerInput(e.s.sim.baseUrl, /New profile "Work" \(2\/3\)/);
    await e.wb.answerInput('25', /New profile "Work" \(3\/3\)/);
    await e.wb.toast(/Created the profile "Work"/).first().waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
    // The new profile has no key: switched to, the status bar's menu offers to set it.
    await switchTo('Work', 'status bar');
    await statusSays(/no key · Work/, 'the status bar to say the Work profile has no key');
    await e.wb.status().click();
    await e.wb.pick(/Set API Key/);
    // One Enter, typed at once after the key: the box takes it even before any check of the typed text came back.
    await e.wb.answerInput(e.s.sim.apiKey, /API key for .*Work/);
    await until(async () => !/no key/.test(await e.wb.status().innerText()), 'the Work key to be saved', WAIT_MS);
    await e.wb.closeToasts();
    await switchTo('Default');
  });

  it("chats under each profile, each chat's header naming its own", async () => {
    await e.wb.runCommand('Model Gateway: New Chat');
    await until(async () => (await chatProfile()) === 'Default', 'the header to name Default');
    await e.chat.sendAndWait('[echo] asked under Default');
    await switchTo('Work');
    await e.wb.runCommand('Model Gateway: New Chat');
    await until(async () => (await chatProfile()) === 'Work', 'the new chat\'s header to name Work');
    await e.chat.sendAndWait('[echo] asked under Work');
    await e.wb.screenshot('chat-under-a-profile');
  });

  it('generates a video under Work, switches to Default, and sees the job complete', async () => {
    // Held queued until the window has switched: the job must finish under the other profile's watch.
    e.s.sim.holdVideos();
    await e.wb.showVideoJobs();
    await e.wb.runCommand('Model Gateway: Generate Video…');
    await answerGenerateVideo(e.wb, VIDEO);
    await videoRow(e.wb, VIDEO).first().waitFor({ timeout: WAIT_MS });
    await switchTo('Default');
    e.s.sim.releaseHeldVideos();
    await until(async () => /completed/.test(await textNow(videoRow(e.wb, VIDEO).first())), 'the Work job to complete after the switch', 3 * WAIT_MS);
  });

  it("after a reload, still has both profiles, each chat's profile, and the finished job", async () => {
    await e.wb.reload();
    await statusSays(/· Default/, 'the window to open with Default again');
    await e.wb.page.locator('.tabs-container .tab', { hasText: 'asked under Work' }).first().click();
    await until(async () => (await chatProfile()) === 'Work', 'the restored chat to name Work');
    await until(async () => /completed/.test(await textNow(videoRow(e.wb, VIDEO).first())), 'the finished job after the reload');
  });

  it("moves the Work chat to Default by Change Chat Profile…, and the window's profile stays", async () => {
    // A chat page the reload restored may still take the focus as it finishes loading, which closes the pick
    //: open it again after 5 s rather than wait out the pick's 60 s.
    await until(async () => {
      await e.wb.closeQuickInput();
      await e.wb.runCommand('Model Gateway: Change Chat Profile…');
      await e.wb.pick(/^Default/, 5_000);
      return true;
    }, 'Change Chat Profile… to take Default', 2 * WAIT_MS, 500);
    await until(async () => (await chatProfile()) === 'Default', 'the chat\'s header to name Default');
    await statusSays(/· Default/, 'the window to keep its profile');
  });

  it("the palette's Create Profile… asks for a name, and Escape creates nothing", async () => {
    await e.wb.runCommand('Model Gateway: Create Profile…');
    await e.wb.quickInputTitled(/New profile \(1\/3\)/);
    await e.wb.closeQuickInput();
    await e.wb.runCommand('Model Gateway: Switch Profile…');
    await until(async () => (await e.wb.page.locator('.quick-input-list .monaco-list-row').count()) === 2, 'the two profiles, and no third');
    await e.wb.closeQuickInput();
  });

  it('deletes the second profile after asking, and the status bar names no profile again', async () => {
    await e.wb.runCommand('Model Gateway: Delete Profile…');
    await e.wb.pick(/^Work/);
    await e.wb.dialogButton('Delete Profile');
    await until(async () => !(await e.wb.status().innerText()).includes('·'), 'the status bar to name no profile');
  });

  it('creates an OpenRouter profile from the palette, chooses its dialect in Edit Profile, and sets its key', async () => {
    await e.wb.runCommand('Model Gateway: Create Profile…');
    await e.wb.answerInput('OpenRouter', /New profile \(1\/3\)/);
    await e.wb.answerInput(openrouter.baseUrl, /New profile "OpenRouter" \(2\/3\)/);
    await e.wb.answerInput('', /New profile "OpenRouter" \(3\/3\)/);
    await e.wb.toastAction(/Created the profile "OpenRouter"/, 'Switch to It');
    await statusSays(/no key · OpenRouter/, 'the status bar to name the OpenRouter profile, without a key');
    await e.wb.closeToasts();
    await e.wb.runCommand('Model Gateway: Profiles…');
    await e.wb.pick(/Edit "OpenRouter"…/);
    await e.wb.answerInput(openrouter.baseUrl, /Edit "OpenRouter" \(1\/4\)/);
    await e.wb.answerInput('{}', /Edit "OpenRouter" \(2\/4\)/);
    await e.wb.quickInputTitled(/Edit "OpenRouter" \(3\/4\)/);
    await e.wb.pick('openrouter');
    await e.wb.answerInput('', /Edit "OpenRouter" \(4\/4\)/);
    await e.wb.runCommand('Model Gateway: Set API Key');
    await e.wb.answerInput(SIM_KEY, /API key for .*OpenRouter/);
    await until(async () => !/no key/.test(await e.wb.status().innerText()), 'the OpenRouter key to be saved', WAIT_MS);
    await e.wb.closeToasts();
  });

  it("generates a video from a workspace image as its first frame, sent as OpenRouter's frame_images", async () => {
    writeFileSync(join(e.s.paths.workspace, 'first-frame.png'), FRAME_PNG);
    await e.wb.showVideoJobs();
    await e.wb.runCommand('Model Gateway: Generate Video…');
    const step = (n: number) => e.wb.quickInputTitled(`Generate Video (${n}/6)`);
    await e.wb.answerInput(FRAMED, 'Generate Video (1/6)');
    await step(2);
    await e.wb.pick('model-1.0-video-edit');
    // What OpenRouter's /videos/models allows for the model: its resolutions, aspect ratios and durations.
    await step(3);
    await e.wb.pick('720p');
    await e.wb.pick('16:9');
    await step(4);
    await e.wb.pick('4 s');
    await e.wb.answerInput('', 'Generate Video (5/6)');
    await step(6);
    await e.wb.pick('first-frame.png');
    const submitted = await until(() => openrouter.log.find((entry) => entry.method === 'POST' && entry.path === '/v1/videos'), 'the submission at OpenRouter\'s /videos');
    assert.equal(submitted.status, 202);
    const body = submitted.body as Record<string, unknown>;
    assert.deepEqual(
      { prompt: body.prompt, resolution: body.resolution, aspect_ratio: body.aspect_ratio, duration: body.duration, frame_images: body.frame_images },
      { prompt: FRAMED, resolution: '720p', aspect_ratio: '16:9', duration: 4, frame_images: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${FRAME_PNG.toString('base64')}` }, frame_type: 'first_frame' }] },
    );
    await until(async () => /completed/.test(await textNow(videoRow(e.wb, FRAMED).first())), 'the job to complete in the tree', 2 * WAIT_MS);
    assert.ok(openrouter.log.some((entry) => entry.method === 'GET' && /^\/v1\/videos\/vid_/.test(entry.path)), 'polled at OpenRouter\'s /videos/{id}');
  });

  it('plays the finished video in the preview', async () => {
    await e.wb.closeAllEditors();
    await e.wb.closeToasts();
    await rowAction(videoRow(e.wb, FRAMED).first(), 'Preview');
    const video = await until(() => findVideo(e.wb.page), 'the preview webview');
    await until(async () => (await video.readyState()) >= HAVE_METADATA, 'the video\'s metadata');
    await video.play();
    const started = await video.currentTime();
    await until(async () => (await video.currentTime()) > started, 'the video to play (its time advancing)');
  });

  it('switches back to Default and deletes the OpenRouter profile after asking', async () => {
    await e.wb.closeAllEditors();
    await switchTo('Default');
    await e.wb.runCommand('Model Gateway: Delete Profile…');
    await e.wb.pick(/^OpenRouter/);
    await e.wb.dialogButton('Delete Profile');
    await until(async () => !(await e.wb.status().innerText()).includes('·'), 'the status bar to name no profile');
  });

  it('exports the usage ledger to CSV through the save dialog, and clears it after asking', async () => {
    await e.wb.runCommand('Model Gateway: Export Usage…');
    const input = e.wb.quickInputBox();
    await until(async () => /model-gateway-usage-.*\.csv$/.test(await input.inputValue()), 'the proposed file name');
    await input.press('Enter');
    const exported = await until(() => readdirSync(e.s.paths.workspace).find((f) => /^model-gateway-usage-.*\.csv$/.test(f)), 'the exported file');
    const lines = readFileSync(join(e.s.paths.workspace, exported), 'utf8').trim().split('\n');
    assert.match(lines[0], /^time,profile,surface,model,modality,/);
    assert.ok(lines.some((line) => line.includes(',chat,')), 'the chats of the earlier flows are in the ledger');
    await e.wb.runCommand('Model Gateway: Clear Usage…');
    await e.wb.dialogButton('Clear Usage');
    await until(() => e.wb.commandRuns().has('modelGateway.clearUsage'), 'Clear Usage to run');
  });
});
