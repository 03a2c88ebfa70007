// Bounded memory for hostile streams: an SSE line or event that never ends is cut at a cap (16 MB by default) with
// a clear bad_response that keeps the reply so far; and a job id made of dot segments never reaches the poll path
// as a path segment.

import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GatewayClient } from '../../../src/gateway/client';
import { GatewayError } from '../../../src/gateway/errors';
import { SseDecoder, SseOverflowError } from '../../../src/gateway/sse';
import { rejectionOf } from './helpers/rejection';
import { chunkFrame, sendJson, sseHead, startServer, type TestServer } from './helpers/server';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function decoderWithCap(maxEventChars: number): { decoder: SseDecoder; events: string[] } {
  const events: string[] = [];
  const decoder = new SseDecoder({ onEvent: (_type, data) => events.push(data) }, { maxEventChars });
  return { decoder, events };
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('gateway: SSE line and event cap', () => {
  it('refuses a line that grows past the cap across chunks, and then takes nothing more', () => {
    const { decoder, events } = decoderWithCap(100);
    decoder.push(bytes('data: one\n\n'));
    decoder.push(bytes(`data: ${'x'.repeat(60)}`));
    assert.throws(() => decoder.push(bytes('y'.repeat(60))), (e: unknown) => e instanceof SseOverflowError && e.what === 'line' && /longer than 100 characters/.test(e.message));
    decoder.push(bytes('\n\ndata: later\n\n'));
    decoder.end();
    assert.deepEqual(events, ['one']);
  });

  it('refuses an event of many short lines that never gets its blank line', () => {
    const { decoder } = decoderWithCap(100);
    assert.throws(() => {
      for (let i = 0; i < 20; i++) decoder.push(bytes('data: abcdefgh\r\n'));
    }, (e: unknown) => e instanceof SseOverflowError && e.what === 'event');
  });

  it('counts from the last blank line, whatever the line ends (CRLF split across chunks, CR, LF)', () => {
    const { decoder, events } = decoderWithCap(40);
    for (let i = 0; i < 50; i++) {
      decoder.push(bytes(`data: event ${String(i).padStart(2, '0')}\r`));
      decoder.push(bytes('\n\r'));
      decoder.push(bytes('\n'));
      decoder.push(bytes(`data: cr ${i}\r\r: comment\n\n`));
    }
    decoder.end();
    assert.equal(events.length, 100);
    assert.equal(events[98], 'event 49');
  });

  it('gives a 16 MB cap by default', () => {
    const { decoder } = decoderWithCap(undefined as unknown as number);
    const mb = 'z'.repeat(1024 * 1024);
    decoder.push(bytes('data: '));
    for (let i = 0; i < 15; i++) decoder.push(bytes(mb));
    assert.throws(() => decoder.push(bytes(mb + mb)), (e: unknown) => e instanceof SseOverflowError && /16 MB/.test(e.message));
  });
});

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

describe('gateway: a stream line that never ends', function () {
  this.timeout(60_000);
  let server: TestServer;
  let sent = 0;
  const LIMIT_BYTES = 48 * 1024 * 1024; // the test server gives up after this much; the client must stop far sooner

  before(async () => {
    server = await startServer(async (req, res) => {
      if (req.url === '/v1/models') return sendJson(res, 200, { data: [] });
      sseHead(res);
      sent = 0;
      res.write(chunkFrame('Hello, ') + chunkFrame('world'));
      res.write('data: {"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":"');
      const piece = 'x'.repeat(256 * 1024);
      let open = true;
      res.on('close', () => (open = false));
      while (open && sent < LIMIT_BYTES) {
        sent += piece.length;
        if (!res.write(piece)) await drainOrClose(res);
      }
      res.end();
    });
  });
  after(() => server.close());

  it('fails with bad_response at 16 MB, keeps the reply so far, and keeps the heap bounded', async () => {
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-endless', maxRetries: 0 });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    try {
      await client.listModels();
      gc();
      const before = process.memoryUsage().heapUsed;
      const error = await rejectionOf(client.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'hi' }], stream: true }));
      assert.ok(error instanceof GatewayError, String(error));
      assert.equal(error.code, 'bad_response');
      assert.equal(error.kind, 'bad_response');
      assert.match(error.message, /stream line longer than 16 MB/);
      assert.equal(error.partial?.content, 'Hello, world');
      assert.ok(sent < LIMIT_BYTES, `the client read to the end of ${sent} bytes instead of stopping at the cap`);
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      const growthMb = (peak - before) / 1024 / 1024;
      if (process.env.GATEWAY_MEM_DEBUG) console.log({ growthMb, sent });
      assert.ok(growthMb < 200, `heap grew by ${growthMb.toFixed(0)} MB`);
    } finally {
      clearInterval(sampler);
      await client.close();
    }
  });
});

describe('gateway: job ids made of dot segments', () => {
  let server: TestServer;
  let client: GatewayClient;

  before(async () => {
    server = await startServer((req, res) => {
      if (req.method === 'POST') return sendJson(res, 200, { id: '..', status: 'queued' });
      sendJson(res, 200, { id: decodeURIComponent(req.url?.split('/').pop() ?? ''), status: 'in_progress' });
    });
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-ids', maxRetries: 0 });
  });
  afterEach(() => client.close());

  for (const id of ['.', '..', 'a/../b', 'a\\..\\b', '%2e%2e', '%2E', '']) {
    it(`never puts ${JSON.stringify(id)} into the poll path`, async () => {
      const error = await rejectionOf(client.getVideo(id));
      assert.equal(error.code, 'bad_response');
      assert.match(error.message, /cannot be checked/);
      assert.equal(server.requests.length, 0);
    });
  }

  it('encodes every other id as one path segment', async () => {
    for (const id of ['vid_1', 'a/b', '...', 'x y?z#']) await client.getVideo(id);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/videos/generations/vid_1', '/v1/videos/generations/a%2Fb', '/v1/videos/generations/...', '/v1/videos/generations/x%20y%3Fz%23'],
    );
  });

  it('refuses a submitted job whose id is a dot segment, saying a job may exist', async () => {
    const error = await rejectionOf(client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'p' } }));
    assert.equal(error.code, 'bad_response');
    assert.equal(error.outcomeUnknown, true);
  });
});
