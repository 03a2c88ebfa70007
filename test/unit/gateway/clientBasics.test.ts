// GatewayClient requests and responses: paths, headers, result assembly, and error bodies of every shape.

import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { rejectionOf } from './helpers/rejection';
import type { ChatDelta } from '../../../src/gateway/types';
import { chunkFrame, DONE_FRAME, finishFrame, sendJson, sseHead, startServer, type Handler, type TestServer } from './helpers/server';

const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }] };


describe('gateway: GatewayClient requests and results', () => {
  let server: TestServer;
  let client: GatewayClient;
  const serve = (handler: Handler): void => server.setHandler(handler);

  before(async () => {
    server = await startServer((_req, res) => sendJson(res, 200, {}));
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-basics', maxRetries: 0 });
  });
  afterEach(() => client.close());

  it('accepts a base URL with or without a trailing slash', async () => {
    serve((_req, res) => sendJson(res, 200, { object: 'list', data: [] }));
    const slashed = new GatewayClient({ baseUrl: `${server.baseUrl}/`, apiKey: 'k1' });
    await slashed.listModels();
    await client.listModels();
    await slashed.close();
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.url}`),
      ['GET /v1/models', 'GET /v1/models'],
    );
  });

  it('sends the key as a bearer token, JSON headers, and extra headers', async () => {
    serve((_req, res) => sendJson(res, 200, { id: 'c', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
    const withHeaders = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-h', headers: { 'x-team': 'a' } });
    await withHeaders.chat(REQUEST, { headers: { 'x-trace': 't1', Authorization: 'Bearer evil', ACCEPT: 'text/plain' } });
    await withHeaders.close();
    const [req] = server.requests;
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer sk-h', 'one Authorization header, the client key');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers.accept, 'application/json');
    assert.equal(req.headers['x-team'], 'a');
    assert.equal(req.headers['x-trace'], 't1');
    assert.deepEqual(JSON.parse(req.body), REQUEST);
  });

  it('builds the ChatResult from a non-streamed completion and reports it once through onDelta', async () => {
    serve((_req, res) =>
      sendJson(res, 200, {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        created: 7,
        model: 'model-5.2',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              reasoning_content: 'think',
              tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
      }),
    );
    const deltas: ChatDelta[] = [];
    const result = await client.chat(REQUEST, { onDelta: (d) => deltas.push(d) });
    assert.deepEqual(result, {
      id: 'chatcmpl-x',
      model: 'model-5.2',
      created: 7,
      content: '',
      reasoning: 'think',
      refusal: '',
      toolCalls: [{ id: 'call_1', type: 'function', name: 'f', arguments: '{"a":1}' }],
      finishReason: 'tool_calls',
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    });
    assert.deepEqual(deltas, [{ reasoning: 'think', toolCalls: [{ index: 0, id: 'call_1', type: 'function', name: 'f', arguments: '{"a":1}' }] }]);
  });

  it('streams deltas in order and asks for an event stream', async () => {
    serve((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('Hel') + chunkFrame('lo') + finishFrame() + DONE_FRAME);
    });
    const pieces: string[] = [];
    const result = await client.chat({ ...REQUEST, stream: true }, { onDelta: (d) => pieces.push(d.content ?? '') });
    assert.equal(server.requests[0].headers.accept, 'text/event-stream');
    assert.deepEqual(pieces, ['Hel', 'lo']);
    assert.equal(result.content, 'Hello');
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.id, 'chatcmpl-1');
  });

  it('reads a JSON completion when a stream was asked for but the server answered with JSON', async () => {
    serve((_req, res) => sendJson(res, 200, { id: 'j', choices: [{ index: 0, message: { content: 'whole' }, finish_reason: 'stop' }] }));
    const result = await client.chat({ ...REQUEST, stream: true });
    assert.equal(result.content, 'whole');
  });

  it('accepts a stream that ends after finish_reason without [DONE]', async () => {
    serve((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('done') + finishFrame('length'));
    });
    const result = await client.chat({ ...REQUEST, stream: true });
    assert.equal(result.content, 'done');
    assert.equal(result.finishReason, 'length');
  });

  it('fails with stream_interrupted and the partial reply when the stream ends early', async () => {
    serve((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('half a'));
    });
    const error = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
    assert.equal(error.code, 'stream_interrupted');
    assert.equal(error.kind, 'interrupted');
    assert.equal(error.partial?.content, 'half a');
  });

  it('fails with bad_response for an empty stream and for an event that is not JSON', async () => {
    serve((_req, res) => {
      sseHead(res);
      res.end();
    });
    const empty = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
    assert.equal(empty.code, 'bad_response');
    serve((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('ok ') + 'data: {"choices":[{"delta":{"content":"oops\n\n');
    });
    const broken = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
    assert.equal(broken.code, 'bad_response');
    assert.equal(broken.partial?.content, 'ok ');
  });

  it('treats a missing or null data array as no models, and keeps only entries with an id', async () => {
    serve((_req, res) => sendJson(res, 200, { object: 'list' }));
    assert.deepEqual(await client.listModels(), []);
    serve((_req, res) => sendJson(res, 200, { object: 'list', data: [{ id: 'a', object: 'model' }, { object: 'model' }, null] }));
    assert.deepEqual(await client.listModels(), [{ id: 'a', object: 'model' }]);
  });

  it('asks for every modality, LiteLLM\'s /model/info (naming entries by model_name) and the video list on their paths', async () => {
    serve((req, res) =>
      req.url === '/v1/model/info'
        ? sendJson(res, 200, { data: [{ model_name: 'house', model_info: { mode: 'audio_speech' } }, { model_info: {} }] })
        : sendJson(res, 200, { data: [{ id: 'm', object: 'model' }] }),
    );
    await client.listModels({ allModalities: true });
    const info = await client.listModels({ list: 'modelInfo' });
    await client.listModels({ list: 'videoModels' });
    assert.deepEqual(
      server.requests.map((r) => r.url),
      ['/v1/models?output_modalities=all', '/v1/model/info', '/v1/videos/models'],
    );
    assert.deepEqual(info, [{ id: 'house', model_name: 'house', model_info: { mode: 'audio_speech' } }]);
  });

  it('submits and polls video jobs on the spec paths', async () => {
    serve((req, res) =>
      req.method === 'POST'
        ? sendJson(res, 200, { id: 'job/1', object: 'video.generation.job', status: 'queued' })
        : sendJson(res, 200, { id: 'job/1', status: 'completed', data: [{ url: 'http://x/v.mp4' }] }),
    );
    const job = await client.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'a cat' }, parameters: { duration: 5 } });
    assert.equal(job.status, 'queued');
    const polled = await client.getVideo(job.id);
    assert.equal(polled.data?.[0].url, 'http://x/v.mp4');
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.url}`),
      ['POST /v1/videos/generations', 'GET /v1/videos/generations/job%2F1'],
    );
    assert.equal(JSON.parse(server.requests[0].body).input.prompt, 'a cat');
  });

  describe('error bodies', () => {
    const cases: Array<{ name: string; status: number; type: string; body: string; headers?: Record<string, string>; message: RegExp; code: string; kind: string }> = [
      {
        name: 'spec shape',
        status: 401,
        type: 'application/json',
        body: '{"error":{"code":"unauthorized","message":"unauthorized","type":"error"}}',
        message: /^unauthorized$/,
        code: 'unauthorized',
        kind: 'auth',
      },
      {
        name: 'flat vLLM/Mistral object with a numeric code',
        status: 404,
        type: 'application/json',
        body: '{"object":"error","message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}',
        message: /^The model `x` does not exist\.$/,
        code: '404',
        kind: 'not_found',
      },
      {
        name: 'nginx HTML page',
        status: 502,
        type: 'text/html',
        body: '<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center></body></html>',
        message: /502 Bad Gateway/,
        code: 'http_502',
        kind: 'server',
      },
      { name: 'empty body', status: 503, type: 'application/json', body: '', message: /HTTP 503 Service Unavailable/, code: 'http_503', kind: 'server' },
      { name: 'plain text', status: 403, type: 'text/plain', body: 'Key disabled by the administrator\n', message: /Key disabled by the administrator/, code: 'http_403', kind: 'forbidden' },
      { name: 'error as a string', status: 400, type: 'application/json', body: '{"error":"model is required"}', message: /^model is required$/, code: 'http_400', kind: 'bad_request' },
    ];
    for (const c of cases) {
      it(`reads the ${c.name}`, async () => {
        serve((_req, res) => {
          res.writeHead(c.status, { 'content-type': c.type, 'x-request-id': 'req_42' });
          res.end(c.body);
        });
        const error = await rejectionOf(client.listModels());
        assert.equal(error.status, c.status);
        assert.match(error.message, c.message);
        assert.notEqual(error.message.trim(), String(c.status));
        assert.equal(error.code, c.code);
        assert.equal(error.kind, c.kind);
        assert.equal(error.requestId, 'req_42');
      });
    }

    it('takes the request id from request-id when x-request-id is absent', async () => {
      serve((_req, res) => sendJson(res, 404, { error: { message: 'no such job', code: 'not_found' } }, { 'request-id': 'r-9' }));
      const error = await rejectionOf(client.getVideo('nope'));
      assert.equal(error.requestId, 'r-9');
      assert.equal(error.kind, 'not_found');
    });

    it('fails a chat stream whose 200 body carries an error event, keeping the partial reply', async () => {
      serve((_req, res) => {
        sseHead(res);
        res.end(chunkFrame('so far') + 'event: error\ndata: {"error":{"message":"upstream died","code":"upstream_error"}}\n\n');
      });
      const error = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
      assert.equal(error.message, 'upstream died');
      assert.equal(error.code, 'upstream_error');
      assert.equal(error.kind, 'upstream');
      assert.equal(error.partial?.content, 'so far');
    });
  });
});
