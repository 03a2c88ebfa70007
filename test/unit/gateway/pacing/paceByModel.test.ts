// Pacing state is never wider than its evidence: budgets stated on an answer about one model hold that model only
// (OpenAI and Groq count per model), in this window, in another one and after a restart; 429s and the budgets of
// answers about no model hold the whole key. A wait over a minute offers to send anyway.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../../src/gateway/client';
import { PaceFile } from '../../../../src/gateway/paceFile';
import { Pacer, type PaceWait } from '../../../../src/gateway/pacer';
import { paceKeyFor } from '../../../../src/gateway/paceKey';
import { realClock } from '../../../../src/util/clock';
import { FakeClock } from '../../../util/fakeClock';
import { sendJson, startServer, type TestServer } from '../helpers/server';

const EIGHT_HOURS = { 'x-ratelimit-limit-requests': '200', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '7h59m' };
const COMPLETION = { id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] };
const WALL = 1_800_000_000_000;

function track<T>(promise: Promise<T>): { settled: () => boolean; value: Promise<T> } {
  let done = false;
  const value = promise.finally(() => (done = true));
  value.catch(() => undefined);
  return { settled: () => done, value };
}

describe('gateway pacing: by model', () => {
  let folder: string;
  let server: TestServer;
  /** The headers the next answers carry, by the model asked for ('' for answers about no model). */
  let limits: Record<string, Record<string, string>>;
  before(async () => {
    server = await startServer((req, res, received) => {
      const model = received.body ? String((JSON.parse(received.body) as { model?: string }).model ?? '') : '';
      const headers = limits[model] ?? {};
      if (req.url?.includes('/chat/completions')) return sendJson(res, 200, COMPLETION, headers);
      if (req.url?.includes('/videos/generations/')) return sendJson(res, 200, { id: 'job-1', status: 'queued' }, headers);
      return sendJson(res, 200, { data: [{ id: 'model-a' }, { id: 'model-b' }] }, headers);
    });
  });
  after(() => server.close());
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'pace-model-'));
    limits = {};
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function window(clock: FakeClock): { pacer: Pacer; client: GatewayClient; close: () => Promise<void> } {
    const pacer = new Pacer(clock, new PaceFile(join(folder, 'pace.json'), clock, realClock));
    const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-secret', clock, pacing: pacer.forKey(paceKeyFor(server.origin, 'sk-secret')) });
    return { pacer, client, close: async () => (await client.close(), await pacer.written(), pacer.dispose()) };
  }
  const chat = (client: GatewayClient, model: string) => client.chat({ model, messages: [{ role: 'user', content: 'hello' }] });
  /** A chat that is expected to wait: resolves `told` when it hears its wait (the pace file is real I/O). */
  function held(client: GatewayClient, model: string) {
    const waits: Array<PaceWait | undefined> = [];
    let heard!: () => void;
    const told = new Promise<void>((resolve) => (heard = resolve));
    const call = track(client.chat({ model, messages: [{ role: 'user', content: 'hello' }] }, { onPaceWait: (wait) => (waits.push(wait), wait && heard()) }));
    return { waits, call, told };
  }

  it("holds only that model when an answer about one model says it has no requests left, here, in another window and after a restart", async () => {
    const clock = new FakeClock(WALL);
    const a = window(clock);
    const other = new FakeClock(WALL + 1000);
    const b = window(other);
    try {
      limits['model-a'] = EIGHT_HOURS;
      await chat(a.client, 'model-a');
      await a.pacer.written();
      limits = {};
      const before = server.requests.length;
      // Another model, the model list and a video poll go at once, in this window and the other.
      for (const w of [a, b]) {
        await chat(w.client, 'model-b');
        await w.client.listModels();
        await w.client.getVideo('job-1', { pace: 'background' });
      }
      assert.equal(server.requests.length - before, 6);
      assert.equal(a.pacer.news(paceKeyFor(server.origin, 'sk-secret').id), undefined, 'the key as a whole is not rate limited');
      // The model that ran out waits, in both windows, and after a restart (a new window on the same file).
      const restarted = window(new FakeClock(WALL + 2000));
      // The gateway still says model-a has nothing left: an answer to a request sent anyway keeps it held elsewhere.
      limits['model-a'] = EIGHT_HOURS;
      try {
        for (const w of [a, b, restarted]) {
          const { waits, call, told } = held(w.client, 'model-a');
          await told;
          assert.equal(call.settled(), false, 'model-a waits for its reset');
          assert.equal(waits[0]?.reason, 'empty');
          assert.ok(waits[0]!.waitMs! > 7 * 3_600_000, `${waits[0]!.waitMs} ms`);
          // Over a minute: the user may send it anyway, and the gateway's answer decides.
          assert.equal(typeof waits[0]!.sendAnyway, 'function');
          const sent = server.requests.length;
          waits[0]!.sendAnyway!();
          await call.value;
          assert.equal(server.requests.length - sent, 1);
          assert.equal(waits.at(-1), undefined, 'told it went');
        }
      } finally {
        await restarted.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('holds every model when the evidence is about the key: a 429, or the budgets of an answer about no model', async () => {
    const clock = new FakeClock(WALL);
    const w = window(clock);
    try {
      limits[''] = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '30s' };
      await w.client.listModels();
      const first = held(w.client, 'model-b');
      await first.told;
      assert.equal(first.call.settled(), false);
      assert.deepEqual(first.waits, [{ waitMs: 30_000, reason: 'empty' }], 'a wait under a minute offers no sending anyway');
      await clock.advanceAsync(30_000);
      await first.call.value;
      // A 429 with a wait holds the key, whatever model it answered about.
      limits = {};
      const ticket = await w.pacer.admit(paceKeyFor(server.origin, 'sk-secret'), { model: 'model-a' });
      ticket.answered(429, { 'retry-after': '5' });
      const other = held(w.client, 'model-b');
      await other.told;
      assert.equal(other.call.settled(), false);
      assert.deepEqual(other.waits, [{ waitMs: 5000, reason: 'blocked' }]);
      await clock.advanceAsync(5000);
      await other.call.value;
    } finally {
      await w.close();
    }
  });

  it("does not believe the key-wide budgets of a pace file from a version that took one model's for the key; keeps its 429 waits and unknown fields", async () => {
    const file = join(folder, 'pace.json');
    const id = paceKeyFor(server.origin, 'sk-secret').id;
    const other = 'f'.repeat(32);
    const old = {
      version: 1,
      future: { kept: true },
      entries: {
        [id]: { origin: server.origin, observedAt: WALL, requests: { limit: 200, remaining: 0, reset: { at: WALL + 8 * 3_600_000, ms: 8 * 3_600_000 } } },
        [other]: { origin: 'https://other.example', observedAt: WALL, blocked: { at: WALL + 60_000, ms: 60_000 }, later: 'field' },
      },
    };
    writeFileSync(file, JSON.stringify(old));
    const clock = new FakeClock(WALL + 1000);
    const w = window(clock);
    try {
      const before = server.requests.length;
      await chat(w.client, 'model-a');
      assert.equal(server.requests.length - before, 1, 'an old entry of unknown scope holds nothing');
      limits['model-a'] = EIGHT_HOURS;
      await chat(w.client, 'model-a');
      await w.pacer.written();
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { future: unknown; entries: Record<string, Record<string, unknown>> };
      assert.deepEqual(stored.future, { kept: true });
      assert.equal(stored.entries[other]!.later, 'field');
      assert.deepEqual(stored.entries[other]!.blocked, old.entries[other]!.blocked);
      assert.equal(stored.entries[id]!.requests, undefined, 'the figures are the model\'s, not the key\'s');
      assert.deepEqual(Object.keys(stored.entries[id]!.models as object), ['model-a']);
    } finally {
      await w.close();
    }
    // An old entry's 429 wait still holds the key.
    writeFileSync(file, JSON.stringify({ version: 1, entries: { [id]: { origin: server.origin, observedAt: WALL + 5000, blocked: { at: WALL + 65_000, ms: 60_000 } } } }));
    const later = new FakeClock(WALL + 5000);
    const again = window(later);
    try {
      const blocked = held(again.client, 'model-b');
      await blocked.told;
      assert.equal(blocked.call.settled(), false);
      assert.equal(blocked.waits[0]?.reason, 'blocked');
      await later.advanceAsync(60_000);
      await blocked.call.value;
    } finally {
      await again.close();
    }
  });
});
