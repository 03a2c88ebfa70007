import * as assert from 'node:assert/strict';
import { request } from 'node:http';
import { startSimulator, type Simulator } from '../../simulator';
import { call, callJson, chatBody, sseData } from './helpers';

/** Reads a body to the end or to its failure, keeping what arrived. */
async function readAll(response: Response): Promise<{ text: string; error: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, error: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    return { text, error };
  }
}

/** Resolves once `count` SSE events have arrived, with what arrived so far. */
async function readEvents(response: Response, count: number): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (sseData(text).length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

describe('simulator: faults and the request log', () => {
  let sim: Simulator;

  beforeEach(async () => {
    sim = await startSimulator();
  });
  afterEach(async () => {
    await sim.close();
  });

  const streamBody = chatBody('tell me a story', { stream: true });

  it('drop-mid-stream sends a few events, then destroys the socket', async () => {
    const response = await call(sim, '/v1/chat/completions', { body: streamBody, headers: { 'x-sim-fault': 'drop-mid-stream' } });
    assert.equal(response.status, 200);
    const { text, error } = await readAll(response);
    assert.ok(error, 'the body read fails');
    assert.equal(sseData(text).length, 3);
    assert.ok(!text.includes('[DONE]'));
    const entry = await sim.waitForLog((e) => e.endedAt !== undefined);
    assert.equal(entry.fault, 'drop-mid-stream');
    assert.equal(entry.aborted, false, 'the simulator hung up, not the client');
  });

  it('drop-mid-stream honours x-sim-fault-after and cuts plain JSON bodies too', async () => {
    const response = await call(sim, '/v1/chat/completions', {
      body: streamBody,
      headers: { 'x-sim-fault': 'drop-mid-stream', 'x-sim-fault-after': '6' },
    });
    assert.equal(sseData((await readAll(response)).text).length, 6);
    const json = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'drop-mid-stream' } });
    assert.equal(json.status, 200);
    assert.ok((await readAll(json)).error);
  });

  it('stall sends some events then goes silent until the client aborts, which the log records', async () => {
    const controller = new AbortController();
    const response = await call(sim, '/v1/chat/completions', { body: streamBody, headers: { 'x-sim-fault': 'stall' }, signal: controller.signal });
    const text = await readEvents(response, 3);
    assert.equal(sseData(text).length, 3);
    const open = await sim.waitForLog((e) => e.fault === 'stall');
    assert.equal(open.status, 200);
    assert.equal(open.endedAt, undefined);
    controller.abort();
    const aborted = await sim.waitForLog((e) => e.fault === 'stall' && e.aborted);
    assert.ok(aborted.endedAt !== undefined);
  });

  it('close() ends stalled streams and resolves', async () => {
    const response = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'stall' } });
    assert.equal(response.status, 200);
    const reading = readAll(response);
    await sim.close();
    const { error } = await reading;
    assert.ok(error, 'the stalled body fails once the simulator closes');
    assert.equal(sim.log[0].aborted, false);
  });

  it('records a client abort of a paced stream as aborted', async () => {
    const controller = new AbortController();
    const response = await call(sim, '/v1/chat/completions', {
      body: chatBody('slow one [long:50]', { stream: true }),
      headers: { 'x-sim-tps': '20' },
      signal: controller.signal,
    });
    await readEvents(response, 2);
    controller.abort();
    const entry = await sim.waitForLog((e) => e.aborted);
    assert.equal(entry.path, '/v1/chat/completions');
    assert.equal(entry.status, 200);
    assert.deepEqual((entry.body as { messages: unknown[] }).messages, [{ role: 'user', content: 'slow one [long:50]' }]);
    const complete = await call(sim, '/v1/models');
    await complete.text();
    const finished = await sim.waitForLog((e) => e.path === '/v1/models' && e.endedAt !== undefined);
    assert.equal(finished.aborted, false);
  });

  for (const [fault, status, code] of [
    ['http-500', 500, 'server_error'],
    ['http-502', 502, 'bad_gateway'],
    ['http-503', 503, 'service_unavailable'],
  ] as const) {
    it(`${fault} answers ${status} with an error body`, async () => {
      const { status: got, json, headers } = await callJson(sim, '/v1/chat/completions', { body: chatBody('x'), headers: { 'x-sim-fault': fault } });
      assert.equal(got, status);
      assert.equal(json.error.code, code);
      assert.equal(json.error.type, 'error');
      if (fault === 'http-503') assert.equal(headers.get('retry-after'), '1');
    });
  }

  it('http-503 takes its Retry-After from x-sim-retry-after', async () => {
    const response = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'http-503', 'x-sim-retry-after': '4' } });
    assert.equal(response.headers.get('retry-after'), '4');
  });

  it('malformed-json sends a 200 body that is not JSON, and an SSE data line that is not JSON', async () => {
    const plain = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'malformed-json' } });
    assert.equal(plain.status, 200);
    const plainText = await plain.text();
    assert.throws(() => JSON.parse(plainText), SyntaxError);

    const stream = await call(sim, '/v1/chat/completions', { body: streamBody, headers: { 'x-sim-fault': 'malformed-json' } });
    const data = sseData(await stream.text());
    const invalid = data.filter((d) => {
      try {
        JSON.parse(d);
        return false;
      } catch {
        return d !== '[DONE]';
      }
    });
    assert.equal(invalid.length, 1);
    assert.equal(data.indexOf(invalid[0]), 3);
  });

  it('slow-headers delays the head by x-sim-delay-ms, then answers normally', async () => {
    const { status, json } = await callJson(sim, '/v1/models', { headers: { 'x-sim-fault': 'slow-headers', 'x-sim-delay-ms': '30' } });
    assert.equal(status, 200);
    assert.equal(json.object, 'list');
  });

  it('slow-headers is abandoned cleanly when the client gives up', async () => {
    const controller = new AbortController();
    const pending = call(sim, '/v1/models', { headers: { 'x-sim-fault': 'slow-headers', 'x-sim-delay-ms': '60000' }, signal: controller.signal });
    await sim.waitForLog((e) => e.fault === 'slow-headers');
    controller.abort();
    await assert.rejects(pending);
    const entry = await sim.waitForLog((e) => e.aborted);
    assert.equal(entry.status, 0);
  });

  it('reset destroys the socket before any response', async () => {
    const outcome = await new Promise<{ status?: number; error?: NodeJS.ErrnoException }>((resolve) => {
      const req = request(`${sim.origin}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${sim.apiKey}`, 'x-sim-fault': 'reset' } });
      req.on('response', (res) => resolve({ status: res.statusCode }));
      req.on('error', (error) => resolve({ error }));
      req.end(JSON.stringify(chatBody('x')));
    });
    assert.equal(outcome.status, undefined);
    assert.ok(outcome.error && ['ECONNRESET', 'EPIPE'].includes(outcome.error.code ?? ''), String(outcome.error?.code));
    const entry = await sim.waitForLog((e) => e.fault === 'reset' && e.endedAt !== undefined);
    assert.equal(entry.status, 0);
  });

  it('empty-body answers 200 with nothing, for JSON and for streams', async () => {
    const plain = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'empty-body' } });
    assert.equal(plain.status, 200);
    assert.equal(await plain.text(), '');
    const stream = await call(sim, '/v1/chat/completions', { body: streamBody, headers: { 'x-sim-fault': 'empty-body' } });
    assert.equal(stream.status, 200);
    assert.equal(await stream.text(), '');
  });

  it('html-error answers 502 with an HTML page', async () => {
    const response = await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'html-error' } });
    assert.equal(response.status, 502);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await response.text(), /<h1>502 Bad Gateway<\/h1>/);
  });

  it('error-chunk replaces the rest of a stream, or a 200 body, with an error object', async () => {
    const stream = await call(sim, '/v1/chat/completions', { body: streamBody, headers: { 'x-sim-fault': 'error-chunk' } });
    const data = sseData(await stream.text());
    assert.equal(data.length, 4);
    assert.equal(JSON.parse(data[3]).error.code, 'server_error');
    const plain = await callJson(sim, '/v1/models', { headers: { 'x-sim-fault': 'error-chunk' } });
    assert.equal(plain.status, 200);
    assert.equal(plain.json.error.type, 'error');
  });

  it('takes a fault from a [fault:NAME] keyword in the prompt', async () => {
    const { status } = await callJson(sim, '/v1/chat/completions', { body: chatBody('please [fault:http-500]') });
    assert.equal(status, 500);
    const video = await callJson(sim, '/v1/videos/generations', { body: { model: 'model-1.0-video-edit', input: { prompt: 'x [fault:http-502]' } } });
    assert.equal(video.status, 502);
  });

  it('applies the default fault to requests without their own, for a number of times or until cleared', async () => {
    sim.setDefaultFault('http-503', 2);
    assert.equal((await call(sim, '/v1/models')).status, 503);
    assert.equal((await call(sim, '/v1/models', { headers: { 'x-sim-fault': 'http-500' } })).status, 500, 'the header wins');
    assert.equal((await call(sim, '/v1/models')).status, 503);
    assert.equal((await call(sim, '/v1/models')).status, 200, 'used up');
    sim.setDefaultFault('http-502');
    for (let i = 0; i < 3; i++) assert.equal((await call(sim, '/v1/models')).status, 502);
    sim.setDefaultFault(null);
    assert.equal((await call(sim, '/v1/models')).status, 200);
    assert.throws(() => sim.setDefaultFault('bogus'), /Unknown fault 'bogus'/);
  });

  it('logs every request in order with method, path, status and a request id on every response', async () => {
    const first = await call(sim, '/v1/models');
    const second = await call(sim, '/v1/nothing-here');
    await Promise.all([first.text(), second.text()]);
    const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    assert.ok(ids.every((id) => id && /^req_/.test(id)) && ids[0] !== ids[1]);
    await sim.waitForLog((e) => e.seq === 2 && e.endedAt !== undefined);
    assert.deepEqual(
      sim.log.map(({ seq, method, path, status, aborted }) => ({ seq, method, path, status, aborted })),
      [
        { seq: 1, method: 'GET', path: '/v1/models', status: 200, aborted: false },
        { seq: 2, method: 'GET', path: '/v1/nothing-here', status: 404, aborted: false },
      ],
    );
    sim.clearLog();
    assert.equal(sim.log.length, 0);
  });

  it('waitForLog rejects after its timeout', async () => {
    await assert.rejects(sim.waitForLog((e) => e.path === '/never', 20), /no matching request/);
  });
});
