// GatewayClient against the gateway simulator: the happy paths, authentication failures, rate limits and every
// fault mode, with the simulator's request log as the witness of what went over the wire.

import * as assert from 'node:assert/strict';
import { rejectionOf } from './helpers/rejection';
import type { ChatRequest } from '../../../src/gateway/types';
import { FakeClock } from '../../util/fakeClock';
import { startSimulator, type Simulator } from '../../simulator';
import { recordingSleep, waitUntil } from './helpers/server';
import { useClients } from './helpers/clients';


const chatRequest = (text: string, stream = true, model = 'model-k3'): ChatRequest => ({ model, messages: [{ role: 'user', content: text }], stream });
const fault = (name: string, extra: Record<string, string> = {}) => ({ headers: { 'x-sim-fault': name, ...extra } });

describe('gateway: GatewayClient against the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let recorder: ReturnType<typeof recordingSleep>;

  const { makeClient } = useClients(() => ({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, sleep: recorder.sleep, random: () => 0 }));

  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());
  beforeEach(() => {
    sim.clearLog();
    sim.setDefaultFault(null);
    recorder = recordingSleep();
  });

  describe('happy paths', () => {
    it('lists the models', async () => {
      const models = await makeClient({ baseUrl: `${sim.baseUrl}/` }).listModels();
      assert.deepEqual(
        models.map((m) => m.id),
        ['model-k3', 'model-5.2', 'model-1.0-video-edit', 'model-image-1.0', 'model-speech-1.0', 'model-transcribe-1.0'],
      );
    });

    it('streams exactly N chunks and assembles them', async () => {
      let deltas = 0;
      const result = await makeClient().chat({ ...chatRequest('[chunks:500]'), stream_options: { include_usage: true } }, { onDelta: () => deltas++ });
      assert.equal(result.content, 'tok '.repeat(500));
      assert.equal(deltas, 500);
      assert.equal(result.finishReason, 'stop');
      assert.ok(result.usage && result.usage.completion_tokens === 500);
      assert.match(result.id, /^chatcmpl-/);
      assert.equal(result.model, 'model-k3');
    });

    it('gives the same reply streamed and not streamed, reasoning included', async () => {
      const client = makeClient();
      const streamed = await client.chat(chatRequest('[reasoning] Explain keep-alive.'));
      const whole = await client.chat(chatRequest('[reasoning] Explain keep-alive.', false));
      assert.ok(streamed.reasoning.length > 0);
      assert.equal(streamed.content, whole.content);
      assert.equal(streamed.reasoning, whole.reasoning);
    });

    it('assembles parallel tool calls', async () => {
      const tools = ['get_weather', 'get_time'].map((name) => ({
        type: 'function' as const,
        function: { name, parameters: { type: 'object', properties: { city: { type: 'string' } } } },
      }));
      const result = await makeClient().chat({ ...chatRequest('[parallel] weather and time in Oslo'), tools });
      assert.equal(result.finishReason, 'tool_calls');
      assert.deepEqual(
        result.toolCalls.map((t) => t.name),
        ['get_weather', 'get_time'],
      );
      for (const call of result.toolCalls) assert.deepEqual(JSON.parse(call.arguments), { city: 'example city' });
    });

    it('submits a video job and polls it', async () => {
      const client = makeClient();
      const job = await client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'a lighthouse' }, parameters: { resolution: '720p', duration: 5 } });
      assert.equal(job.status, 'queued');
      const polled = await client.getVideo(job.id);
      assert.equal(polled.id, job.id);
    });
  });

  describe('authentication and request errors', () => {
    it('401 for an unknown key, with the server message and request id', async () => {
      const error = await rejectionOf(makeClient({ apiKey: 'sk-not-a-real-key-000000' }).listModels());
      assert.equal(error.status, 401);
      assert.equal(error.kind, 'auth');
      assert.equal(error.message, 'Invalid API key');
      assert.equal(error.code, 'unauthorized');
      assert.match(error.requestId ?? '', /^req_/);
      assert.equal(sim.log.length, 1, 'not retried');
    });

    it('403 for a disabled key', async () => {
      const error = await rejectionOf(makeClient({ apiKey: sim.keys.disabled }).chat(chatRequest('hi')));
      assert.equal(error.status, 403);
      assert.equal(error.kind, 'forbidden');
      assert.equal(error.message, 'API key is disabled');
    });

    it('403 for a model the key may not use', async () => {
      const error = await rejectionOf(makeClient({ apiKey: sim.keys.restricted }).chat(chatRequest('hi', true, 'model-5.2')));
      assert.equal(error.code, 'model_access_denied');
      assert.equal(error.message, 'This key has no access to model model-5.2');
    });

    it('404 for an unknown model and an unknown job', async () => {
      const client = makeClient();
      const model = await rejectionOf(client.chat(chatRequest('hi', true, 'model-nope')));
      assert.equal(model.code, 'model_not_found');
      assert.equal(model.kind, 'not_found');
      const job = await rejectionOf(client.getVideo('vid_missing'));
      assert.equal(job.status, 404);
      assert.equal(job.code, 'not_found');
    });

    it('400 with the validation message', async () => {
      const error = await rejectionOf(makeClient().chat({ ...chatRequest('hi'), top_p: 3 }));
      assert.equal(error.status, 400);
      assert.equal(error.kind, 'bad_request');
      assert.match(error.message, /top_p/);
    });
  });

  describe('rate limits', () => {
    it('honours Retry-After and succeeds on the retry', async () => {
      sim.force429(2, 1);
      const models = await makeClient().listModels();
      assert.equal(models.length, 6);
      assert.deepEqual(recorder.waits, [2000]);
      assert.deepEqual(
        sim.log.map((e) => e.status),
        [429, 200],
      );
    });

    it('sends no request before Retry-After is over (virtual clock, real sleeper)', async () => {
      const clock = new FakeClock();
      sim.force429(3, 1);
      const client = makeClient({ clock, sleep: undefined });
      const call = client.listModels();
      const t0 = clock.now();
      await waitUntil(() => clock.nextDueAt() === t0 + 3000, 'the retry wait to be scheduled');
      clock.advance(2999);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(sim.log.length, 1);
      clock.advance(1);
      await call;
      assert.equal(sim.log.length, 2);
    });

    it('fails at once with retryAfterMs when the wait is longer than allowed', async () => {
      sim.force429(90, 1);
      const error = await rejectionOf(makeClient().chat(chatRequest('hi')));
      assert.equal(error.kind, 'rate_limit');
      assert.equal(error.retryAfterMs, 90_000);
      assert.equal(error.code, 'rate_limited');
      assert.equal(sim.log.length, 1);
      assert.deepEqual(recorder.waits, []);
    });

    it('never retries a video submission on 429', async () => {
      sim.force429(1, 1);
      const error = await rejectionOf(makeClient().submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'x' } }));
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterMs, 1000);
      assert.equal(sim.log.length, 1);
    });
  });

  describe('faults', () => {
    it('abort: the simulator logs the request as aborted, and the partial reply is kept', async () => {
      const controller = new AbortController();
      let text = '';
      const call = makeClient().chat(chatRequest('[chunks:1000]'), {
        signal: controller.signal,
        headers: { 'x-sim-tps': '50' },
        onDelta: (d) => (text += d.content ?? ''),
      });
      await waitUntil(() => text.length >= 8, 'a few deltas');
      controller.abort();
      const error = await rejectionOf(call);
      assert.equal(error.code, 'aborted');
      assert.ok(error.partial && error.partial.content.length >= 8 && 'tok '.repeat(1000).startsWith(error.partial.content));
      const entry = await sim.waitForLog((e) => e.aborted);
      assert.equal(entry.path, '/v1/chat/completions');
    });

    it('drop-mid-stream: stream_interrupted with the partial reply, not retried', async () => {
      const error = await rejectionOf(makeClient().chat(chatRequest('[chunks:20]'), fault('drop-mid-stream')));
      assert.equal(error.code, 'stream_interrupted');
      assert.equal(error.partial?.content, 'tok tok ');
      assert.equal(sim.log.length, 1);
    });

    it('drop-mid-stream on a GET: retried', async () => {
      sim.setDefaultFault('drop-mid-stream', 1);
      const models = await makeClient().listModels();
      assert.equal(models.length, 6);
      assert.equal(sim.log.length, 2);
    });

    it('stall: the idle watchdog ends the stream with timeout and the partial reply, and the socket closes', async () => {
      const clock = new FakeClock();
      let text = '';
      const call = makeClient({ clock, idleTimeoutMs: 30_000 }).chat(chatRequest('[chunks:20]'), {
        ...fault('stall'),
        onDelta: (d) => (text += d.content ?? ''),
      });
      await waitUntil(() => text === 'tok tok ', 'the deltas before the stall');
      clock.advance(30_000);
      const error = await rejectionOf(call);
      assert.equal(error.code, 'timeout');
      assert.equal(error.partial?.content, 'tok tok ');
      await sim.waitForLog((e) => e.aborted);
      assert.equal(sim.log.length, 1);
    });

    for (const [name, status, code] of [
      ['http-500', 500, 'server_error'],
      ['http-502', 502, 'bad_gateway'],
      ['http-503', 503, 'service_unavailable'],
    ] as const) {
      it(`${name}: GET retried with the server's message; video submit not retried`, async () => {
        const client = makeClient();
        const error = await rejectionOf(client.listModels(fault(name)));
        assert.equal(error.status, status);
        assert.equal(error.code, code);
        assert.equal(error.kind, 'server');
        assert.match(error.message, /simulated/);
        assert.equal(sim.log.length, 3);
        assert.deepEqual(recorder.waits, name === 'http-503' ? [1000, 1000] : [500, 1000]);
        sim.clearLog();
        const submit = await rejectionOf(client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'x' } }, fault(name)));
        assert.equal(submit.status, status);
        assert.equal(submit.outcomeUnknown, false);
        assert.equal(sim.log.length, 1);
      });
    }

    it('http-503 twice, then success: chat retried before any body', async () => {
      sim.setDefaultFault('http-503', 2);
      const result = await makeClient().chat(chatRequest('[chunks:3]'));
      assert.equal(result.content, 'tok tok tok ');
      assert.equal(sim.log.length, 3);
    });

    it('malformed-json: bad_response, with the partial reply for streams', async () => {
      const client = makeClient();
      const streamed = await rejectionOf(client.chat(chatRequest('[chunks:20]'), fault('malformed-json')));
      assert.equal(streamed.code, 'bad_response');
      assert.equal(streamed.kind, 'bad_response');
      assert.equal(streamed.partial?.content, 'tok tok ');
      const listed = await rejectionOf(client.listModels(fault('malformed-json')));
      assert.equal(listed.code, 'bad_response');
    });

    it('slow-headers: times out on the virtual clock, and the simulator sees the client leave', async () => {
      const clock = new FakeClock();
      const call = makeClient({ clock, timeoutMs: 1000, maxRetries: 0 }).listModels(fault('slow-headers', { 'x-sim-delay-ms': '10000' }));
      await sim.waitForLog((e) => e.fault === 'slow-headers');
      clock.advance(1000);
      const error = await rejectionOf(call);
      assert.equal(error.code, 'timeout');
      const entry = await sim.waitForLog((e) => e.aborted);
      assert.equal(entry.status, 0);
    });

    it('slow-headers within the timeout: answered normally', async () => {
      const models = await makeClient().listModels(fault('slow-headers', { 'x-sim-delay-ms': '50' }));
      assert.equal(models.length, 6);
    });

    it('reset: GET and chat retried, video submit not retried and flagged outcome unknown', async () => {
      const client = makeClient();
      const listed = await rejectionOf(client.listModels(fault('reset')));
      assert.equal(listed.code, 'network');
      assert.equal(listed.kind, 'network');
      assert.equal(sim.log.length, 3);
      sim.clearLog();
      sim.setDefaultFault('reset', 1);
      const result = await client.chat(chatRequest('[chunks:2]'));
      assert.equal(result.content, 'tok tok ');
      assert.equal(sim.log.length, 2);
      sim.clearLog();
      const submit = await rejectionOf(client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'x' } }, fault('reset')));
      assert.equal(submit.outcomeUnknown, true);
      assert.equal(sim.log.length, 1);
    });

    it('empty-body: bad_response for streams and JSON', async () => {
      const client = makeClient();
      const streamed = await rejectionOf(client.chat(chatRequest('hi'), fault('empty-body')));
      assert.equal(streamed.code, 'bad_response');
      const listed = await rejectionOf(client.listModels(fault('empty-body')));
      assert.equal(listed.code, 'bad_response');
    });

    it('html-error: a readable message from the proxy page', async () => {
      const error = await rejectionOf(makeClient({ maxRetries: 0 }).listModels(fault('html-error')));
      assert.equal(error.status, 502);
      assert.equal(error.kind, 'server');
      assert.match(error.message, /502 Bad Gateway/);
      assert.doesNotMatch(error.message, /<html|<title/i);
    });

    it('error-chunk: the in-stream error with the partial reply', async () => {
      const error = await rejectionOf(makeClient().chat(chatRequest('[chunks:20]'), fault('error-chunk')));
      assert.equal(error.code, 'server_error');
      assert.equal(error.message, 'The model stopped unexpectedly (simulated)');
      assert.equal(error.kind, 'upstream');
      assert.equal(error.partial?.content, 'tok tok ');
      assert.equal(sim.log.length, 1);
    });
  });
});
