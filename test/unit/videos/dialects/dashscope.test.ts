import * as assert from 'node:assert/strict';
import { dialectOf, resolveDialect, storedDialect, type DialectContext } from '../../../../src/videos/core/dialects';

const ctx: DialectContext = { baseUrl: 'https://dashscope-intl.aliyuncs.com/api/v1', now: 1_800_000_000_000 };

describe('video dialects: dashscope', () => {
  const dashscope = dialectOf('dashscope');

  it('submits with X-DashScope-Async: enable, input.img_url and DashScope resolution or size', () => {
    const request = dashscope.submit({ model: 'wan2.5-i2v-preview', prompt: 'a lighthouse', durationSeconds: 5, resolution: '720p', firstFrame: 'https://img.example.com/f.png' }, ctx);
    assert.equal(request.url, 'https://dashscope-intl.aliyuncs.com/api/v1/services/aigc/video-generation/video-synthesis');
    assert.equal(request.headers['x-dashscope-async'], 'enable');
    assert.deepEqual(JSON.parse(request.body!), { model: 'wan2.5-i2v-preview', input: { prompt: 'a lighthouse', img_url: 'https://img.example.com/f.png' }, parameters: { resolution: '720P', duration: 5 } });
    assert.deepEqual(JSON.parse(dashscope.submit({ model: 'm', prompt: 'p', resolution: '1280x720' }, ctx).body!).parameters, { size: '1280*720' });
  });

  it('reads output.task_id and polls /tasks/{task_id}', () => {
    const job = dashscope.readSubmitted({ request_id: 'r-1', output: { task_id: 'task-7', task_status: 'PENDING' } }, ctx);
    assert.deepEqual(job, { id: 'task-7', status: 'PENDING', state: 'queued', results: [] });
    assert.equal(dashscope.poll('task-7', ctx).url, 'https://dashscope-intl.aliyuncs.com/api/v1/tasks/task-7');
  });

  it('maps the task words; UNKNOWN is neither done nor failed', () => {
    const states = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'UNKNOWN'].map((task_status) => dashscope.readPolled({ output: { task_id: 't', task_status } }, ctx).state);
    assert.deepEqual(states, ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'unknown']);
  });

  it('finds output.video_url, signed (no key), expiring 24 h on; no cost of its own', () => {
    const job = dashscope.readPolled({ request_id: 'r', output: { task_id: 't', task_status: 'SUCCEEDED', video_url: 'https://dashscope-result.oss.aliyuncs.com/t.mp4?Expires=1&Signature=x' }, usage: { video_duration: 5 } }, ctx);
    assert.deepEqual(job.results, [{ url: 'https://dashscope-result.oss.aliyuncs.com/t.mp4?Expires=1&Signature=x', needsKey: false, variant: 'video' }]);
    assert.equal(job.expiresAt, ctx.now + 24 * 3600 * 1000);
    assert.equal(job.cost, undefined);
  });

  it('reads output.code and output.message inside a 200', () => {
    const job = dashscope.readPolled({ output: { task_id: 't', task_status: 'FAILED', code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' } }, ctx);
    assert.deepEqual(job.error, { message: 'Input data may contain inappropriate content.', code: 'DataInspectionFailed' });
  });
});

describe('video dialects: choosing one', () => {
  it('takes the setting when it names a dialect', () => {
    assert.equal(resolveDialect('xai', 'https://gw.example.com/v1').dialect, 'xai');
  });

  it('decides auto from the host alone, else spec', () => {
    const cases: Array<[string, string]> = [
      ['https://openrouter.ai/api/v1', 'openrouter'],
      ['https://api.x.ai/v1', 'xai'],
      ['https://dashscope.aliyuncs.com/api/v1', 'dashscope'],
      ['https://dashscope-intl.aliyuncs.com/api/v1', 'dashscope'],
      ['https://dashscope.evil.aliyuncs.com.example.com/api/v1', 'spec'],
      ['https://openrouter.ai.example.com/v1', 'spec'],
      ['http://127.0.0.1:8787/v1', 'spec'],
      ['not a url', 'spec'],
    ];
    for (const [url, dialect] of cases) assert.equal(resolveDialect('auto', url).dialect, dialect, url);
    assert.equal(resolveDialect(undefined, 'https://api.x.ai/v1').dialect, 'xai');
  });

  it('reads a job record without a dialect (an earlier version wrote it) as spec', () => {
    assert.equal(storedDialect(undefined), 'spec');
    assert.equal(storedDialect('auto'), 'spec');
    assert.equal(storedDialect('klingon'), 'spec');
    assert.equal(storedDialect('openrouter'), 'openrouter');
  });
});
