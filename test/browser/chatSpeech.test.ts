// The chat's /speak card in Chromium, under the chat page's CSP (chat/hub/csp.ts): the audio the host sends while
// it arrives (ArrivingSpeech's messages, as the hub makes them) plays before the last piece is there, through the
// speech player's own MediaSource stream; once the turn is kept the card moves to the kept file, after a pause so the
// sound is not cut. A page that came in midway waits for the kept file, as for WAV. A CSP violation or an exception
// in the page fails the test (harness.ts).
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { chatCsp } from '../../src/chat/core/hub/csp';
import { ArrivingSpeech } from '../../src/chat/core/hub/arrivingSpeech';
import type { MediaAudioMessage } from '../../src/chatProtocol/messages';
import { silentMp3 } from '../simulator/mp3';
import { chatBundle } from './chatBundle';
import { openChat, receive } from './chatPage';
import { launchChromium, servePage, type ServedPage } from './harness';
import { keptAudioServer, pauseAndExpectKeptFile, type KeptAudioServer } from './keptAudio';

// Long enough that it is still playing when the turn completes, however slow the machine.
const AUDIO = silentMp3(8);
const SETTINGS = { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
const PENDING = { id: 'm1', role: 'media', createdAt: 1, kind: 'speech', content: '/speak hello', prompt: 'hello', model: 'model-tts-1', state: 'pending' };
const init = { type: 'init', sessionId: 's1', title: 'Speech', settings: SETTINGS, turns: [PENDING], models: { models: ['model-k3'], loading: false } };

/** The host's messages for the audio in four pieces, as the gateway streams it. */
function audioMessages(): { pieces: MediaAudioMessage[][]; end: MediaAudioMessage[] } {
  const sent: MediaAudioMessage[] = [];
  const arriving = new ArrivingSpeech('m1', (m) => sent.push(m));
  const size = Math.ceil(AUDIO.length / 4);
  const pieces = [0, 1, 2, 3].map((i) => {
    sent.length = 0;
    arriving.audio(AUDIO.subarray(i * size, (i + 1) * size), 'audio/mpeg');
    return [...sent];
  });
  sent.length = 0;
  arriving.end();
  return { pieces, end: [...sent] };
}

const cardAudio = (page: Page) => page.evaluate(() => {
  const audio = document.querySelector('[data-turn-id="m1"] audio') as HTMLAudioElement | null;
  return audio && { src: audio.currentSrc, paused: audio.paused, count: document.querySelectorAll('[data-turn-id="m1"] audio').length };
});

describe('chat /speak in Chromium: the card plays the audio as it arrives', function () {
  this.timeout(30_000);
  let browser: Browser;
  let served: ServedPage;
  let files: KeptAudioServer;
  let page: Page;
  const complete = () => ({ type: 'turnUpdated', turn: { ...PENDING, state: 'complete', src: `${files.origin}/speech.mp3`, contentType: 'audio/mpeg' } });

  before(async () => {
    files = await keptAudioServer(AUDIO);
    const csp = chatCsp({ nonce: '{nonce}', cspSource: "'self'", mediaOrigins: [files.origin] });
    [browser, served] = await Promise.all([launchChromium(['--autoplay-policy=no-user-gesture-required']), servePage({ csp, body: '', script: chatBundle })]);
  });

  beforeEach(async () => {
    page = await browser.newPage();
    await page.goto(served.url);
    await openChat(page, init);
  });

  afterEach(async () => {
    await page.close();
  });

  after(async () => {
    await browser?.close();
    await served?.close();
    await files?.close();
  });

  it('plays the first pieces before the last is sent, then moves to the kept file where it was paused', async () => {
    const { pieces, end } = audioMessages();
    assert.equal(await cardAudio(page), null, 'nothing to play before the audio arrives');
    for (const message of pieces.slice(0, 3).flat()) await receive(page, message);
    await page.waitForFunction(() => ((document.querySelector('[data-turn-id="m1"] audio') as HTMLAudioElement | null)?.currentTime ?? 0) > 0.1);
    const before = await cardAudio(page);
    assert.match(before!.src, /^blob:/, 'played from the MediaSource');
    assert.equal(before!.paused, false);

    for (const message of [...pieces[3], ...end]) await receive(page, message);
    await page.waitForFunction(() => Math.abs((document.querySelector('[data-turn-id="m1"] audio') as HTMLAudioElement).duration - 8) < 0.1);
    await receive(page, complete());
    // Still playing, in the same element: the move to the file waits for a pause, so the sound is not cut.
    const after = await cardAudio(page);
    assert.match(after!.src, /^blob:/);
    assert.equal(after!.count, 1);
    assert.equal(await page.locator('[data-turn-id="m1"]').getByRole('button', { name: 'Save to workspace' }).count(), 1);
    await pauseAndExpectKeptFile(page, '[data-turn-id="m1"] audio', files);
  });

  it('a page that came in midway does not stream, and plays the kept file once it is there', async () => {
    const { pieces, end } = audioMessages();
    for (const message of [...pieces.slice(1).flat(), ...end]) await receive(page, message);
    assert.equal(await cardAudio(page), null);
    await receive(page, complete());
    await page.waitForFunction(() => ((document.querySelector('[data-turn-id="m1"] audio') as HTMLAudioElement | null)?.currentTime ?? 0) > 0.1);
    assert.equal((await cardAudio(page))!.src, `${files.origin}/speech.mp3`);
  });

  it('takes no audio for a finished turn, nor one the protocol refuses (WAV is never streamed)', async () => {
    const { pieces } = audioMessages();
    await receive(page, { ...pieces[0][0], contentType: 'audio/wav' });
    assert.equal(await cardAudio(page), null);
    await receive(page, complete());
    await page.locator('[data-turn-id="m1"] audio').waitFor();
    await receive(page, pieces[0][0]);
    assert.equal((await cardAudio(page))!.count, 1);
    assert.doesNotMatch((await cardAudio(page))!.src, /^blob:/);
  });
});
