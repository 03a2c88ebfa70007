// The one classifier over every error body the dialect card lists, at every status a gateway sends them with (200
// in band, 400, 402, 403, 429), each with and without Retry-After: the kind, the gateway's own words, whether the
// call was retried, and that only a rate limit feeds the pacer.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { failureKind, type FailureKind } from '../../../src/gateway/errors';
import { budgetFigures } from '../../../src/gateway/failureClassifier';
import { Pacer } from '../../../src/gateway/pacer';
import { paceKeyFor } from '../../../src/gateway/paceKey';
import { FakeClock } from '../../util/fakeClock';
import { rejectionOf } from './helpers/rejection';
import { chunkFrame, recordingSleep, sendJson, sseHead, startServer, type TestServer } from './helpers/server';

type Status = 200 | 400 | 402 | 403 | 429;
const STATUSES: readonly Status[] = [200, 400, 402, 403, 429];

/** What the status alone makes of a body that names no kind of its own. */
const BY_STATUS: Readonly<Record<Status, FailureKind>> = { 200: 'upstream', 400: 'bad_request', 402: 'credits', 403: 'forbidden', 429: 'rate_limit' };

interface Shape {
  name: string;
  body: unknown;
  /** The words of the gateway's that the message keeps. */
  words: string[];
  /** The kind at each status: one kind whatever the status, or what the status says. */
  kind: FailureKind | ((status: Status) => FailureKind);
}

const SHAPES: readonly Shape[] = [
  { name: 'OpenAI', body: { error: { message: 'Unsupported parameter: foo', type: 'invalid_request_error', param: 'foo', code: null } }, words: ['Unsupported parameter: foo'], kind: (s) => BY_STATUS[s] },
  { name: "OpenAI's quota (a 429 that is credits)", body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }, words: ['You exceeded your current quota'], kind: 'credits' },
  { name: "LiteLLM's budget_exceeded, code as a string", body: { error: { message: 'Budget has been exceeded! Current cost: 10.51, Max budget: 10.0', type: 'budget_exceeded', param: null, code: '429' } }, words: ['Current cost: 10.51'], kind: 'budget' },
  { name: "LiteLLM's end-user budget (type auth_error)", body: { error: { message: 'ExceededBudget: End User=ishaan3 over budget. Spend=0.00089, Budget=0.0001', type: 'auth_error', param: 'None', code: 400 } }, words: ['End User=ishaan3 over budget'], kind: 'budget' },
  { name: "OpenRouter's 402, numeric code", body: { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' } }, words: ['Insufficient credits'], kind: 'credits' },
  { name: "OpenRouter's 403 moderation, metadata", body: { error: { code: 403, message: 'Input was flagged', metadata: { reasons: ['violence', 'harassment'], flagged_input: 'some words…', provider_name: 'p', model_slug: 'm' } } }, words: ['Input was flagged'], kind: 'moderation' },
  { name: "OpenRouter's invalid key, numeric code", body: { error: { code: 401, message: 'User not found.' } }, words: ['User not found.'], kind: (s) => (s === 200 ? 'auth' : BY_STATUS[s]) },
  { name: "Portkey's own {status, message}", body: { status: 'failure', message: 'Invalid config passed: x-portkey-provider is missing' }, words: ['x-portkey-provider is missing'], kind: (s) => BY_STATUS[s] },
  { name: 'Express, message beside a string error', body: { error: 'Not Found', message: 'Cannot POST /v1/chat/completions' }, words: ['Cannot POST /v1/chat/completions', 'Not Found'], kind: (s) => BY_STATUS[s] },
  { name: "DashScope's output.code / output.message", body: { request_id: 'r-1', output: { task_status: 'FAILED', code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' } }, words: ['Input data may contain inappropriate content.'], kind: 'moderation' },
];

const REQUEST = { model: 'model-k3', messages: [{ role: 'user' as const, content: 'hi' }] };
const WALL = 1_800_000_000_000;

describe('gateway: one failure classifier', () => {
  let server: TestServer;
  let answer: { status: number; body: unknown; headers: Record<string, string> };
  before(async () => {
    server = await startServer((_req, res) => sendJson(res, answer.status, answer.body, answer.headers));
  });
  after(() => server.close());
  beforeEach(() => (server.requests.length = 0));

  for (const shape of SHAPES) {
    for (const status of STATUSES) {
      for (const retryAfter of [false, true]) {
        const expected = typeof shape.kind === 'function' ? shape.kind(status) : shape.kind;
        it(`${shape.name} at ${status}${retryAfter ? ' with Retry-After' : ''}: ${expected}`, async () => {
          answer = { status, body: shape.body, headers: retryAfter ? { 'retry-after': '1' } : {} };
          const recorder = recordingSleep();
          const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-classify', maxRetries: 1, sleep: recorder.sleep, random: () => 0 });
          try {
            const error = await rejectionOf(client.chat(REQUEST));
            assert.equal(error.kind, expected);
            assert.equal(failureKind(error), expected);
            for (const words of shape.words) assert.ok(error.message.includes(words), `"${error.message}" keeps "${words}"`);
            // Only a rate limit (or an HTTP status worth another try) is sent again; an answer in band never is.
            const retried = expected === 'rate_limit' && status === 429;
            assert.equal(server.requests.length, retried ? 2 : 1);
            if (status !== 200) assert.equal(error.retryAfterMs, retryAfter ? 1000 : undefined);
            if (expected === 'moderation' && shape.name.startsWith('OpenRouter')) assert.deepEqual(error.moderationReasons, ['violence', 'harassment']);
          } finally {
            await client.close();
          }
        });
      }
    }
  }

  it("an invalid key reported inside a streamed answer is a key problem, with the gateway's words", async () => {
    const streaming = await startServer((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('Hel') + `data: ${JSON.stringify({ error: { code: 401, message: 'User not found.' } })}\n\n`);
    });
    const client = new GatewayClient({ baseUrl: streaming.baseUrl, apiKey: 'sk-classify' });
    try {
      const error = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
      assert.equal(error.kind, 'auth');
      assert.equal(error.message, 'User not found.');
      assert.equal(error.partial?.content, 'Hel');
    } finally {
      await client.close();
      await streaming.close();
    }
  });

  it("an SSE error event after the generation started keeps OpenRouter's words and kind", async () => {
    const streaming = await startServer((_req, res) => {
      sseHead(res);
      res.end(chunkFrame('Hel') + `event: error\ndata: ${JSON.stringify({ error: { code: 502, message: 'Provider disconnected' } })}\n\n`);
    });
    const client = new GatewayClient({ baseUrl: streaming.baseUrl, apiKey: 'sk-classify' });
    try {
      const error = await rejectionOf(client.chat({ ...REQUEST, stream: true }));
      assert.equal(error.kind, 'server');
      assert.equal(error.message, 'Provider disconnected');
    } finally {
      await client.close();
      await streaming.close();
    }
  });

  it("LiteLLM's budget 429 with Retry-After does not pace the key: the next request goes at once", async () => {
    const clock = new FakeClock(WALL);
    const pacer = new Pacer(clock);
    const key = paceKeyFor(server.origin, 'sk-budget');
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-budget', clock, pacing: pacer.forKey(key) });
    try {
      answer = { status: 429, body: SHAPES[2]!.body, headers: { 'retry-after': '3600' } };
      const error = await rejectionOf(client.chat(REQUEST));
      assert.equal(error.kind, 'budget');
      assert.equal(server.requests.length, 1, 'never retried');
      assert.notEqual(pacer.news(key.id)?.kind, 'waiting');
      answer = { status: 200, body: { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }, headers: {} };
      // The fake clock never moves: a paced request would wait for ever.
      const result = await client.chat(REQUEST);
      assert.equal(result.content, 'ok');
      assert.equal(server.requests.length, 2);
    } finally {
      await client.close();
      pacer.dispose();
    }
  });

  it("a real rate limit's 429 with Retry-After still paces the key", async () => {
    const clock = new FakeClock(WALL);
    const pacer = new Pacer(clock);
    const key = paceKeyFor(server.origin, 'sk-rate');
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-rate', clock, maxRetries: 0, pacing: pacer.forKey(key) });
    try {
      answer = { status: 429, body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '3600' } };
      const error = await rejectionOf(client.chat(REQUEST));
      assert.equal(error.kind, 'rate_limit');
      assert.equal(pacer.news(key.id)?.kind, 'waiting');
    } finally {
      await client.close();
      pacer.dispose();
    }
  });

  it("reads a budget refusal's figures from LiteLLM's two wordings, and nothing from other words", () => {
    assert.deepEqual(budgetFigures('Budget has been exceeded! Current cost: 26.075, Max budget: 0.25'), { spent: 26.075, limit: 0.25 });
    assert.deepEqual(budgetFigures('ExceededBudget: End User=ishaan3 over budget. Spend=0.00089, Budget=0.0001'), { spent: 0.00089, limit: 0.0001 });
    assert.deepEqual(budgetFigures('Budget has been exceeded! Team=99c7'), {});
    assert.deepEqual(budgetFigures('Current cost: lots, Max budget: -'), {});
  });
});
