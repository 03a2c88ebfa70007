// A 10 MB reply streams in bounded memory: the client keeps the assembled text, not the raw events.

import * as assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GatewayClient } from '../../../src/gateway/client';
import { DONE_FRAME, finishFrame, sendJson, sseHead, startServer, type TestServer } from './helpers/server';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PIECE = 'abcdefghij'.repeat(10); // 100 characters
const CHUNKS = 100_000; // 10 MB of content, about 23 MB of SSE

function frame(i: number): string {
  const content = PIECE.slice(0, 94) + String(i % 1_000_000).padStart(6, '0');
  return `data: {"id":"chatcmpl-big","object":"chat.completion.chunk","created":1,"model":"model-k3","choices":[{"index":0,"delta":{"content":"${content}"},"finish_reason":null}]}\n\n`;
}

describe('gateway: memory', function () {
  this.timeout(60_000);
  let server: TestServer;
  let wireBytes = 0;

  before(async () => {
    server = await startServer(async (req, res) => {
      if (req.url === '/v1/models') {
        sendJson(res, 200, { data: [] });
        return;
      }
      wireBytes = 0;
      sseHead(res);
      let batch = '';
      for (let i = 0; i < CHUNKS; i++) {
        batch += frame(i);
        if (batch.length > 256 * 1024) {
          wireBytes += batch.length;
          if (!res.write(batch)) await new Promise((resolve) => res.once('drain', resolve));
          batch = '';
        }
      }
      batch += finishFrame() + DONE_FRAME;
      wireBytes += batch.length;
      res.end(batch);
    });
  });
  after(() => server.close());

  it('keeps heap growth close to the size of the assembled content', async () => {
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-mem' });
    try {
      await client.listModels(); // load undici before measuring
      gc();
      const before = process.memoryUsage().heapUsed;
      let deltas = 0;
      const result = await client.chat(
        { model: 'model-k3', messages: [{ role: 'user', content: '[long]' }], stream: true },
        { onDelta: () => deltas++ },
      );
      assert.equal(result.content.length, CHUNKS * 100);
      assert.equal(result.content.slice(-6), String((CHUNKS - 1) % 1_000_000).padStart(6, '0'));
      assert.equal(deltas, CHUNKS);
      gc();
      const growth = process.memoryUsage().heapUsed - before;
      const contentBytes = result.content.length;
      // Keeping the raw event text would retain over 2.3× the content; the assembled reply alone is about 1×.
      assert.ok(wireBytes > 2.3 * contentBytes);
      if (process.env.GATEWAY_MEM_DEBUG) console.log({ growth, contentBytes, wireBytes });
      assert.ok(growth < 1.6 * contentBytes, `heap grew ${(growth / 1e6).toFixed(1)} MB for ${(contentBytes / 1e6).toFixed(1)} MB of content`);
    } finally {
      await client.close();
    }
  });
});
