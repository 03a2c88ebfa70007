// The API key never leaks: not through inspect/JSON/toString of the client or its errors, not through log lines,
// not even when the server echoes it back in an error message.

import * as assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { GatewayClient } from '../../../src/gateway/client';
import type { RequestLogLine } from '../../../src/gateway/requestLog';
import { GatewayError } from '../../../src/gateway/errors';
import { chunkFrame, sendJson, sseHead, startServer, waitUntil, type TestServer } from './helpers/server';

const CANARY = 'sk-canary-7f3a9c1e5b2d4f60a8e9c7b6d5e4f3a2';
const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }] };

function assertNoCanary(value: unknown, where: string): void {
  const renderings = [
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    String(value),
    JSON.stringify(value) ?? '',
    value instanceof Error ? (value.stack ?? '') : '',
  ];
  for (const text of renderings) assert.ok(!text.includes(CANARY) && !text.includes(CANARY.slice(3)), `key leaked through ${where}: ${text.slice(0, 200)}`);
}

describe('gateway: the API key never leaks', () => {
  let server: TestServer;
  const structured: RequestLogLine[] = [];
  const text: string[] = [];

  before(async () => {
    server = await startServer((req, res) => {
      if (req.url === '/v1/models') {
        // Like api.openai.com, echo the rejected key back in the message.
        sendJson(res, 401, { error: { message: `Incorrect API key provided: ${CANARY}.`, code: 'invalid_api_key', key: CANARY } });
      } else {
        sseHead(res);
        res.write(chunkFrame('partial'));
      }
    });
  });
  after(() => server.close());

  it('in the client, its errors and its log lines', async () => {
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: CANARY, logger: { onRequest: (line) => structured.push(line) } });
    const textClient = new GatewayClient({
      baseUrl: server.baseUrl,
      apiKey: CANARY,
      logger: { info: (m) => text.push(m), warn: (m) => text.push(m) },
    });
    const refused = new GatewayClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: CANARY, maxRetries: 0 });
    try {
      assertNoCanary(client, 'the client before any request');
      const authError = await client.listModels().catch((e: unknown) => e);
      assert.ok(authError instanceof GatewayError);
      assert.equal(authError.status, 401);
      assert.match(authError.message, /Incorrect API key provided: \[redacted key\]/);
      assertNoCanary(authError, 'a 401 error');

      const controller = new AbortController();
      let received = '';
      const call = textClient.chat({ ...REQUEST, stream: true }, { signal: controller.signal, onDelta: (d) => (received += d.content ?? '') });
      await waitUntil(() => received === 'partial', 'the first delta');
      assertNoCanary(textClient, 'the client during a request');
      controller.abort();
      const aborted = await call.catch((e: unknown) => e);
      assertNoCanary(aborted, 'an aborted stream error');

      const network = await refused.listModels().catch((e: unknown) => e);
      assert.ok(network instanceof GatewayError);
      assertNoCanary(network, 'a network error');

      assert.ok(structured.length >= 1 && text.length >= 1);
      assertNoCanary(structured, 'structured log lines');
      assertNoCanary(text, 'text log lines');
      assert.ok(server.requests.every((r) => r.headers.authorization === `Bearer ${CANARY}`), 'the key is still sent to the gateway');
    } finally {
      await Promise.all([client.close(), textClient.close(), refused.close()]);
    }
  });

  it('log lines carry method, path, status, duration and request id', async () => {
    structured.length = 0;
    const ok = await startServer((_req, res) => sendJson(res, 200, { data: [] }, { 'x-request-id': 'req_log_1' }));
    const client = new GatewayClient({ baseUrl: ok.baseUrl, apiKey: CANARY, logger: { onRequest: (line) => structured.push(line) } });
    try {
      await client.listModels();
      assert.equal(structured.length, 1);
      const [line] = structured;
      assert.deepEqual(Object.keys(line).sort(), ['attempt', 'durationMs', 'method', 'path', 'requestId', 'status']);
      assert.equal(line.method, 'GET');
      assert.equal(line.path, '/v1/models');
      assert.equal(line.status, 200);
      assert.equal(line.requestId, 'req_log_1');
      assert.equal(line.attempt, 1);
      assert.equal(typeof line.durationMs, 'number');
    } finally {
      await client.close();
      await ok.close();
    }
  });
});
