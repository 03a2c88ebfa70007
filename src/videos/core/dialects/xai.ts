// xAI's Grok Imagine video API: POST /videos/generations with a flat JSON body answers {request_id}; GET
// /videos/{request_id} until `done` with `video.url` (a signed link, no key) and `usage.cost_in_usd_ticks`. Pure.
import { at, errorOf, finiteNumber, jobId, jsonPost, linkOf, percent, stateLookup, statusWord, underBase } from './fields';
import { DialectError, type DialectContext, type JobView, type VideoAsk, type VideoDialect } from './types';
import { isRecord } from '../../../util/records';

const TICKS_PER_USD = 1e10;
const MAX_COST_TICKS = 1e15;

const stateOf = stateLookup({ pending: 'queued', queued: 'queued', in_progress: 'running', done: 'succeeded', failed: 'failed', expired: 'expired' });

function read(body: unknown, ctx: DialectContext, submitted: boolean): JobView {
  if (!isRecord(body)) throw new DialectError('The video job from the gateway is not a JSON object.');
  const id = jobId(body.request_id, 'request_id');
  // The submission's answer is only {request_id}: the job is queued.
  const status = statusWord(body.status) || (submitted ? 'pending' : '');
  const state = stateOf(status);
  const url = state === 'succeeded' ? linkOf(at(body, 'video', 'url'), ctx, false) : undefined;
  const progress = percent(body.progress);
  const error = state === 'failed' || body.error != null ? errorOf(body.error, body.code) : undefined;
  const ticks = finiteNumber(at(body, 'usage', 'cost_in_usd_ticks'));
  const cost = ticks !== undefined && ticks >= 0 && ticks <= MAX_COST_TICKS ? ticks / TICKS_PER_USD : undefined;
  return {
    id,
    status,
    state,
    results: url ? [{ url, needsKey: false, variant: 'video' }] : [],
    ...(progress !== undefined && { progress }),
    ...(error && { error }),
    ...(cost !== undefined && { cost: { usd: cost, source: 'reported' as const } }),
  };
}

export const xaiDialect: VideoDialect = {
  name: 'xai',
  reportsCost: true,
  submit(ask: VideoAsk, ctx) {
    return jsonPost(underBase(ctx, '/videos/generations'), {
      model: ask.model,
      prompt: ask.prompt,
      ...(ask.durationSeconds !== undefined && { duration: ask.durationSeconds }),
      ...(ask.aspectRatio !== undefined && { aspect_ratio: ask.aspectRatio }),
      ...(ask.resolution !== undefined && { resolution: ask.resolution }),
      ...(ask.firstFrame !== undefined && { image: { url: ask.firstFrame } }),
    });
  },
  readSubmitted: (body: unknown, ctx: DialectContext) => read(body, ctx, true),
  poll: (id, ctx) => ({ method: 'GET', url: underBase(ctx, `/videos/${encodeURIComponent(jobId(id, 'request_id'))}`), headers: {} }),
  readPolled: (body: unknown, ctx: DialectContext) => read(body, ctx, false),
};
