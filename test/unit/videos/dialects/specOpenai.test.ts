import * as assert from 'node:assert/strict';
import { dialectOf, DialectError, type DialectContext } from '../../../../src/videos/core/dialects';

const ctx: DialectContext = { baseUrl: 'https://gw.example.com/v1/', now: 1_800_000_000_000 };
const ask = { model: 'm-video', prompt: 'a lighthouse', durationSeconds: 8, resolution: '1280x720' };

describe('video dialects: spec', () => {
  const spec = dialectOf('spec');

  it('submits {model, input:{prompt}, parameters} to /videos/generations', () => {
    const request = spec.submit({ ...ask, resolution: '720p' }, ctx);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, 'https://gw.example.com/v1/videos/generations');
    assert.deepEqual(JSON.parse(request.body!), { model: 'm-video', input: { prompt: 'a lighthouse' }, parameters: { resolution: '720p', duration: 8 } });
  });

  it('reads the job, its status and data[].url; polls /videos/generations/{id}', () => {
    const queued = spec.readSubmitted({ id: 'vid_1', object: 'video.generation.job', status: 'queued' }, ctx);
    assert.deepEqual(queued, { id: 'vid_1', status: 'queued', state: 'queued', results: [] });
    assert.equal(spec.poll('vid_1', ctx).url, 'https://gw.example.com/v1/videos/generations/vid_1');
    const done = spec.readPolled({ id: 'vid_1', status: 'completed', data: [{ url: 'https://cdn.example.net/v.mp4' }] }, ctx);
    assert.equal(done.state, 'succeeded');
    assert.deepEqual(done.results, [{ url: 'https://cdn.example.net/v.mp4', needsKey: false, variant: 'video' }]);
  });

  it('leaves a word it does not know as unknown: neither done nor failed', () => {
    assert.equal(spec.readPolled({ id: 'vid_1', status: 'rendering' }, ctx).state, 'unknown');
  });

  it('refuses an answer without a usable id', () => {
    assert.throws(() => spec.readSubmitted({ status: 'queued' }, ctx), DialectError);
    assert.throws(() => spec.readSubmitted({ id: '..', status: 'queued' }, ctx), DialectError);
    assert.throws(() => spec.readSubmitted({ id: 'x'.repeat(300), status: 'queued' }, ctx), DialectError);
    assert.throws(() => spec.readSubmitted('nope', ctx), DialectError);
  });

  it('drops result links that are not http(s)', () => {
    const job = spec.readPolled({ id: 'v', status: 'completed', data: [{ url: 'javascript:alert(1)' }, { url: 'file:///etc/passwd' }] }, ctx);
    assert.deepEqual(job.results, []);
  });
});

describe('video dialects: openai', () => {
  const openai = dialectOf('openai');

  it('submits {model, prompt, seconds as a string, size} to /videos', () => {
    const request = openai.submit({ ...ask, firstFrame: 'https://img.example.com/f.png' }, ctx);
    assert.equal(request.url, 'https://gw.example.com/v1/videos');
    assert.deepEqual(JSON.parse(request.body!), { model: 'm-video', prompt: 'a lighthouse', seconds: '8', size: '1280x720', input_reference: 'https://img.example.com/f.png' });
  });

  it('reads a Video object with its progress; polls /videos/{id}', () => {
    const job = openai.readPolled({ id: 'video_123', object: 'video', status: 'in_progress', progress: 42, created_at: 1_790_000_000, model: 'sora-2', seconds: '8', size: '1280x720', error: null }, ctx);
    assert.deepEqual(job, { id: 'video_123', status: 'in_progress', state: 'running', results: [], progress: 42 });
    assert.equal(openai.poll('video_123', ctx).url, 'https://gw.example.com/v1/videos/video_123');
    assert.equal(openai.readPolled({ id: 'v', status: 'processing' }, ctx).state, 'running');
    assert.equal(openai.readPolled({ id: 'v', status: 'queued' }, ctx).state, 'queued');
  });

  it('finds the finished result at the content endpoint, which needs the key, and reads expires_at in seconds or milliseconds', () => {
    const job = openai.readPolled({ id: 'video_123', status: 'completed', progress: 100, completed_at: 1_790_000_100, expires_at: 1_790_086_500 }, ctx);
    assert.equal(job.state, 'succeeded');
    assert.deepEqual(job.results, [
      { url: 'https://gw.example.com/v1/videos/video_123/content?variant=video', needsKey: true, variant: 'video' },
      { url: 'https://gw.example.com/v1/videos/video_123/content?variant=thumbnail', needsKey: true, variant: 'thumbnail' },
    ]);
    assert.equal(job.expiresAt, 1_790_086_500_000);
    assert.equal(openai.readPolled({ id: 'v', status: 'completed', expires_at: 1_790_086_500_000 }, ctx).expiresAt, 1_790_086_500_000);
    assert.equal(openai.readPolled({ id: 'v', status: 'completed', expires_at: -5 }, ctx).expiresAt, undefined);
    assert.equal(openai.readPolled({ id: 'v', status: 'completed', expires_at: 'soon' }, ctx).expiresAt, undefined);
  });

  it('keeps a direct link the gateway adds as a signed one, fetched without the key', () => {
    const job = openai.readPolled({ id: 'v', status: 'completed', url: 'https://cdn.example.net/v.mp4' }, ctx);
    assert.deepEqual(job.results[1], { url: 'https://cdn.example.net/v.mp4', needsKey: false, variant: 'video' });
  });

  it("shows a failure in the gateway's words, bounded", () => {
    const job = openai.readPolled({ id: 'v', status: 'failed', error: { code: 'moderation_blocked', message: 'Your request was blocked.' } }, ctx);
    assert.equal(job.state, 'failed');
    assert.deepEqual(job.error, { message: 'Your request was blocked.', code: 'moderation_blocked' });
    const long = openai.readPolled({ id: 'v', status: 'failed', error: { message: 'x'.repeat(10_000) } }, ctx);
    assert.ok(long.error!.message.length <= 2_000);
  });

  it('reads progress only from 0 to 100 and a cost only as a plausible number', () => {
    assert.equal(openai.readPolled({ id: 'v', status: 'in_progress', progress: 140 }, ctx).progress, undefined);
    assert.equal(openai.readPolled({ id: 'v', status: 'in_progress', progress: '50' }, ctx).progress, undefined);
    assert.deepEqual(openai.readPolled({ id: 'v', status: 'completed', usage: { cost: 0.8 } }, ctx).cost, { usd: 0.8, source: 'reported' });
    assert.equal(openai.readPolled({ id: 'v', status: 'completed', usage: { cost: -1 } }, ctx).cost, undefined);
    assert.equal(openai.readPolled({ id: 'v', status: 'completed', usage: { cost: 'lots' } }, ctx).cost, undefined);
  });
});
