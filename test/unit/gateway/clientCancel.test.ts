// Cancellation and time: aborting closes the socket and keeps the partial reply; a connect/header timeout and an
// idle watchdog (both on a virtual clock) make sure a stalled server never hangs a call.

import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { rejectionOf } from './helpers/rejection';
import { FakeClock } from '../../util/fakeClock';
import { chunkFrame, DONE_FRAME, finishFrame, sendJson, sseHead, startServer, waitUntil, type Handler, type TestServer } from './helpers/server';

const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }], stream: true };


/** Sends some frames, then goes silent without closing. */
const stallAfter =
  (...frames: string[]): Handler =>
  (_req, res) => {
    sseHead(res);
    for (const f of frames) res.write(f);
  };
const stallBeforeHeaders: Handler = () => undefined;

describe('gateway: GatewayClient cancellation and timeouts', () => {
  let server: TestServer;
  let clock: FakeClock;
  let client: GatewayClient;

  before(async () => {
    server = await startServer(stallBeforeHeaders);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    clock = new FakeClock();
    client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-cancel', clock, timeoutMs: 10_000, idleTimeoutMs: 5_000 });
  });
  afterEach(() => client.close());

  it('aborting mid-stream closes the connection and keeps the partial reply', async () => {
    server.setHandler(stallAfter(chunkFrame('Once upon'), chunkFrame(' a time')));
    const controller = new AbortController();
    let text = '';
    const call = client.chat(REQUEST, { signal: controller.signal, onDelta: (d) => (text += d.content ?? '') });
    await waitUntil(() => text === 'Once upon a time', 'both deltas');
    controller.abort();
    const error = await rejectionOf(call);
    assert.equal(error.code, 'aborted');
    assert.equal(error.kind, 'aborted');
    assert.equal(error.retryable, false);
    assert.equal(error.partial?.content, 'Once upon a time');
    await waitUntil(() => server.requests[0].clientClosedEarly, 'the server to see the connection close');
    assert.equal(server.requests.length, 1);
  });

  it('aborting before the headers closes the connection', async () => {
    server.setHandler(stallBeforeHeaders);
    const controller = new AbortController();
    const call = client.listModels({ signal: controller.signal });
    await waitUntil(() => server.requests.length === 1, 'the request');
    controller.abort();
    const error = await rejectionOf(call);
    assert.equal(error.code, 'aborted');
    await waitUntil(() => server.requests[0].clientClosedEarly, 'the server to see the connection close');
  });

  it('an already aborted signal sends nothing', async () => {
    const error = await rejectionOf(client.listModels({ signal: AbortSignal.abort() }));
    assert.equal(error.code, 'aborted');
    assert.equal(server.requests.length, 0);
  });

  it('aborting during a retry wait stops at once', async () => {
    server.setHandler((_req, res) => sendJson(res, 503, { error: { message: 'busy' } }, { 'retry-after': '30' }));
    const controller = new AbortController();
    const call = client.listModels({ signal: controller.signal });
    await waitUntil(() => clock.nextDueAt() === clock.now() + 30_000, 'the retry wait');
    controller.abort();
    const error = await rejectionOf(call);
    assert.equal(error.code, 'aborted');
    assert.equal(server.requests.length, 1);
  });

  it('times out when no response headers arrive within timeoutMs', async () => {
    server.setHandler(stallBeforeHeaders);
    const noRetry = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk', clock, timeoutMs: 10_000, maxRetries: 0 });
    try {
      const call = noRetry.listModels();
      await waitUntil(() => server.requests.length === 1, 'the request');
      clock.advance(9_999);
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(server.requests[0].clientClosedEarly, false);
      clock.advance(1);
      const error = await rejectionOf(call);
      assert.equal(error.code, 'timeout');
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /10 s/);
      await waitUntil(() => server.requests[0].clientClosedEarly, 'the connection to close');
    } finally {
      await noRetry.close();
    }
  });

  it('a header timeout on chat is not retried (the gateway may be generating)', async () => {
    server.setHandler(stallBeforeHeaders);
    const call = client.chat(REQUEST);
    await waitUntil(() => server.requests.length === 1, 'the request');
    clock.advance(10_000);
    const error = await rejectionOf(call);
    assert.equal(error.code, 'timeout');
    assert.equal(server.requests.length, 1);
  });

  it('the idle watchdog ends a stalled stream with code timeout and the partial reply', async () => {
    server.setHandler(stallAfter(chunkFrame('stalled here')));
    let text = '';
    const call = client.chat(REQUEST, { onDelta: (d) => (text += d.content ?? '') });
    await waitUntil(() => text === 'stalled here', 'the first delta');
    clock.advance(5_000);
    const error = await rejectionOf(call);
    assert.equal(error.code, 'timeout');
    assert.match(error.message, /sent nothing for 5 s/);
    assert.equal(error.partial?.content, 'stalled here');
    assert.equal(server.requests.length, 1, 'a stream that produced output is not retried');
    await waitUntil(() => server.requests[0].clientClosedEarly, 'the connection to close');
  });

  it('the idle watchdog measures silence, not total time', async () => {
    let writeMore: ((frame: string) => void) | undefined;
    server.setHandler((_req, res) => {
      sseHead(res);
      res.write(chunkFrame('a'));
      writeMore = (frame) => res.write(frame);
    });
    let text = '';
    const call = client.chat(REQUEST, { onDelta: (d) => (text += d.content ?? '') });
    await waitUntil(() => text === 'a' && writeMore !== undefined, 'the first delta');
    for (const piece of ['b', 'c', 'd']) {
      clock.advance(4_000);
      writeMore!(chunkFrame(piece));
      await waitUntil(() => text.endsWith(piece), `delta ${piece}`);
    }
    writeMore!(finishFrame() + DONE_FRAME);
    const result = await call;
    assert.equal(result.content, 'abcd');
  });

  it('leaves no timers behind after a completed call', async () => {
    server.setHandler((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('x') + finishFrame() + DONE_FRAME);
    });
    await client.chat(REQUEST);
    await waitUntil(() => clock.pendingTimers === 0, 'all timers to be cleared');
  });

  it('close() fails later calls without a request', async () => {
    await client.close();
    const error = await rejectionOf(client.listModels());
    assert.equal(error.code, 'network');
    assert.equal(server.requests.length, 0);
  });
});
