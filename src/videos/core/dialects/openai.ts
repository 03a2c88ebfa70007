// The OpenAI Videos API shape (served by LiteLLM, new-api and others): POST /videos {model, prompt, seconds, size},
// a `Video` object polled at GET /videos/{id}, the result at /videos/{id}/content, which needs the key. Pure.
import { at, errorOf, expiryMs, jobId, jsonPost, linkOf, percent, sizeOf, stateLookup, statusWord, underBase, usd } from './fields';
import { DialectError, type DialectContext, type JobView, type ResultLink, type VideoAsk, type VideoDialect } from './types';
import { isRecord } from '../../../util/records';

const stateOf = stateLookup({
  queued: 'queued',
  in_progress: 'running',
  processing: 'running',
  completed: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
});

function contentUrl(ctx: DialectContext, id: string, variant: 'video' | 'thumbnail'): string {
  return underBase(ctx, `/videos/${encodeURIComponent(id)}/content?variant=${variant}`);
}

function read(body: unknown, ctx: DialectContext): JobView {
  if (!isRecord(body)) throw new DialectError('The video job from the gateway is not a JSON object.');
  const id = jobId(body.id, 'id');
  const status = statusWord(body.status);
  const state = stateOf(status);
  const results: ResultLink[] = [];
  if (state === 'succeeded') {
    results.push({ url: contentUrl(ctx, id, 'video'), needsKey: true, variant: 'video' });
    // Some gateways of this shape add a direct link to the Video object; it is a signed link, fetched without the key.
    const direct = linkOf(body.url, ctx, false);
    if (direct) results.push({ url: direct, needsKey: false, variant: 'video' });
    results.push({ url: contentUrl(ctx, id, 'thumbnail'), needsKey: true, variant: 'thumbnail' });
  }
  const progress = percent(body.progress);
  const expiresAt = expiryMs(body.expires_at);
  const error = body.error != null ? errorOf(body.error) : undefined;
  const cost = usd(at(body, 'usage', 'cost'));
  return {
    id,
    status,
    state,
    results,
    ...(progress !== undefined && { progress }),
    ...(expiresAt !== undefined && { expiresAt }),
    ...(error && { error }),
    ...(cost !== undefined && { cost: { usd: cost, source: 'reported' as const } }),
  };
}

export const openaiDialect: VideoDialect = {
  name: 'openai',
  submit(ask: VideoAsk, ctx) {
    const size = sizeOf(ask.resolution);
    return jsonPost(underBase(ctx, '/videos'), {
      model: ask.model,
      prompt: ask.prompt,
      ...(ask.durationSeconds !== undefined && { seconds: String(ask.durationSeconds) }),
      ...(size && { size: `${size.width}x${size.height}` }),
      ...(ask.firstFrame !== undefined && { input_reference: ask.firstFrame }),
    });
  },
  readSubmitted: read,
  poll: (id, ctx) => ({ method: 'GET', url: underBase(ctx, `/videos/${encodeURIComponent(jobId(id, 'id'))}`), headers: {} }),
  remove: (id, ctx) => ({ method: 'DELETE', url: underBase(ctx, `/videos/${encodeURIComponent(jobId(id, 'id'))}`), headers: {} }),
  readPolled: read,
};
