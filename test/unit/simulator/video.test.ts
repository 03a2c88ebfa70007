import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator';
import { callJson, ManualClock } from './helpers';

const SAMPLE = readFileSync(join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'video', 'sample.mp4'));
const VIDEO_MODEL = 'model-1.0-video-edit';

describe('simulator: video generation', () => {
  let sim: Simulator;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock();
    sim = await startSimulator({ now: clock.now, video: { queuedMs: 1000, inProgressMs: 4000 } });
  });
  afterEach(async () => {
    await sim.close();
  });

  async function submit(prompt: string) {
    const { status, json } = await callJson(sim, '/v1/videos/generations', {
      body: { model: VIDEO_MODEL, input: { prompt }, parameters: { resolution: '720p', duration: 5 } },
    });
    assert.equal(status, 200, JSON.stringify(json));
    return json;
  }

  const poll = async (id: string) => (await callJson(sim, `/v1/videos/generations/${id}`)).json;

  it('moves a job from queued through in_progress to completed on the injected clock', async () => {
    const job = await submit('a cat surfing');
    assert.match(job.id, /^vid_/);
    assert.equal(job.object, 'video.generation.job');
    assert.equal(job.status, 'queued');
    assert.equal(job.model, VIDEO_MODEL);
    assert.equal(job.created, Math.floor(clock.ms / 1000));

    assert.equal((await poll(job.id)).status, 'queued');
    clock.advance(1000);
    const started = await poll(job.id);
    assert.equal(started.status, 'in_progress');
    assert.equal(started.data, undefined);
    clock.advance(2000);
    assert.equal((await poll(job.id)).progress, 50);
    clock.advance(2000);
    const done = await poll(job.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.data.length, 1);
    assert.ok(done.data[0].url.startsWith(`${sim.origin}/files/${job.id}.mp4?sig=`));
    assert.equal((await poll(job.id)).data[0].url, done.data[0].url, 'the URL is stable across polls');
  });

  it('serves the result without a key as video/mp4, whole and by range', async () => {
    const job = await submit('a dog');
    clock.advance(5000);
    const url: string = (await poll(job.id)).data[0].url;

    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/mp4');
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.ok(Buffer.from(await whole.arrayBuffer()).equals(SAMPLE));

    const part = await fetch(url, { headers: { range: 'bytes=4-11' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 4-11/${SAMPLE.length}`);
    const bytes = Buffer.from(await part.arrayBuffer());
    assert.equal(bytes.toString('latin1'), 'ftypisom');

    const tail = await fetch(url, { headers: { range: 'bytes=-10' } });
    assert.equal(tail.status, 206);
    assert.ok(Buffer.from(await tail.arrayBuffer()).equals(SAMPLE.subarray(SAMPLE.length - 10)));

    const open = await fetch(url, { headers: { range: `bytes=${SAMPLE.length - 3}-` } });
    assert.equal(open.headers.get('content-range'), `bytes ${SAMPLE.length - 3}-${SAMPLE.length - 1}/${SAMPLE.length}`);
    await open.arrayBuffer();

    const beyond = await fetch(url, { headers: { range: `bytes=${SAMPLE.length}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${SAMPLE.length}`);
    await beyond.arrayBuffer();

    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(SAMPLE.length));
  });

  it('refuses file URLs with a wrong or missing signature, or after they expire', async () => {
    const job = await submit('a bird');
    clock.advance(5000);
    const url = new URL((await poll(job.id)).data[0].url);
    const tampered = new URL(url);
    tampered.searchParams.set('sig', '0'.repeat(32));
    assert.equal((await fetch(tampered)).status, 403);
    assert.equal((await fetch(`${url.origin}${url.pathname}`)).status, 403);
    assert.equal((await fetch(`${sim.origin}/files/vid_unknown.mp4${url.search}`)).status, 404);
    clock.advance(3601_000);
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.match((await expired.json()).error.message, /expired/);
  });

  it('fails a job whose prompt says [fail]', async () => {
    const job = await submit('please [fail] now');
    clock.advance(5000);
    const failed = await poll(job.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.data, undefined);
    assert.equal(failed.error.code, 'generation_failed');
    assert.equal(typeof failed.error.message, 'string');
  });

  it('answers an unknown job id with 404 not_found', async () => {
    const { status, json } = await callJson(sim, '/v1/videos/generations/vid_nope');
    assert.equal(status, 404);
    assert.equal(json.error.code, 'not_found');
  });

  const bad: Array<[string, unknown, number, string]> = [
    ['no input', { model: VIDEO_MODEL }, 400, 'invalid_request'],
    ['an empty prompt', { model: VIDEO_MODEL, input: { prompt: '  ' } }, 400, 'invalid_request'],
    ['a non-string prompt', { model: VIDEO_MODEL, input: { prompt: 3 } }, 400, 'invalid_request'],
    ['a chat model', { model: 'model-k3', input: { prompt: 'x' } }, 400, 'invalid_request'],
    ['an unknown model', { model: 'model-x', input: { prompt: 'x' } }, 404, 'model_not_found'],
    ['a bad duration', { model: VIDEO_MODEL, input: { prompt: 'x' }, parameters: { duration: -1 } }, 400, 'invalid_request'],
  ];
  for (const [name, body, status, code] of bad) {
    it(`rejects a submission with ${name}`, async () => {
      const response = await callJson(sim, '/v1/videos/generations', { body });
      assert.equal(response.status, status);
      assert.equal(response.json.error.code, code);
    });
  }
});
