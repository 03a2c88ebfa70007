// Retries without duplicates: which calls are retried on which failures, how long the client waits, and that no
// request goes out before a server-requested wait is over.

import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { rejectionOf } from './helpers/rejection';
import { FakeClock } from '../../util/fakeClock';
import { chunkFrame, DONE_FRAME, finishFrame, recordingSleep, sendJson, sseHead, startServer, waitUntil, type TestServer } from './helpers/server';
import { useClients } from './helpers/clients';

const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }] };
const VIDEO = { model: 'model-1.0-video-edit', input: { prompt: 'waves' } };
const MODELS = { object: 'list', data: [{ id: 'model-k3', object: 'model' }] };
const JOB = { id: 'vid_1', object: 'video.generation.job', status: 'queued' };


/** Responds with each scripted step in turn (the last one repeats). */
type Step = (res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void;
const status =
  (code: number, body: unknown = { error: { message: `failure ${code}`, code: `e${code}` } }, headers: Record<string, string> = {}): Step =>
  (res) =>
    sendJson(res, code, body, headers);
const hangUp: Step = (_res, req) => req.socket.destroy();
const ok =
  (body: unknown): Step =>
  (res) =>
    sendJson(res, 200, body);
const stream: Step = (res) => {
  sseHead(res);
  res.end(chunkFrame('fine') + finishFrame() + DONE_FRAME);
};

describe('gateway: GatewayClient retries', () => {
  let server: TestServer;
  let steps: Step[] = [];
  let recorder: ReturnType<typeof recordingSleep>;

  const { makeClient, track } = useClients(() => ({ baseUrl: server.baseUrl, apiKey: 'sk-retry', sleep: recorder.sleep, random: () => 0 }));

  before(async () => {
    server = await startServer((req, res) => {
      const step = steps[Math.min(server.requests.length - 1, steps.length - 1)];
      step(res, req);
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    recorder = recordingSleep();
  });

  describe('GET (listModels, getVideo)', () => {
    it('retries 5xx with exponential backoff and gives up after maxRetries', async () => {
      steps = [status(503)];
      const error = await rejectionOf(makeClient().listModels());
      assert.equal(server.requests.length, 3);
      assert.deepEqual(recorder.waits, [500, 1000]);
      assert.equal(error.attempts, 3);
      assert.equal(error.status, 503);
      assert.equal(error.message, 'failure 503');
    });

    it('applies up to 25 % jitter below the exponential step', async () => {
      steps = [status(500)];
      await rejectionOf(makeClient({ random: () => 0.999999, maxRetries: 3 }).listModels());
      assert.deepEqual(
        recorder.waits.map((w) => Math.round(w)),
        [375, 750, 1500],
      );
    });

    it('lets one call turn retries off, so a 429 reaches a caller with its own schedule at once', async () => {
      steps = [status(429, { error: { message: 'slow down', code: 'rate_limited' } }, { 'retry-after': '7' }), ok(JOB)];
      const error = await rejectionOf(makeClient().getVideo('vid_1', { maxRetries: 0 }));
      assert.equal(server.requests.length, 1);
      assert.deepEqual(recorder.waits, []);
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterMs, 7000);
    });

    for (const code of [408, 409, 429, 500, 502, 504]) {
      it(`retries ${code} and then succeeds`, async () => {
        steps = [status(code), ok(MODELS)];
        const models = await makeClient().listModels();
        assert.equal(models.length, 1);
        assert.equal(server.requests.length, 2);
      });
    }

    for (const code of [400, 401, 403, 404, 422]) {
      it(`does not retry ${code}`, async () => {
        steps = [status(code)];
        const error = await rejectionOf(makeClient().getVideo('vid_1'));
        assert.equal(server.requests.length, 1);
        assert.equal(error.status, code);
      });
    }

    it('retries a connection closed before the response', async () => {
      steps = [hangUp, ok(MODELS)];
      const models = await makeClient().listModels();
      assert.equal(models[0].id, 'model-k3');
      assert.equal(server.requests.length, 2);
    });

    it('waits exactly retry-after-ms, which takes precedence over Retry-After', async () => {
      steps = [status(429, undefined, { 'retry-after-ms': '1234.5', 'retry-after': '9' }), ok(MODELS)];
      await makeClient().listModels();
      assert.deepEqual(recorder.waits, [1234.5]);
    });

    it('waits Retry-After seconds', async () => {
      steps = [status(503, undefined, { 'retry-after': '3' }), ok(MODELS)];
      await makeClient().listModels();
      assert.deepEqual(recorder.waits, [3000]);
    });

    it('waits until a Retry-After HTTP date', async () => {
      const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
      steps = [status(429, undefined, { 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), ok(MODELS)];
      await makeClient({ clock }).listModels();
      assert.deepEqual(recorder.waits, [5000]);
    });

    it('does not retry when the server asks for a wait above maxRetryWaitMs, and reports the wait', async () => {
      steps = [status(429, { error: { message: 'Slow down', code: 'rate_limited' } }, { 'retry-after': '120' })];
      const error = await rejectionOf(makeClient().listModels());
      assert.equal(server.requests.length, 1);
      assert.deepEqual(recorder.waits, []);
      assert.equal(error.retryAfterMs, 120_000);
      assert.equal(error.kind, 'rate_limit');
      assert.equal(error.retryable, true);
      assert.equal(error.message, 'Slow down');
    });

    it('lets maxRetryWaitMs raise the limit', async () => {
      steps = [status(429, undefined, { 'retry-after': '120' }), ok(MODELS)];
      await makeClient({ maxRetryWaitMs: 180_000 }).listModels();
      assert.deepEqual(recorder.waits, [120_000]);
    });

    it('obeys x-should-retry from the server', async () => {
      steps = [status(500, undefined, { 'x-should-retry': 'false' })];
      await rejectionOf(makeClient().listModels());
      assert.equal(server.requests.length, 1);
      server.requests.length = 0;
      steps = [status(400, undefined, { 'x-should-retry': 'true' }), ok(MODELS)];
      await makeClient().listModels();
      assert.equal(server.requests.length, 2);
    });

    it('never sends the next request before Retry-After has passed (virtual clock)', async () => {
      const clock = new FakeClock();
      const arrivals: number[] = [];
      steps = [
        (res) => {
          arrivals.push(clock.now());
          sendJson(res, 429, { error: { message: 'wait', code: 'rate_limited' } }, { 'retry-after': '2' });
        },
        (res) => {
          arrivals.push(clock.now());
          sendJson(res, 200, MODELS);
        },
      ];
      const client = track(new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-retry', clock }));
      const call = client.listModels();
      const startedAt = clock.now();
      await waitUntil(() => clock.nextDueAt() === startedAt + 2000, 'the retry wait to be scheduled');
      clock.advance(1999);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(server.requests.length, 1, 'no request before the wait is over');
      clock.advance(1);
      const models = await call;
      assert.equal(models.length, 1);
      assert.equal(arrivals.length, 2);
      assert.ok(arrivals[1] - arrivals[0] >= 2000, `second request ${arrivals[1] - arrivals[0]} ms after the first`);
    });
  });

  describe('chat', () => {
    it('retries 429/5xx received before any body', async () => {
      steps = [status(429), status(502), stream];
      const result = await makeClient().chat({ ...REQUEST, stream: true });
      assert.equal(result.content, 'fine');
      assert.equal(server.requests.length, 3);
    });

    it('retries a connection closed before the response', async () => {
      steps = [hangUp, stream];
      const result = await makeClient().chat({ ...REQUEST, stream: true });
      assert.equal(result.content, 'fine');
      assert.equal(server.requests.length, 2);
    });

    it('never retries once part of the reply has arrived', async () => {
      steps = [
        (res, req) => {
          sseHead(res);
          res.write(chunkFrame('partial'), () => setTimeout(() => req.socket.destroy(), 10));
        },
        stream,
      ];
      const error = await rejectionOf(makeClient().chat({ ...REQUEST, stream: true }));
      assert.equal(server.requests.length, 1);
      assert.equal(error.code, 'stream_interrupted');
      assert.equal(error.partial?.content, 'partial');
      assert.equal(error.attempts, 1);
    });

    it('does not retry an error event inside a 200 stream', async () => {
      steps = [
        (res) => {
          sseHead(res);
          res.end('data: {"error":{"message":"overloaded","type":"server_error","code":null}}\n\n');
        },
        stream,
      ];
      const error = await rejectionOf(makeClient().chat({ ...REQUEST, stream: true }));
      assert.equal(server.requests.length, 1);
      assert.equal(error.message, 'overloaded');
      assert.equal(error.code, 'server_error');
    });
  });

  describe('submitVideo (never a duplicate job)', () => {
    for (const code of [429, 500, 503]) {
      it(`does not retry ${code}`, async () => {
        steps = [status(code, undefined, { 'retry-after': '1' }), ok(JOB)];
        const error = await rejectionOf(makeClient().submitVideo(VIDEO));
        assert.equal(server.requests.length, 1);
        assert.equal(error.status, code);
        assert.equal(error.outcomeUnknown, false);
        assert.equal(error.retryAfterMs, 1000);
      });
    }

    it('does not retry when the connection dies after the request was sent, and flags the outcome unknown', async () => {
      steps = [hangUp, ok(JOB)];
      const error = await rejectionOf(makeClient().submitVideo(VIDEO));
      assert.equal(server.requests.length, 1);
      assert.equal(error.code, 'network');
      assert.equal(error.outcomeUnknown, true);
    });

    it('flags the outcome unknown when the job response breaks off', async () => {
      steps = [
        (res, req) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"id":"vid_', () => setTimeout(() => req.socket.destroy(), 10));
        },
      ];
      const error = await rejectionOf(makeClient().submitVideo(VIDEO));
      assert.equal(server.requests.length, 1);
      assert.equal(error.outcomeUnknown, true);
    });

    it('retries a refused connection (nothing was sent) and then submits once', async () => {
      const port = server.port;
      await server.close();
      let restarted: TestServer | undefined;
      const client = makeClient({
        sleep: async (ms) => {
          recorder.waits.push(ms);
          if (recorder.waits.length === 2) restarted = await startServer((_req, res) => sendJson(res, 200, JOB), port);
        },
      });
      try {
        const job = await client.submitVideo(VIDEO);
        assert.equal(job.id, 'vid_1');
        assert.equal(recorder.waits.length, 2);
        assert.equal(restarted?.requests.length, 1);
      } finally {
        await client.close();
        await restarted?.close();
        server = await startServer((req, res) => steps[Math.min(server.requests.length - 1, steps.length - 1)](res, req), port);
      }
    });

    it('reports a refused connection as network, outcome known, after maxRetries', async () => {
      const client = makeClient({ baseUrl: 'http://127.0.0.1:9/v1' });
      const error = await rejectionOf(client.submitVideo(VIDEO));
      assert.equal(error.code, 'network');
      assert.equal(error.kind, 'network');
      assert.equal(error.outcomeUnknown, false);
      assert.equal(error.attempts, 3);
      assert.match(error.message, /connection to the gateway at .* was refused/);
    });
  });
});
