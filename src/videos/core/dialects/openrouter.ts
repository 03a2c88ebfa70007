// OpenRouter's video API: POST /videos answers 202 {id, polling_url, status:"pending"}; GET /videos/{id} (or the
// polling_url) until `completed`; `unsigned_urls` are content endpoints that need the key, `urls` are signed
// storage links that do not; the finished job carries `usage.cost` in USD. Pure.
import { at, errorOf, jobId, jsonPost, linkOf, linksOf, sizeOf, stateLookup, statusWord, underBase, usd } from './fields';
import { DialectError, type DialectContext, type JobView, type VideoAsk, type VideoDialect } from './types';
import { isRecord } from '../../../util/records';

const stateOf = stateLookup({
  pending: 'queued',
  queued: 'queued',
  in_progress: 'running',
  completed: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
});

function read(body: unknown, ctx: DialectContext): JobView {
  if (!isRecord(body)) throw new DialectError('The video job from the gateway is not a JSON object.');
  const status = statusWord(body.status);
  const state = stateOf(status);
  // The key goes with a polling_url, so one on another origin is ignored and the job is polled at its own path.
  const pollUrl = linkOf(body.polling_url, ctx, true);
  const results = state === 'succeeded' ? [...linksOf(body.unsigned_urls, ctx, true), ...linksOf(body.urls, ctx, false)] : [];
  const error = body.error != null ? errorOf(body.error) : undefined;
  const cost = usd(at(body, 'usage', 'cost'));
  return {
    id: jobId(body.id, 'id'),
    status,
    state,
    results,
    ...(pollUrl && { pollUrl }),
    ...(error && { error }),
    ...(cost !== undefined && { cost: { usd: cost, source: 'reported' as const } }),
  };
}

export const openrouterDialect: VideoDialect = {
  name: 'openrouter',
  reportsCost: true,
  submit(ask: VideoAsk, ctx) {
    const size = sizeOf(ask.resolution);
    return jsonPost(underBase(ctx, '/videos'), {
      model: ask.model,
      prompt: ask.prompt,
      ...(ask.durationSeconds !== undefined && { duration: ask.durationSeconds }),
      ...(ask.resolution !== undefined && (size ? { size: `${size.width}x${size.height}` } : { resolution: ask.resolution })),
      ...(ask.aspectRatio !== undefined && { aspect_ratio: ask.aspectRatio }),
      ...(ask.firstFrame !== undefined && { frame_images: [{ type: 'image_url', image_url: { url: ask.firstFrame }, frame_type: 'first_frame' }] }),
    });
  },
  readSubmitted: read,
  poll(id, ctx, pollUrl) {
    const own = pollUrl === undefined ? undefined : linkOf(pollUrl, ctx, true);
    return { method: 'GET', url: own ?? underBase(ctx, `/videos/${encodeURIComponent(jobId(id, 'id'))}`), headers: {} };
  },
  readPolled: read,
};
