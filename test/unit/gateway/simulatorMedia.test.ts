// generateImage and synthesizeSpeech against the gateway simulator: real PNGs and WAVs, and every error path (401,
// 403, 429, 5xx, an answer that is not an image, an empty or non-audio answer), with the simulator's request log as
// the witness that paid work is sent once.

import * as assert from 'node:assert/strict';
import { fetchResultBytes } from '../../../src/gateway/resultFetch';
import { startSimulator, type Simulator } from '../../simulator';
import { parsePng, parseWav } from '../../util/mediaFiles';
import { rejectionOf } from './helpers/rejection';
import { recordingSleep } from './helpers/server';
import { useClients } from './helpers/clients';

const IMAGE = { model: 'model-image-1.0', prompt: 'a paper boat on a rainy street' };
const SPEECH = { model: 'model-speech-1.0', input: 'Seven words are spoken here, one tone each.', voice: 'nova' };
const fault = (name: string) => ({ headers: { 'x-sim-fault': name } });

describe('gateway: images and speech against the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let recorder: ReturnType<typeof recordingSleep>;
  const posts = (path: string) => sim.log.filter((e) => e.method === 'POST' && e.path === path);

  const { makeClient } = useClients(() => ({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, sleep: recorder.sleep, random: () => 0 }));

  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearLog();
    sim.setDefaultFault(null);
    recorder = recordingSleep();
  });

  it('generates real PNGs of the size asked for, as base64', async () => {
    const result = await makeClient().generateImage({ ...IMAGE, n: 2, size: '256x256', response_format: 'b64_json' });
    assert.equal(result.images.length, 2);
    for (const image of result.images) {
      assert.ok(image.kind === 'data');
      assert.equal(image.contentType, 'image/png');
      assert.deepEqual(parsePng(image.data), { width: 256, height: 256, bitDepth: 8, colourType: 2 });
      assert.equal(image.revisedPrompt, IMAGE.prompt);
    }
    assert.notDeepEqual(result.images[0], result.images[1], 'each image of a request differs');
  });

  it('generates a signed link to a real PNG, served without the key', async () => {
    const result = await makeClient().generateImage({ ...IMAGE, size: '512x512', response_format: 'url' });
    const [image] = result.images;
    assert.ok(image.kind === 'url');
    assert.match(image.url, new RegExp(`^${sim.origin}/files/img_[0-9a-f]+\\.png\\?sig=[0-9a-f]+&expires=\\d+$`));
    const fetched = await fetchResultBytes(image.url, { maxBytes: 10 * 1024 * 1024 });
    assert.equal(fetched.contentType, 'image/png');
    assert.equal(parsePng(fetched.bytes).width, 512);
  });

  it('synthesizes real WAV audio, one tone per word', async () => {
    const audio = await makeClient().synthesizeSpeech({ ...SPEECH, response_format: 'wav' });
    assert.equal(audio.contentType, 'audio/wav');
    const wav = parseWav(audio.audio);
    assert.deepEqual([wav.format, wav.channels, wav.sampleRate, wav.bitsPerSample], [1, 1, 16_000, 16]);
    assert.ok(Math.abs(wav.seconds - 8 * 0.22) < 0.01, `${wav.seconds} s for 8 words`);
    assert.deepEqual(posts('/v1/audio/speech')[0].body, { ...SPEECH, response_format: 'wav' });
  });

  it('401: an unknown key', async () => {
    const error = await rejectionOf(makeClient({ apiKey: 'sk-wrong' }).generateImage(IMAGE));
    assert.equal(error.status, 401);
    assert.equal(error.kind, 'auth');
    const speech = await rejectionOf(makeClient({ apiKey: 'sk-wrong' }).synthesizeSpeech(SPEECH));
    assert.equal(speech.status, 401);
  });

  it('403: a disabled key, and a key without access to the model', async () => {
    const disabled = await rejectionOf(makeClient({ apiKey: sim.keys.disabled }).synthesizeSpeech(SPEECH));
    assert.equal(disabled.status, 403);
    assert.equal(disabled.kind, 'forbidden');
    const restricted = await rejectionOf(makeClient({ apiKey: sim.keys.restricted }).generateImage(IMAGE));
    assert.equal(restricted.status, 403);
    assert.equal(restricted.code, 'model_access_denied');
    assert.match(restricted.message, /no access to model model-image-1\.0/);
  });

  it('429: reported with the wait, never retried (the work may be paid for)', async () => {
    sim.force429(3, 2);
    const image = await rejectionOf(makeClient().generateImage(IMAGE));
    const speech = await rejectionOf(makeClient().synthesizeSpeech(SPEECH));
    for (const error of [image, speech]) {
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterMs, 3000);
    }
    assert.equal(sim.log.length, 2);
    assert.deepEqual(recorder.waits, []);
  });

  for (const name of ['http-500', 'http-502', 'http-503', 'html-error']) {
    it(`5xx (${name}): one request, the gateway's message`, async () => {
      const image = await rejectionOf(makeClient().generateImage(IMAGE, fault(name)));
      const speech = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, fault(name)));
      for (const error of [image, speech]) {
        assert.ok(error.status >= 500, `${error.status}`);
        assert.equal(error.kind, 'server');
        assert.equal(error.outcomeUnknown, false);
      }
      assert.equal(posts('/v1/images/generations').length, 1);
      assert.equal(posts('/v1/audio/speech').length, 1);
    });
  }

  it('an answer that is not an image: base64 of an HTML page', async () => {
    const error = await rejectionOf(makeClient().generateImage({ ...IMAGE, prompt: '[not-image] a cat', response_format: 'b64_json' }));
    assert.equal(error.code, 'bad_response');
    assert.match(error.message, /not a PNG, JPEG, WebP or GIF image: it is an HTML page/);
  });

  it('an answer that is not an image: a link whose body is an HTML page labelled image/png', async () => {
    const result = await makeClient().generateImage({ ...IMAGE, prompt: '[not-image] a cat', response_format: 'url' });
    const [image] = result.images;
    assert.ok(image.kind === 'url', 'the client checks links, it does not fetch them');
    const fetched = await fetchResultBytes(image.url, { maxBytes: 1024 * 1024 });
    assert.equal(fetched.contentType, 'image/png');
    assert.match(fetched.bytes.toString('utf8'), /^<!DOCTYPE html>/, 'the media core must sniff it (see mediaGeneration tests)');
  });

  it('broken image answers: cut off, malformed, empty, an error object', async () => {
    const drop = await rejectionOf(makeClient().generateImage(IMAGE, fault('drop-mid-stream')));
    assert.equal(drop.outcomeUnknown, true, 'the images were made; the answer was lost');
    assert.equal(drop.code, 'network');
    assert.equal((await rejectionOf(makeClient().generateImage(IMAGE, fault('malformed-json')))).code, 'bad_response');
    assert.equal((await rejectionOf(makeClient().generateImage(IMAGE, fault('empty-body')))).code, 'bad_response');
    const inBody = await rejectionOf(makeClient().generateImage(IMAGE, fault('error-chunk')));
    assert.equal(inBody.code, 'server_error');
    assert.equal(posts('/v1/images/generations').length, 4, 'each sent once');
  });

  it('an empty audio response', async () => {
    const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, fault('empty-body')));
    assert.equal(error.code, 'bad_response');
    assert.equal(error.message, 'The gateway sent no audio (an empty answer).');
    assert.equal(error.outcomeUnknown, true);
  });

  it('an answer that is not audio, and an error object with a 200', async () => {
    const html = await rejectionOf(makeClient().synthesizeSpeech({ ...SPEECH, input: '[not-audio] hello' }));
    assert.match(html.message, /not audio of a known kind .* it is an HTML page .*\(it said audio\/mpeg\)/);
    const inBody = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, fault('error-chunk')));
    assert.equal(inBody.code, 'server_error');
    assert.equal(inBody.fromServer, true);
  });

  it('audio cut off mid-way is an error, not a short clip', async () => {
    const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, fault('drop-mid-stream')));
    assert.equal(error.code, 'network');
    assert.equal(error.outcomeUnknown, true);
  });

  it('400s name the problem: a chat model, a size, a voice, too much text', async () => {
    const chat = await rejectionOf(makeClient().generateImage({ ...IMAGE, model: 'model-k3' }));
    assert.equal(chat.status, 400);
    assert.match(chat.message, /model-k3 cannot generate images; use model-image-1\.0/);
    assert.match((await rejectionOf(makeClient().generateImage({ ...IMAGE, size: '100x100' }))).message, /'size' must be one of/);
    assert.match((await rejectionOf(makeClient().synthesizeSpeech({ ...SPEECH, voice: 'robot' }))).message, /'voice' must be one of/);
    assert.match((await rejectionOf(makeClient().synthesizeSpeech({ ...SPEECH, input: 'x'.repeat(4097) }))).message, /limit is 4096/);
    const speechForChat = await rejectionOf(makeClient().chat({ model: 'model-speech-1.0', messages: [{ role: 'user', content: 'hi' }] }));
    assert.match(speechForChat.message, /is a speech model; use POST \/v1\/audio\/speech/);
  });
});
