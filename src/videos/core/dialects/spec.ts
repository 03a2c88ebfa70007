// The dialect of gateway-api.md: POST /videos/generations {model, input:{prompt}, parameters:{resolution, duration}},
// polled at GET /videos/generations/{id} until `data[].url`. Pure.
import { at, errorOf, jobId, jsonPost, linksOf, stateLookup, statusWord, underBase, usd } from './fields';
import { DialectError, type DialectContext, type JobView, type VideoAsk, type VideoDialect } from './types';
import { isRecord } from '../../../util/records';

/** The spec names `queued` and `completed`; the rest are the words gateways of this shape are known to send. */
const stateOf = stateLookup({
  queued: 'queued',
  pending: 'queued',
  in_progress: 'running',
  processing: 'running',
  running: 'running',
  completed: 'succeeded',
  succeeded: 'succeeded',
  failed: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  expired: 'expired',
});

function read(body: unknown, ctx: DialectContext): JobView {
  if (!isRecord(body)) throw new DialectError('The video job from the gateway is not a JSON object.');
  const status = statusWord(body.status);
  const state = stateOf(status);
  const cost = usd(at(body, 'usage', 'cost'));
  const error = state === 'failed' || body.error != null ? errorOf(body.error) : undefined;
  return {
    id: jobId(body.id, 'id'),
    status,
    state,
    results: linksOf(body.data, ctx, false),
    ...(error && { error }),
    ...(cost !== undefined && { cost: { usd: cost, source: 'reported' as const } }),
  };
}

export const specDialect: VideoDialect = {
  name: 'spec',
  submit(ask: VideoAsk, ctx) {
    const parameters = {
      ...(ask.resolution !== undefined && { resolution: ask.resolution }),
      ...(ask.durationSeconds !== undefined && { duration: ask.durationSeconds }),
      ...(ask.aspectRatio !== undefined && { aspect_ratio: ask.aspectRatio }),
    };
    const input = { prompt: ask.prompt, ...(ask.firstFrame !== undefined && { img_url: ask.firstFrame }) };
    return jsonPost(underBase(ctx, '/videos/generations'), { model: ask.model, input, ...(Object.keys(parameters).length > 0 && { parameters }) });
  },
  readSubmitted: read,
  poll: (id, ctx) => ({ method: 'GET', url: underBase(ctx, `/videos/generations/${encodeURIComponent(jobId(id, 'id'))}`), headers: {} }),
  readPolled: read,
};
