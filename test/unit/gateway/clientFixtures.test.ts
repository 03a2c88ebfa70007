// The fixtures end to end: each recorded stream or HTTP body is served by a loopback server and read through the
// real GatewayClient (undici, retries, error mapping).

import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { GatewayError } from '../../../src/gateway/errors';
import type { ChatResult } from '../../../src/gateway/types';
import { loadCases, type Expected, type ExpectedStreamResult, type FixtureCase } from './fixtures';
import { recordingSleep, startServer, type TestServer } from './helpers/server';

const cases = loadCases();
const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }] };

function expectedFirstChoice(result: ExpectedStreamResult) {
  const c = result.choices.find((choice) => choice.index === 0);
  return {
    content: c?.content ?? '',
    reasoning: c?.reasoning ?? '',
    refusal: c?.refusal ?? '',
    toolCalls: (c?.tool_calls ?? []).map((t) => ({ id: t.id, type: t.type, name: t.name, arguments: t.arguments })),
    finishReason: c?.finish_reason ?? null,
  };
}

function actualFirstChoice(result: ChatResult) {
  const { content, reasoning, refusal, toolCalls, finishReason } = result;
  return { content, reasoning, refusal, toolCalls, finishReason };
}

/** Splits a body by the recorded delivery lengths, or returns it whole. */
function chunksOf(fixture: FixtureCase, recorded: boolean): Buffer[] {
  const lengths = fixture.expected.delivery_chunk_byte_lengths;
  if (!recorded || !lengths) return [fixture.bytes];
  const out: Buffer[] = [];
  let at = 0;
  for (const n of lengths) {
    out.push(fixture.bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

const SKIPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'date', 'keep-alive']);

function recordedHeaders(expected: Expected): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(expected.headers ?? {})) {
    if (!SKIPPED_HEADERS.has(name.toLowerCase())) headers[name.toLowerCase()] = values[0];
  }
  return headers;
}

describe('gateway: GatewayClient end to end with the fixtures', function () {
  let server: TestServer;
  let current: { bytes: Buffer[]; status: number; headers: Record<string, string> } = { bytes: [], status: 200, headers: {} };

  before(async () => {
    server = await startServer(async (_req, res) => {
      res.writeHead(current.status, current.headers);
      for (const chunk of current.bytes) {
        res.write(chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
  });
  after(() => server.close());

  describe('streams (.sse) through chat({stream:true})', () => {
    for (const fixture of cases.filter((c) => c.expected.kind === 'chat-completions-stream')) {
      for (const recorded of fixture.expected.delivery_chunk_byte_lengths ? [false, true] : [false]) {
        it(`${fixture.name}${recorded ? ' (recorded chunks)' : ''}`, async () => {
          current = { bytes: chunksOf(fixture, recorded), status: 200, headers: { 'content-type': 'text/event-stream' } };
          const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test', maxRetries: 0 });
          const expected = fixture.expected.lenient_line_mode_result ?? fixture.expected.result!;
          let streamed = '';
          try {
            const outcome = await client
              .chat({ ...REQUEST, stream: true }, { onDelta: (d) => (streamed += d.content ?? '') })
              .then((result) => ({ result }), (error: unknown) => ({ error }));
            if (expected.error) {
              assert.ok('error' in outcome, 'expected the stream error to reject the call');
              const error = outcome.error as GatewayError;
              assert.ok(error instanceof GatewayError);
              const payload = expected.error.payload as { message: string; code: string | number | null; type: string };
              assert.equal(error.message, payload.message);
              assert.equal(error.code, payload.code === null ? payload.type : String(payload.code));
              // An error in band is the kind its code names (a numeric 400 is a bad request), else `upstream`.
              const inBandCode = Number(payload.code);
              assert.equal(error.kind, inBandCode >= 400 && inBandCode < 500 ? 'bad_request' : 'upstream');
              assert.equal(error.status, 0);
              assert.deepEqual(actualFirstChoice(error.partial!), expectedFirstChoice(expected));
              if (fixture.expected.expected_client_error) {
                assert.equal(error.message, fixture.expected.expected_client_error.message);
                assert.equal(error.code, fixture.expected.expected_client_error.code);
                assert.equal(error.type, fixture.expected.expected_client_error.type);
              }
            } else {
              assert.ok('result' in outcome, `expected success, got ${String((outcome as { error: unknown }).error)}`);
              const result = outcome.result;
              assert.deepEqual(actualFirstChoice(result), expectedFirstChoice(expected));
              assert.deepEqual(result.usage, expected.usage);
              assert.equal(result.id, expected.response_ids_seen[0] ?? '');
              assert.equal(result.model, expected.models_seen[0] ?? '');
              assert.equal(streamed, result.content);
            }
          } finally {
            await client.close();
          }
        });
      }
    }
  });

  describe('HTTP bodies (.body)', () => {
    for (const fixture of cases.filter((c) => c.expected.kind === 'http-response')) {
      const e = fixture.expected;
      const isGet = e.request === undefined ? e.status === 200 : e.request.startsWith('GET');
      it(`${fixture.name} via ${isGet ? 'listModels' : 'chat'}`, async () => {
        current = { bytes: [fixture.bytes], status: e.status!, headers: { 'content-type': 'application/json', ...recordedHeaders(e) } };
        const { waits, sleep } = recordingSleep();
        const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-test', sleep, random: () => 0 });
        const before = server.requests.length;
        try {
          const call = isGet ? client.listModels() : client.chat(REQUEST);
          if (e.status === 200) {
            const models = await call;
            assert.deepEqual(
              (models as Array<{ id: string }>).map((m) => m.id),
              e.model_ids ?? [],
            );
            return;
          }
          const error = (await call.then(
            () => assert.fail('expected an error'),
            (err: unknown) => err,
          )) as GatewayError;
          assert.ok(error instanceof GatewayError);
          const body = e.body_json as { error?: Record<string, unknown> } & Record<string, unknown>;
          const source = (body.error ?? body) as { message: string; code: string | number | null; type: string; param: string | null };
          assert.equal(error.status, e.status);
          assert.equal(error.message, source.message, 'the server message, not just the status');
          assert.equal(error.code, source.code === null ? source.type : String(source.code));
          assert.equal(error.type, source.type);
          const requestId = Object.entries(e.headers ?? {}).find(([name]) => name.toLowerCase() === 'x-request-id')?.[1][0];
          assert.equal(error.requestId, requestId);
          // The body's own code names the kind before the status does: OpenAI's quota 429 is out of credits, not a rate
          // limit, and never retried (unlike openai-node), since no wait brings credits back.
          const byCode: Record<string, string> = { insufficient_quota: 'credits', model_not_found: 'not_found' };
          const expectedKind = byCode[String(source.code ?? source.type)] ?? { 400: 'bad_request', 401: 'auth', 403: 'forbidden', 404: 'not_found', 429: 'rate_limit', 500: 'server' }[e.status!];
          assert.equal(error.kind, expectedKind);
          const shouldRetry = e.openai_node_should_retry && expectedKind !== 'credits';
          // Same retry decision as openai-node, with the same default backoff (0.5 s, then 1 s, with no jitter).
          const attempts = server.requests.length - before;
          if (shouldRetry) {
            assert.equal(attempts, 3);
            assert.deepEqual(waits, [500, 1000]);
          } else {
            assert.equal(attempts, 1);
            assert.deepEqual(waits, []);
          }
          assert.equal(error.attempts, attempts);
          assert.equal(error.retryable, shouldRetry);
        } finally {
          await client.close();
        }
      });
    }
  });
});
