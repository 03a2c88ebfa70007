// A new user's first minutes, from the packaged .vsix: the walkthrough and the welcome view ask for the gateway
// URL and the key, the key is typed into the real password box, the status bar turns connected, and List Models
// shows the gateway's three models.
import * as assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { SIM_KEY } from './harness/session';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';
import { zipEntryNames } from './harness/zip';
import { untilStepTicked, walkthroughStep, walkthroughStepDone, welcomeView } from './harness/views';
import { ALL_MODELS } from '../simulator/models';

// What the features weigh, compressed, with room for a few more: a package far past it carries something it should not
// (dependencies not bundled, sources, fixtures, a second copy of a library). It is about 632 KB: the chat's markdown
// worker runs the chat's own script, so markdown-it and highlight.js are in it once.
const MAX_VSIX_BYTES = 680 * 1024;

describe('e2e 1: first run from the packaged .vsix', function () {
  this.timeout(4 * WAIT_MS);
  const e = useE2E('firstRun', []);


  it(`packages under ${MAX_VSIX_BYTES / 1024} KB with no source, test or map file`, () => {
    const size = statSync(e.s.paths.vsix).size;
    assert.ok(size < MAX_VSIX_BYTES, `${e.s.paths.vsix} is ${Math.round(size / 1024)} KB`);
    const names = zipEntryNames(readFileSync(e.s.paths.vsix));
    assert.ok(names.includes('extension/dist/extension.js'), names.join(', '));
    assert.ok(names.includes('extension/media/icon.png'));
    const unwanted = names.filter((n) => /\.(ts|tsx|map|mjs|cjs)$/.test(n) || /^extension\/(src|test|bench|scripts|out|node_modules)\//.test(n));
    assert.deepEqual(unwanted, []);
    const icon = readFileSync(`${e.s.paths.root}/media/icon.png`);
    assert.equal(icon.toString('ascii', 1, 4), 'PNG');
    assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128], 'a 128×128 icon');
  });

  it('opens a fresh profile whose walkthrough and welcome view ask for the URL and the key', async function () {
    this.timeout(8 * WAIT_MS);
    await e.wb.waitForExtension();
    assert.match((await e.wb.status().getAttribute('aria-label')) ?? '', /no gateway URL is set/);
    await e.wb.runCommand('Welcome: Open Walkthrough...');
    await e.wb.pick('Get Started with Model Gateway');
    const steps = ['Set the gateway URL', 'Add your API key', 'Test the connection', 'Open a chat', 'Generate a video'];
    for (const title of steps) await walkthroughStep(e.wb, title).waitFor({ timeout: WAIT_MS });
    for (const title of steps) assert.equal(await walkthroughStepDone(e.wb, title), false, `${title} is not done yet`);
    await e.wb.showVideoJobs();
    const welcome = welcomeView(e.wb, 'Video Jobs', 'Connect to a model gateway');
    await welcome.waitFor({ timeout: WAIT_MS });
    await e.wb.screenshot('walkthrough-and-welcome');
  });

  it('sets the gateway URL from the welcome view, which then asks for the key', async () => {
    await welcomeView(e.wb, 'Video Jobs', 'Connect to a model gateway').locator('.monaco-button', { hasText: 'Set Gateway URL' }).click();
    await e.wb.answerInput(e.s.sim.baseUrl, 'Gateway URL');
    await welcomeView(e.wb, 'Video Jobs', 'Add your API key').waitFor({ timeout: WAIT_MS });
    await untilStepTicked(e.wb, 'Set the gateway URL');
    assert.equal(await walkthroughStepDone(e.wb, 'Add your API key'), false);
  });

  it('takes the key in the password box of "Set API Key" and turns the status bar to connected', async () => {
    await e.wb.runCommand('Model Gateway: Set API Key');
    await e.wb.quickInputTitled('API key for');
    assert.equal(await e.wb.quickInputBox().getAttribute('type'), 'password', 'the key is typed into a password box');
    await e.wb.answerInput(SIM_KEY);
    await e.wb.toastAction(/Saved the API key/, 'Verify Key');
    await e.wb.toast(new RegExp(`The key works: .* lists ${ALL_MODELS.length} models`)).waitFor({ timeout: WAIT_MS });
    await until(async () => /connected to/.test((await e.wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say connected');
    await untilStepTicked(e.wb, 'Add your API key');
    await untilStepTicked(e.wb, 'Test the connection');
    await e.wb.screenshot('connected');
    assert.equal(e.s.sim.log.filter((e) => e.path === '/v1/models' && e.status === 200).length >= 1, true);
  });

  it('lists model-k3, model-5.2 and model-1.0-video-edit', async () => {
    await e.wb.closeToasts();
    await e.wb.runCommand('Model Gateway: List Models');
    for (const id of ['model-k3', 'model-5.2', 'model-1.0-video-edit']) await e.wb.quickPickRow(new RegExp(id.replace(/\./g, '\\.'))).first().waitFor({ timeout: WAIT_MS });
    await e.wb.screenshot('list-models');
    await e.wb.closeQuickInput();
  });
});
