import * as assert from 'node:assert/strict';
import { dialectOf, type DialectContext } from '../../../../src/videos/core/dialects';

const ctx: DialectContext = { baseUrl: 'https://openrouter.ai/api/v1', now: 1_800_000_000_000 };

describe('video dialects: openrouter', () => {
  const openrouter = dialectOf('openrouter');

  it('submits duration, resolution, aspect_ratio and the first frame as frame_images to /videos', () => {
    const request = openrouter.submit({ model: 'google/veo-3.1', prompt: 'a lighthouse', durationSeconds: 8, resolution: '720p', aspectRatio: '16:9', firstFrame: 'data:image/png;base64,AAAA' }, ctx);
    assert.equal(request.url, 'https://openrouter.ai/api/v1/videos');
    assert.deepEqual(JSON.parse(request.body!), {
      model: 'google/veo-3.1',
      prompt: 'a lighthouse',
      duration: 8,
      resolution: '720p',
      aspect_ratio: '16:9',
      frame_images: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' }, frame_type: 'first_frame' }],
    });
    assert.equal(JSON.parse(openrouter.submit({ model: 'm', prompt: 'p', resolution: '1280x720' }, ctx).body!).size, '1280x720');
  });

  it('reads the 202 answer and follows a polling_url, relative or absolute, only on its own origin', () => {
    const absolute = openrouter.readSubmitted({ id: 'job-1', polling_url: 'https://openrouter.ai/api/v1/videos/job-1', status: 'pending' }, ctx);
    assert.deepEqual(absolute, { id: 'job-1', status: 'pending', state: 'queued', results: [], pollUrl: 'https://openrouter.ai/api/v1/videos/job-1' });
    assert.equal(openrouter.poll('job-1', ctx, absolute.pollUrl).url, 'https://openrouter.ai/api/v1/videos/job-1');
    const relative = openrouter.readSubmitted({ id: 'job-1', polling_url: '/api/v1/videos/job-1?x=1', status: 'pending' }, ctx);
    assert.equal(relative.pollUrl, 'https://openrouter.ai/api/v1/videos/job-1?x=1');
    const elsewhere = openrouter.readSubmitted({ id: 'job-1', polling_url: 'https://evil.example.com/api/v1/videos/job-1', status: 'pending' }, ctx);
    assert.equal(elsewhere.pollUrl, undefined);
    assert.equal(openrouter.poll('job-1', ctx, 'https://evil.example.com/x').url, 'https://openrouter.ai/api/v1/videos/job-1');
  });

  it('maps pending, in_progress, completed and the terminal words; an unknown word stays unknown', () => {
    const states = ['pending', 'in_progress', 'completed', 'failed', 'cancelled', 'expired', 'dreaming'].map((status) => openrouter.readPolled({ id: 'j', status }, ctx).state);
    assert.deepEqual(states, ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'expired', 'unknown']);
  });

  it('keeps unsigned_urls (the key goes with them, so only on its own origin) and signed urls (no key), and the cost', () => {
    const job = openrouter.readPolled(
      {
        id: 'job-1',
        status: 'completed',
        unsigned_urls: ['https://openrouter.ai/api/v1/videos/job-1/content?index=0', 'https://other.example.com/api/v1/videos/job-1/content?index=1'],
        urls: ['https://storage.example.net/job-1.mp4?sig=abc'],
        usage: { cost: 0.5 },
      },
      ctx,
    );
    assert.deepEqual(job.results, [
      { url: 'https://openrouter.ai/api/v1/videos/job-1/content?index=0', needsKey: true, variant: 'video' },
      { url: 'https://storage.example.net/job-1.mp4?sig=abc', needsKey: false, variant: 'video' },
    ]);
    assert.deepEqual(job.cost, { usd: 0.5, source: 'reported' });
  });

  it('shows the error verbatim', () => {
    const job = openrouter.readPolled({ id: 'j', status: 'failed', error: 'Content policy violation: the prompt was refused.' }, ctx);
    assert.deepEqual(job.error, { message: 'Content policy violation: the prompt was refused.' });
  });
});

describe('video dialects: xai', () => {
  const xai = dialectOf('xai');
  const xctx: DialectContext = { baseUrl: 'https://api.x.ai/v1', now: 0 };

  it('submits a flat body with image.url to /videos/generations and reads {request_id} as a pending job', () => {
    const request = xai.submit({ model: 'grok-imagine-video', prompt: 'a lighthouse', durationSeconds: 6, aspectRatio: '16:9', resolution: '720p', firstFrame: 'https://img.example.com/f.jpg' }, xctx);
    assert.equal(request.url, 'https://api.x.ai/v1/videos/generations');
    assert.deepEqual(JSON.parse(request.body!), { model: 'grok-imagine-video', prompt: 'a lighthouse', duration: 6, aspect_ratio: '16:9', resolution: '720p', image: { url: 'https://img.example.com/f.jpg' } });
    assert.deepEqual(xai.readSubmitted({ request_id: 'req-9' }, xctx), { id: 'req-9', status: 'pending', state: 'queued', results: [] });
    assert.equal(xai.poll('req-9', xctx).url, 'https://api.x.ai/v1/videos/req-9');
  });

  it('reads progress, done with video.url (no key) and the cost in ticks', () => {
    assert.equal(xai.readPolled({ request_id: 'req-9', status: 'pending', progress: 50 }, xctx).progress, 50);
    const done = xai.readPolled({ request_id: 'req-9', status: 'done', progress: 100, video: { url: 'https://vidgen.x.ai/req-9.mp4', duration: 6 }, usage: { cost_in_usd_ticks: 2_500_000_000 } }, xctx);
    assert.equal(done.state, 'succeeded');
    assert.deepEqual(done.results, [{ url: 'https://vidgen.x.ai/req-9.mp4', needsKey: false, variant: 'video' }]);
    assert.deepEqual(done.cost, { usd: 0.25, source: 'reported' });
    assert.equal(xai.readPolled({ request_id: 'r', status: 'done', usage: { cost_in_usd_ticks: -3 } }, xctx).cost, undefined);
  });

  it('shows a failure with its code', () => {
    const failed = xai.readPolled({ request_id: 'r', status: 'failed', code: 'content_moderated', error: 'The video was moderated.' }, xctx);
    assert.deepEqual([failed.state, failed.error], ['failed', { message: 'The video was moderated.', code: 'content_moderated' }]);
  });
});
