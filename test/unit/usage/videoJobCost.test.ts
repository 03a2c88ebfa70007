import * as assert from 'node:assert/strict';
import { callReport } from '../../../src/gateway/callFigures';
import type { VideoRequest } from '../../../src/gateway/types';
import { recordOf, type RecordContext } from '../../../src/usage/core/record';
import { dialectOf, pollWire, submitWire } from '../../../src/videos/core/dialects';

const ctx = { baseUrl: 'https://gw.example/api/v1', now: 0 };
const request: VideoRequest = { model: 'vendor/video', input: { prompt: 'p' }, parameters: { duration: 8 } };
const context: RecordContext = { time: 1, profile: { id: 'p', name: 'P' }, workspace: '', price: { videoSecond: 0.1 }, costHeader: 'x-litellm-response-cost' };
const noHeader = () => undefined;

function recordOfCall(method: 'submitVideo' | 'getVideo', args: unknown[], value: unknown, header: (name: string) => string | undefined = noHeader) {
  return recordOf(callReport({ origin: 'https://gw.example', profile: 'p', method, args, ok: true, value, header }), context);
}

describe('usage: a video job’s own cost', () => {
  it('records the cost an OpenRouter job ends with as reported, and estimates nothing when it is submitted', () => {
    const dialect = dialectOf('openrouter');
    const submitted = submitWire(dialect, { model: 'vendor/video', prompt: 'p' }, ctx).read({ id: 'v', status: 'pending' });
    const atSubmit = recordOfCall('submitVideo', [request, {}], submitted)!;
    assert.equal(atSubmit.costSource, 'unknown');
    assert.equal(atSubmit.cost, undefined);

    const running = { ...pollWire(dialect, 'v', ctx).read({ id: 'v', status: 'in_progress' }), model: 'vendor/video' };
    assert.equal(recordOfCall('getVideo', ['v', {}], running), undefined, 'a poll of a running job is not recorded');
    const done = { ...pollWire(dialect, 'v', ctx).read({ id: 'v', status: 'completed', urls: ['https://cdn.example/v.mp4'], usage: { cost: 0.42 } }), model: 'vendor/video' };
    const atEnd = recordOfCall('getVideo', ['v', {}], done)!;
    assert.equal(atEnd.costSource, 'reported');
    assert.equal(atEnd.cost, 0.42);
    assert.equal(atEnd.modality, 'video');
    assert.equal(atEnd.model, 'vendor/video');
  });

  it('reads xAI’s cost in ticks (1 USD = 10^10)', () => {
    const done = pollWire(dialectOf('xai'), 'x', { ...ctx, baseUrl: 'https://gw.example/v1' }).read({ request_id: 'x', status: 'done', video: { url: 'https://cdn.example/x.mp4' }, usage: { cost_in_usd_ticks: 5_000_000_000 } });
    assert.equal(recordOfCall('getVideo', ['x', {}], done)!.cost, 0.5);
  });

  it('estimates duration × price for a dialect that reports no cost, and takes LiteLLM’s header as reported', () => {
    const submitted = submitWire(dialectOf('openai'), { model: 'vendor/video', prompt: 'p' }, ctx).read({ id: 'o', object: 'video', status: 'queued' });
    const estimated = recordOfCall('submitVideo', [request, {}], submitted)!;
    assert.equal(estimated.costSource, 'estimated');
    assert.ok(Math.abs(estimated.cost! - 0.8) < 1e-9);
    const reported = recordOfCall('submitVideo', [request, {}], submitted, (name) => (name === 'x-litellm-response-cost' ? '0.3' : undefined))!;
    assert.equal(reported.costSource, 'reported');
    assert.equal(reported.cost, 0.3);
  });
});
