import * as assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator';
import { call, callJson, chatBody, ManualClock } from './helpers';

describe('simulator: authentication and rate limits', () => {
  let sim: Simulator;
  const clock = new ManualClock();

  beforeEach(async () => {
    sim = await startSimulator({ now: clock.now });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('answers a request without a key with the spec body, byte for byte', async () => {
    const response = await call(sim, '/v1/models', { key: null });
    assert.equal(response.status, 401);
    assert.equal(await response.text(), '{"error":{"code":"unauthorized","message":"unauthorized","type":"error"}}');
    assert.match(response.headers.get('x-request-id') ?? '', /^req_[0-9a-f]+$/);
  });

  it('rejects an unknown key and a non-bearer header with 401', async () => {
    const unknown = await callJson(sim, '/v1/models', { key: 'sk-not-a-real-key' });
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.json, { error: { code: 'unauthorized', message: 'Invalid API key', type: 'error' } });
    const basic = await callJson(sim, '/v1/models', { key: null, headers: { authorization: 'Basic abc' } });
    assert.equal(basic.status, 401);
    assert.equal(basic.json.error.code, 'unauthorized');
  });

  it('rejects the disabled key with 403', async () => {
    const { status, json } = await callJson(sim, '/v1/models', { key: sim.keys.disabled });
    assert.equal(status, 403);
    assert.deepEqual(json, { error: { code: 'forbidden', message: 'API key is disabled', type: 'error' } });
  });

  it('limits the restricted key to model-k3 for chat and video', async () => {
    const denied = await callJson(sim, '/v1/chat/completions', { key: sim.keys.restricted, body: chatBody('hi', { model: 'model-5.2' }) });
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.json.error, { code: 'model_access_denied', message: 'This key has no access to model model-5.2', type: 'error' });
    const video = await callJson(sim, '/v1/videos/generations', {
      key: sim.keys.restricted,
      body: { model: 'model-1.0-video-edit', input: { prompt: 'a cat' } },
    });
    assert.equal(video.status, 403);
    assert.equal(video.json.error.code, 'model_access_denied');
    const allowed = await callJson(sim, '/v1/chat/completions', { key: sim.keys.restricted, body: chatBody('hi') });
    assert.equal(allowed.status, 200);
  });

  it('uses the given apiKey and exposes it', async () => {
    const custom = await startSimulator({ apiKey: 'sk-custom-key-123' });
    try {
      assert.equal(custom.apiKey, 'sk-custom-key-123');
      assert.equal(custom.keys.valid, 'sk-custom-key-123');
      assert.equal((await call(custom, '/v1/models')).status, 200);
      assert.match(custom.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    } finally {
      await custom.close();
    }
  });

  it('rotates its key: the old one gets 401, the new one works, and its jobs stay', async () => {
    const old = sim.apiKey;
    const job = await callJson(sim, '/v1/videos/generations', { body: { model: 'model-1.0-video-edit', input: { prompt: 'a boat' } } });
    assert.equal(job.status, 200, JSON.stringify(job.json));
    sim.rotateKey('sk-sim-rotated-key');
    assert.equal((await call(sim, '/v1/models', { key: old })).status, 401);
    assert.equal((await call(sim, '/v1/models')).status, 200);
    assert.equal(sim.apiKey, 'sk-sim-rotated-key');
    assert.equal((await call(sim, `/v1/videos/generations/${job.json.id}`)).status, 200);
  });

  it('rate limits per key with 429, an integer Retry-After and the window on the injected clock', async () => {
    sim.setRateLimit({ requests: 2, windowMs: 10_000 });
    assert.equal((await call(sim, '/v1/models')).status, 200);
    clock.advance(2_500);
    assert.equal((await call(sim, '/v1/models')).status, 200);
    const limited = await callJson(sim, '/v1/models');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '8');
    assert.equal(limited.json.error.code, 'rate_limited');
    assert.equal((await call(sim, '/v1/models', { key: sim.keys.restricted })).status, 200, 'other keys have their own window');
    clock.advance(7_600);
    assert.equal((await call(sim, '/v1/models')).status, 200, 'the first request left the window');
    sim.setRateLimit(null);
    for (let i = 0; i < 5; i++) assert.equal((await call(sim, '/v1/models')).status, 200);
  });

  it('states the budget in x-ratelimit-* headers, resets as Go durations, on answers and 429s alike', async () => {
    sim.setRateLimit({ requests: 2, windowMs: 20_000, tokens: 1000 });
    const first = await call(sim, '/v1/models');
    assert.deepEqual(['limit', 'remaining', 'reset'].map((f) => first.headers.get(`x-ratelimit-${f}-requests`)), ['2', '1', '20s']);
    assert.deepEqual(['limit', 'remaining', 'reset'].map((f) => first.headers.get(`x-ratelimit-${f}-tokens`)), ['1000', '999', '20s']);
    clock.advance(1500);
    const second = await call(sim, '/v1/models');
    assert.deepEqual(['remaining', 'reset'].map((f) => second.headers.get(`x-ratelimit-${f}-requests`)), ['0', '18.5s']);
    const limited = await call(sim, '/v1/models');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('x-ratelimit-remaining-requests'), '0');
    sim.setRateLimit(null);
  });

  it('takes its rate limit from the options too', async () => {
    const limited = await startSimulator({ rateLimit: { requests: 1, windowMs: 60_000 }, now: clock.now });
    try {
      const first = await call(limited, '/v1/models');
      assert.equal(first.headers.get('x-ratelimit-limit-requests'), '1');
      assert.equal((await call(limited, '/v1/models')).status, 429);
    } finally {
      await limited.close();
    }
  });

  it('force429 answers the next N authenticated requests with 429 and the given Retry-After', async () => {
    sim.force429(7, 2);
    assert.equal((await call(sim, '/v1/models', { key: null })).status, 401, 'unauthenticated requests do not use it up');
    for (let i = 0; i < 2; i++) {
      const response = await callJson(sim, '/v1/models');
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '7');
    }
    assert.equal((await call(sim, '/v1/models')).status, 200);
  });

  it('answers CORS preflights without a key and exposes headers to browsers', async () => {
    const preflight = await call(sim, '/v1/chat/completions', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const denied = await call(sim, '/v1/models', { key: null });
    assert.equal(denied.headers.get('access-control-allow-origin'), '*');
    assert.match(denied.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
  });

  it('never keeps a raw key in the request log', async () => {
    await call(sim, '/v1/models');
    await call(sim, '/v1/models', { key: sim.keys.disabled });
    await call(sim, '/v1/models', { key: 'sk-some-real-looking-key-0123456789' });
    const dump = JSON.stringify(sim.log);
    for (const key of [sim.keys.valid, sim.keys.disabled, 'sk-some-real-looking-key-0123456789']) assert.ok(!dump.includes(key));
    assert.match(sim.log[0].authorization ?? '', /^Bearer sk-sim…[0-9a-f]{4}$/);
    assert.equal(sim.log[0].headers.authorization, sim.log[0].authorization);
  });
});
