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

// A key with the characters PHP's json_encode escapes ("/" as "\/"), so a body that echoes it does not contain it
// byte for byte; and messages long enough that the key straddles the 500-character clip point.
const KEY = 'sk-proj/Canary+9f8e7d6c/5b4a3928e17d';
const WINDOW = 8;

/** Any 8 characters of the key in a row: a clipped prefix counts as a leak. */
function leakIn(text: string): string | undefined {
  for (let i = 0; i + WINDOW <= KEY.length; i++) if (text.includes(KEY.slice(i, i + WINDOW))) return KEY.slice(i, i + WINDOW);
  return undefined;
}

function assertClean(error: unknown, where: string): GatewayError {
  assert.ok(error instanceof GatewayError, `${where}: ${String(error)}`);
  const fields = { message: error.message, code: error.code, param: error.param, type: error.type, requestId: error.requestId, inspect: inspect(error, { depth: Infinity }) };
  for (const [name, value] of Object.entries(fields)) {
    const leaked = leakIn(String(value ?? ''));
    assert.equal(leaked, undefined, `${where}: ${name} holds "${leaked}" of the key: ${String(value).slice(0, 120)}`);
  }
  return error;
}

// The key spans characters 480 to 516 of the message, across the 500-character clip.
const straddling = `Rejected: ${'x'.repeat(470)}${KEY}${'y'.repeat(100)}`;
const phpJson = (value: unknown): string => JSON.stringify(value).replace(/\//g, '\\/');

/** One error object with the key in one field only. */
const FIELD_CASES: Record<string, Record<string, string>> = {
  code: { message: 'Bad key.', code: `bad_key:${KEY}` },
  param: { message: 'Bad key.', code: 'invalid_api_key', param: KEY },
  type: { message: 'Bad key.', type: `auth ${KEY}` },
  'a message over 500 characters, the key across the clip': { message: straddling, code: 'invalid_api_key' },
};

/** Where the error object arrives: an HTTP error body (escaped as PHP does), a 200 body, a stream event or chunk. */
const SOURCES = ['401 body', '200 body', 'stream error event', 'stream error chunk'] as const;

describe('gateway: the key is redacted from the raw error body before parsing or clipping', () => {
  let server: TestServer;
  const lines: string[] = [];
  let client: GatewayClient;

  before(async () => {
    server = await startServer((req, res) => {
      const source = req.headers['x-source'];
      const error = FIELD_CASES[String(req.headers['x-field'])];
      if (source === '401 body') {
        res.writeHead(401, { 'content-type': 'application/json', 'x-request-id': `req ${KEY}` }).end(phpJson({ error }));
      } else if (source === '200 body') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
      } else if (source === 'stream error event') {
        sseHead(res);
        res.end(`${chunkFrame('so far')}event: error\ndata: ${JSON.stringify({ error })}\n\n`);
      } else {
        sseHead(res);
        res.end(`${chunkFrame('so far')}data: ${JSON.stringify({ error })}\n\n`);
      }
    });
  });
  after(() => server.close());
  beforeEach(() => {
    lines.length = 0;
    client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: KEY, maxRetries: 0, logger: { info: (m) => lines.push(m), warn: (m) => lines.push(m) } });
  });
  afterEach(() => client.close());

  for (const source of SOURCES) {
    for (const field of Object.keys(FIELD_CASES)) {
      it(`${source}: the key in ${field}`, async () => {
        const options = { headers: { 'x-source': source, 'x-field': field } };
        const call = source.startsWith('stream') ? client.chat({ ...REQUEST, stream: true }, options) : client.listModels(options);
        const error = assertClean(await call.catch((e: unknown) => e), source);
        if (field.startsWith('a message')) assert.match(error.message, /^Rejected: x{470}\[redacted key\]y+…$/);
        if (field === 'param') assert.equal(error.param, '[redacted key]');
        if (source.startsWith('stream')) assert.equal(error.partial?.content, 'so far');
        assert.ok(lines.length > 0);
        for (const line of lines) assert.equal(leakIn(line), undefined, `log line: ${line}`);
      });
    }
  }

  it('in a plain-text error body and an HTML page longer than the clip', async () => {
    for (const [type, body] of [['text/plain', straddling], ['text/html', `<html><title>${straddling}</title></html>`]]) {
      server.setHandler((_req, res) => void res.writeHead(502, { 'content-type': type }).end(body));
      const error = assertClean(await client.listModels().catch((e: unknown) => e), type);
      assert.match(error.message, /^HTTP 502 Bad Gateway.*Rejected: x+\[redacted/);
    }
  });
});
