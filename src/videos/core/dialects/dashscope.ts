// Alibaba DashScope's task API (base …/api/v1): POST /services/aigc/video-generation/video-synthesis with
// `X-DashScope-Async: enable` answers {request_id, output:{task_id, task_status}}; GET /tasks/{task_id} until
// SUCCEEDED with `output.video_url`, a signed link (no key) that expires 24 h after the job finished. Errors come
// as `output.code` and `output.message` inside a 200. Pure.
import { DASHSCOPE_LINK_LIFETIME_MS, errorOf, jobId, jsonPost, linkOf, sizeOf, stateLookup, statusWord, underBase } from './fields';
import { DialectError, type DialectContext, type JobView, type VideoAsk, type VideoDialect } from './types';
import { isRecord } from '../../../util/records';

/** UNKNOWN (an unknown or expired task id, sent with HTTP 200) is deliberately left out: neither done nor failed. */
const stateOf = stateLookup({ pending: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed', canceled: 'cancelled', cancelled: 'cancelled' });

function read(body: unknown, ctx: DialectContext): JobView {
  if (!isRecord(body) || !isRecord(body.output)) throw new DialectError('The task from the gateway has no output object.');
  const output = body.output;
  const status = statusWord(output.task_status);
  const state = stateOf(status);
  const url = state === 'succeeded' ? linkOf(output.video_url, ctx, false) : undefined;
  const error = errorOf(output.message, output.code) ?? (state === 'failed' ? errorOf(body.message, body.code) : undefined);
  return {
    id: jobId(output.task_id, 'output.task_id'),
    status,
    state,
    results: url ? [{ url, needsKey: false, variant: 'video' }] : [],
    ...(url && { expiresAt: ctx.now + DASHSCOPE_LINK_LIFETIME_MS }),
    ...(error && { error }),
  };
}

/** `720p` → `720P`; a size `1280x720` → `1280*720`, as DashScope writes them. */
function sizing(resolution: string | undefined): Record<string, string> {
  if (resolution === undefined) return {};
  const size = sizeOf(resolution);
  return size ? { size: `${size.width}*${size.height}` } : { resolution: resolution.toUpperCase() };
}

export const dashscopeDialect: VideoDialect = {
  name: 'dashscope',
  submit(ask: VideoAsk, ctx) {
    const parameters = { ...sizing(ask.resolution), ...(ask.durationSeconds !== undefined && { duration: ask.durationSeconds }) };
    const input = { prompt: ask.prompt, ...(ask.firstFrame !== undefined && { img_url: ask.firstFrame }) };
    return jsonPost(
      underBase(ctx, '/services/aigc/video-generation/video-synthesis'),
      { model: ask.model, input, ...(Object.keys(parameters).length > 0 && { parameters }) },
      { 'x-dashscope-async': 'enable' },
    );
  },
  readSubmitted: read,
  poll: (id, ctx) => ({ method: 'GET', url: underBase(ctx, `/tasks/${encodeURIComponent(jobId(id, 'output.task_id'))}`), headers: {} }),
  readPolled: read,
};

