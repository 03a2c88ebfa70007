// The streaming speech player (src/webview/player) in Chromium, under the CSP its panel gets (mediaHtml.ts's
// streamingPlayerPage through pageCsp): pieces of MP3 sent as the host sends them are played before the last one
// is there, then the page moves to the kept file; a type MSE cannot take waits for the file, and a failure is said
// in words. A CSP violation or an exception in the page fails the test (harness.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { streamingPlayerPage } from '../../src/media/core/mediaHtml';
import { pieceMessages, type PlayerUpdate } from '../../src/webview/player/protocol';
import { pageCsp } from '../../src/ui/core/pageCsp';
import { silentMp3 } from '../simulator/mp3';
import { launchChromium, REPO_ROOT, servePage, type ServedPage } from './harness';
import { keptAudioServer, pauseAndExpectKeptFile, type KeptAudioServer } from './keptAudio';

const COMMANDS = { save: 'modelGateway.media.save', copy: 'modelGateway.media.copy', open: 'modelGateway.media.open' };
// Long enough that it is still playing when the test sends `complete`, however slow the machine.
const AUDIO = silentMp3(8);

async function playerBundle(): Promise<string> {
  const built = await esbuild.build({ entryPoints: [join(REPO_ROOT, 'src', 'webview', 'player', 'main.ts')], bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'error' });
  // As the webview host gives it: the body's data attributes (type from the URL's hash) and acquireVsCodeApi.
  const setup = `Object.assign(document.body.dataset, { type: decodeURIComponent(location.hash.slice(1)) || 'audio/mpeg', save: ${JSON.stringify(COMMANDS.save)}, open: ${JSON.stringify(COMMANDS.open)} });
window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m) });\n`;
  return setup + built.outputFiles[0].text;
}

const send = (page: Page, message: PlayerUpdate) => page.evaluate((m) => window.postMessage(m, '*'), message);
const audioState = (page: Page) => page.evaluate(() => {
  const audio = document.getElementById('player') as HTMLAudioElement;
  return { src: audio.currentSrc, paused: audio.paused };
});

describe('speech player in Chromium: plays streamed speech as it arrives', function () {
  this.timeout(30_000);
  let browser: Browser;
  let served: ServedPage;
  let files: KeptAudioServer;
  let page: Page;

  before(async () => {
    files = await keptAudioServer(AUDIO);
    const content = streamingPlayerPage('Hello there, this is streamed.', 'audio/mpeg', { cspSource: files.origin, commands: COMMANDS });
    const csp = pageCsp({ nonce: '{nonce}', cspSource: files.origin, scripts: true, styles: 'nonce', media: content.media });
    [browser, served] = await Promise.all([launchChromium(['--autoplay-policy=no-user-gesture-required']), servePage({ csp, body: content.body, script: playerBundle, styles: content.style })]);
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  after(async () => {
    await browser?.close();
    await served?.close();
    await files.close();
  });

  it('plays the first pieces before the last is sent, then moves to the kept file with Save and Open', async () => {
    await page.goto(served.url);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted), [{ type: 'ready', streaming: true }]);
    // Four pieces as the simulator streams them; each may be more than one message.
    const size = Math.ceil(AUDIO.length / 4);
    const pieces = [0, 1, 2, 3].map((i) => pieceMessages(AUDIO.subarray(i * size, (i + 1) * size), (b) => Buffer.from(b).toString('base64')));
    for (const message of pieces.slice(0, 3).flat()) await send(page, message);
    await page.waitForFunction(() => (document.getElementById('player') as HTMLAudioElement).currentTime > 0.1);
    const before = await audioState(page);
    assert.match(before.src, /^blob:/, 'played from the MediaSource');
    assert.equal(before.paused, false);

    for (const message of pieces[3]) await send(page, message);
    await send(page, { type: 'end' });
    await page.waitForFunction(() => Math.abs((document.getElementById('player') as HTMLAudioElement).duration - 8) < 0.1);
    await send(page, { type: 'complete', src: `${files.origin}/speech.mp3`, entry: 'mabc123def456' });
    const links = await page.$$eval('#actions a', (as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    assert.deepEqual(links, [
      ['Save to Workspace', `command:${COMMANDS.save}?${encodeURIComponent(JSON.stringify([{ entry: 'mabc123def456', index: 0 }]))}`],
      ['Open', `command:${COMMANDS.open}?${encodeURIComponent(JSON.stringify([{ entry: 'mabc123def456', index: 0 }]))}`],
    ]);
    // Still playing: the move to the file waits for a pause, so the sound is not cut.
    assert.match((await audioState(page)).src, /^blob:/);
    // The kept file, loaded, at the place the stream was paused (it can be sought as a whole).
    await pauseAndExpectKeptFile(page, '#player', files);
  });

  it('ignores a piece that does not fit the protocol', async () => {
    await page.goto(served.url);
    await page.evaluate(() => window.postMessage({ type: 'piece', data: 'not base64!' }, '*'));
    await page.evaluate(() => window.postMessage({ type: 'piece', data: 'AAAA', extra: 1 }, '*'));
    await send(page, { type: 'failed', message: 'the gateway closed the connection' });
    assert.equal(await page.textContent('#status'), 'The speech could not be completed: the gateway closed the connection');
  });

  it('waits for the kept file when it cannot play the type as it arrives (WAV), and plays it then', async () => {
    await page.goto(`${served.url}#${encodeURIComponent('audio/wav')}`);
    assert.deepEqual(await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted), [{ type: 'ready', streaming: false }]);
    assert.equal(await page.textContent('#status'), 'Receiving the audio… it plays once all of it is here.');
    await send(page, { type: 'complete', src: `${files.origin}/speech.mp3`, entry: 'mabc123def456' });
    await page.waitForFunction(() => (document.getElementById('player') as HTMLAudioElement).currentTime > 0.1);
    assert.equal((await audioState(page)).src, `${files.origin}/speech.mp3`);
  });
});
