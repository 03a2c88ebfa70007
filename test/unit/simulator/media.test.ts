// The simulator's image and speech endpoints over plain HTTP: real PNG and WAV bytes, signed image links on the
// injected clock, validation, keys, rate limits and faults, as the README beside the simulator says.
import * as assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator';
import { parsePng, parseWav } from '../../util/mediaFiles';
import { call, callJson, ManualClock } from './helpers';

const IMAGE = { model: 'model-image-1.0', prompt: 'a lighthouse [reasoning]' };
const SPEECH = { model: 'model-speech-1.0', input: 'One two three.', voice: 'alloy' };

describe('simulator: images and speech', () => {
  let sim: Simulator;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock();
    sim = await startSimulator({ now: clock.now });
  });
  afterEach(() => sim.close());

  it('draws a PNG per image, the same for the same prompt, and strips keywords from revised_prompt', async () => {
    const body = { ...IMAGE, n: 2, size: '256x256', response_format: 'b64_json' };
    const { status, json } = await callJson(sim, '/v1/images/generations', { body });
    assert.equal(status, 200);
    assert.equal(json.created, Math.floor(clock.ms / 1000));
    assert.equal(json.data.length, 2);
    assert.equal(json.data[0].revised_prompt, 'a lighthouse');
    const png = Buffer.from(json.data[0].b64_json, 'base64');
    assert.deepEqual(parsePng(png), { width: 256, height: 256, bitDepth: 8, colourType: 2 });
    const again = await callJson(sim, '/v1/images/generations', { body });
    assert.equal(again.json.data[1].b64_json, json.data[1].b64_json);
    assert.notEqual(json.data[0].b64_json, json.data[1].b64_json);
  });

  it('serves linked images under a signature that expires after an hour, GET and HEAD, without a key', async () => {
    const { json } = await callJson(sim, '/v1/images/generations', { body: { ...IMAGE, size: '256x256' } });
    const url = new URL(json.data[0].url);
    assert.match(url.pathname, /^\/files\/img_[0-9a-f]+\.png$/);
    const get = await call(sim, `${url.pathname}${url.search}`, { key: null });
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'image/png');
    assert.equal(parsePng(new Uint8Array(await get.arrayBuffer())).width, 256);
    const head = await call(sim, `${url.pathname}${url.search}`, { key: null, method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(Number(head.headers.get('content-length')) > 0, true);

    const tampered = `${url.pathname}?sig=${'0'.repeat(32)}&expires=${url.searchParams.get('expires')}`;
    assert.equal((await callJson(sim, tampered, { key: null })).status, 403);
    assert.equal((await callJson(sim, `/files/img_${'f'.repeat(24)}.png${url.search}`, { key: null })).status, 404);
    clock.advance(3601_000);
    const expired = await callJson(sim, `${url.pathname}${url.search}`, { key: null });
    assert.equal(expired.status, 403);
    assert.equal(expired.json.error.message, 'The file URL has expired');
  });

  it('speaks WAV audio: one tone per word, a pitch per voice, the same for the same request', async () => {
    const first = await call(sim, '/v1/audio/speech', { body: SPEECH });
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-type'), 'audio/wav');
    const wav = new Uint8Array(await first.arrayBuffer());
    assert.ok(Math.abs(parseWav(wav).seconds - 3 * 0.22) < 0.01);
    const again = new Uint8Array(await (await call(sim, '/v1/audio/speech', { body: SPEECH })).arrayBuffer());
    assert.deepEqual(again, wav);
    const nova = new Uint8Array(await (await call(sim, '/v1/audio/speech', { body: { ...SPEECH, voice: 'nova' } })).arrayBuffer());
    assert.notDeepEqual(nova, wav);
  });

  it('keeps long speech under a minute by speaking faster', async () => {
    const input = Array.from({ length: 800 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');
    const response = await call(sim, '/v1/audio/speech', { body: { ...SPEECH, input } });
    assert.ok(parseWav(new Uint8Array(await response.arrayBuffer())).seconds <= 60.01);
  });

  const invalid: Array<[string, string, Record<string, unknown>, number, RegExp]> = [
    ['an unknown model', '/v1/images/generations', { ...IMAGE, model: 'nope' }, 404, /does not exist/],
    ['a chat model for images', '/v1/images/generations', { ...IMAGE, model: 'model-5.2' }, 400, /cannot generate images/],
    ['too many images', '/v1/images/generations', { ...IMAGE, n: 5 }, 400, /from 1 to 4/],
    ['a fractional n', '/v1/images/generations', { ...IMAGE, n: 1.5 }, 400, /'n'/],
    ['an odd size', '/v1/images/generations', { ...IMAGE, size: '300x300' }, 400, /'size' must be one of/],
    ['an odd response_format', '/v1/images/generations', { ...IMAGE, response_format: 'png' }, 400, /'response_format'/],
    ['no prompt', '/v1/images/generations', { model: 'model-image-1.0' }, 400, /'prompt'/],
    ['the video model for speech', '/v1/audio/speech', { ...SPEECH, model: 'model-1.0-video-edit' }, 400, /cannot synthesize speech/],
    ['no voice', '/v1/audio/speech', { model: 'model-speech-1.0', input: 'x' }, 400, /'voice'/],
    ['an odd format', '/v1/audio/speech', { ...SPEECH, response_format: 'exe' }, 400, /'response_format'/],
    ['empty input', '/v1/audio/speech', { ...SPEECH, input: ' ' }, 400, /'input'/],
  ];
  for (const [name, path, body, status, message] of invalid) {
    it(`refuses ${name} with ${status}`, async () => {
      const response = await callJson(sim, path, { body });
      assert.equal(response.status, status);
      assert.match(response.json.error.message, message);
    });
  }

  it('applies keys, model access and rate limits as on every endpoint', async () => {
    assert.equal((await callJson(sim, '/v1/images/generations', { body: IMAGE, key: null })).status, 401);
    assert.equal((await callJson(sim, '/v1/audio/speech', { body: SPEECH, key: sim.keys.disabled })).status, 403);
    const restricted = await callJson(sim, '/v1/audio/speech', { body: SPEECH, key: sim.keys.restricted });
    assert.equal(restricted.json.error.code, 'model_access_denied');
    sim.setRateLimit({ requests: 1, windowMs: 10_000 });
    assert.equal((await call(sim, '/v1/audio/speech', { body: SPEECH })).status, 200);
    const limited = await callJson(sim, '/v1/images/generations', { body: IMAGE });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '10');
  });

  it('takes faults from the prompt or the input, as chat and video do', async () => {
    const image = await callJson(sim, '/v1/images/generations', { body: { ...IMAGE, prompt: 'x [fault:http-503]' } });
    assert.equal(image.status, 503);
    const speech = await call(sim, '/v1/audio/speech', { body: { ...SPEECH, input: 'x [fault:empty-body]' } });
    assert.equal(speech.status, 200);
    assert.equal((await speech.arrayBuffer()).byteLength, 0);
    assert.deepEqual(sim.log.map((e) => e.fault), ['http-503', 'empty-body']);
  });

  it('[not-image] and [not-audio] answer HTML where the media should be', async () => {
    const { json } = await callJson(sim, '/v1/images/generations', { body: { ...IMAGE, prompt: '[not-image] x', response_format: 'b64_json' } });
    assert.match(Buffer.from(json.data[0].b64_json, 'base64').toString('utf8'), /^<!DOCTYPE html>/);
    const audio = await call(sim, '/v1/audio/speech', { body: { ...SPEECH, input: '[not-audio] x' } });
    assert.equal(audio.headers.get('content-type'), 'audio/mpeg');
    assert.match(await audio.text(), /^<!DOCTYPE html>/);
  });
});
