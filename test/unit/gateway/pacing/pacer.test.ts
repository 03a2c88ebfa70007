// The pacer on a fake clock: requests wait for the reset and go at it, a wait can be cancelled, windows share the
// state through the pace file, a wall clock that steps cannot stretch a wait, and the client sends nothing while
// it waits.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../../src/gateway/client';
import { GatewayConnection, type ClientConfig } from '../../../../src/gateway/connection';
import { PaceFile } from '../../../../src/gateway/paceFile';
import { Pacer, type PaceTicket, type PaceWait } from '../../../../src/gateway/pacer';
import { paceKeyFor } from '../../../../src/gateway/paceKey';
import { realClock } from '../../../../src/util/clock';
import { FakeClock, settle } from '../../../util/fakeClock';
import { sendJson, startServer, type TestServer } from '../helpers/server';

const KEY = paceKeyFor('https://gw.example', 'sk-secret');
const EMPTY = { 'x-ratelimit-limit-requests': '60', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s' };

function track<T>(promise: Promise<T>): { settled: () => boolean; value: Promise<T> } {
  let done = false;
  const value = promise.finally(() => (done = true));
  value.catch(() => undefined);
  return { settled: () => done, value };
}

describe('gateway pacing: the pacer', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'pacer-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('names a key by a hash: the key itself is nowhere', () => {
    assert.equal(KEY.id.length, 32);
    assert.ok(!KEY.id.includes('secret'));
    assert.notEqual(paceKeyFor('https://gw.example', 'sk-other').id, KEY.id);
    assert.notEqual(paceKeyFor('https://other.example', 'sk-secret').id, KEY.id);
  });

  it('holds the next request until the reset, counting down, and lets it go then', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    const first = await pacer.admit(KEY, {});
    first.answered(200, EMPTY);
    assert.deepEqual(pacer.news(KEY.id), { kind: 'waiting', until: clock.now() + 20_000, reason: 'empty', unit: 'requests' });
    const waits: Array<PaceWait | undefined> = [];
    const next = track(pacer.admit(KEY, { onWait: (w) => waits.push(w) }));
    await settle();
    assert.deepEqual(waits, [{ waitMs: 20_000, reason: 'empty' }]);
    await clock.advanceAsync(19_999);
    assert.equal(next.settled(), false, 'nothing goes before the reset');
    await clock.advanceAsync(1);
    assert.equal(next.settled(), true);
    assert.deepEqual(waits, [{ waitMs: 20_000, reason: 'empty' }, undefined]);
    assert.equal(pacer.news(KEY.id), undefined);
    pacer.dispose();
  });

  it('lets a waiting request be cancelled', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    (await pacer.admit(KEY, {})).answered(429, { 'retry-after': '30' });
    const abort = new AbortController();
    const waits: Array<PaceWait | undefined> = [];
    const waiting = track(pacer.admit(KEY, { signal: abort.signal, onWait: (w) => waits.push(w) }));
    await settle();
    abort.abort(new Error('stopped by the user'));
    await assert.rejects(waiting.value, /stopped by the user/);
    assert.deepEqual(waits, [{ waitMs: 30_000, reason: 'blocked' }, undefined]);
    pacer.dispose();
  });

  it('shares the state with another window through the pace file, each wait no longer than it was stated', async () => {
    const file = join(folder, 'pacing.json');
    const clockA = new FakeClock(1_800_000_000_000);
    const a = new Pacer(clockA, new PaceFile(file, clockA, realClock));
    const ticket: PaceTicket = await a.admit(KEY, {});
    ticket.answered(200, EMPTY);
    await a.written();
    const stored = readFileSync(file, 'utf8');
    assert.ok(!stored.includes('sk-secret'), 'no key in the file');
    // The other window's wall clock is an hour behind (a step): its wait is still at most the 20 s stated.
    const clockB = new FakeClock(1_800_000_000_000 + 5000);
    clockB.stepWall(-3_600_000);
    const b = new Pacer(clockB, new PaceFile(file, clockB, realClock));
    const waits: Array<PaceWait | undefined> = [];
    let told!: () => void;
    const toldOnce = new Promise<void>((resolve) => (told = resolve));
    const next = track(b.admit(KEY, { onWait: (w) => (waits.push(w), told()) }));
    await toldOnce; // B reads the file (real I/O) before it decides
    assert.deepEqual(waits, [{ waitMs: 20_000, reason: 'empty' }]);
    await clockB.advanceAsync(20_000);
    assert.equal(next.settled(), true);
    a.dispose();
    b.dispose();
  });

  it('ignores a damaged pace file and replaces it on the next figures', async () => {
    const file = join(folder, 'pacing.json');
    writeFileSync(file, '{"entries": {"zz": 1, ');
    const clock = new FakeClock();
    const pacer = new Pacer(clock, new PaceFile(file, clock));
    const ticket = await pacer.admit(KEY, {});
    ticket.answered(200, EMPTY);
    await pacer.written();
    assert.ok(JSON.parse(readFileSync(file, 'utf8')).entries[KEY.id]);
    pacer.dispose();
  });

  it('does not take a stated wait beyond a day, nor nonsense, as a wait', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock);
    (await pacer.admit(KEY, {})).answered(200, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '900h' });
    (await pacer.admit(KEY, {})).answered(200, { 'x-ratelimit-remaining-requests': 'zero', 'x-ratelimit-reset-requests': '20s' });
    assert.equal(pacer.news(KEY.id), undefined);
    pacer.dispose();
  });

  it('puts the connection in the rate-limited state while nothing may go, and out of it at the reset', async () => {
    const clock = new FakeClock(1_000_000);
    const secrets = new Map<string, string>([['https://gw.example', 'sk-secret']]);
    const keys = { get: async (o: string) => secrets.get(o), has: async (o: string) => secrets.has(o), onDidChange: () => ({ dispose: () => undefined }) };
    const settings = { baseUrl: 'https://gw.example/v1', origin: 'https://gw.example', headers: {}, timeoutMs: 1000, idleTimeoutMs: 1000 };
    const answering = (config: ClientConfig) => ({
      listModels: async () => {
        const ticket = await config.pacing!.admit({});
        ticket.answered(200, EMPTY);
        return [];
      },
    });
    const connection = new GatewayConnection(settings, keys, answering as never, clock);
    await (await connection.api())!.listModels();
    assert.deepEqual(connection.state, { kind: 'rate-limited', origin: 'https://gw.example', until: 1_020_000, message: 'No requests left at gw.example until its limit resets.' });
    assert.deepEqual(connection.pace, { kind: 'waiting', until: 1_020_000, reason: 'empty', unit: 'requests' });
    await clock.advanceAsync(20_000);
    assert.deepEqual(connection.state, { kind: 'connected', origin: 'https://gw.example' });
    assert.equal(connection.pace, undefined);
    connection.dispose();
  });

  describe('with the client', () => {
    let server: TestServer;
    before(async () => (server = await startServer((_req, res) => sendJson(res, 200, { data: [] }, EMPTY))));
    after(() => server.close());

    it('sends nothing while it waits for the reset', async () => {
      const clock = new FakeClock();
      const pacer = new Pacer(clock);
      const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-secret', clock, pacing: pacer.forKey(paceKeyFor(server.origin, 'sk-secret')) });
      try {
        const before = server.requests.length;
        await client.listModels();
        const waits: Array<PaceWait | undefined> = [];
        const second = track(client.listModels({ onPaceWait: (w) => waits.push(w) }));
        await settle(20);
        assert.deepEqual(waits, [{ waitMs: 20_000, reason: 'empty' }]);
        assert.equal(second.settled(), false);
        assert.equal(server.requests.length - before, 1, 'the second request waits');
        await clock.advanceAsync(20_000);
        await second.value;
        assert.equal(server.requests.length - before, 2);
      } finally {
        await client.close();
        pacer.dispose();
      }
    });

    it('holds the retry after a 429 in the pacer, where the caller hears the wait', async () => {
      const clock = new FakeClock();
      const pacer = new Pacer(clock);
      const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-secret', clock, pacing: pacer.forKey(paceKeyFor(server.origin, 'sk-secret')) });
      let refused = false;
      server.setHandler((_req, res) => {
        if (refused) return sendJson(res, 200, { data: [] });
        refused = true;
        sendJson(res, 429, { error: { message: 'slow down', code: 'rate_limited' } }, { 'retry-after': '2' });
      });
      try {
        const before = server.requests.length;
        const waits: Array<PaceWait | undefined> = [];
        let told!: () => void;
        const toldOnce = new Promise<void>((resolve) => (told = resolve));
        const call = track(client.listModels({ onPaceWait: (w) => (waits.push(w), w && told()) }));
        await toldOnce;
        assert.deepEqual(waits, [{ waitMs: 2000, reason: 'blocked' }]);
        assert.equal(server.requests.length - before, 1);
        await clock.advanceAsync(2000);
        assert.deepEqual(await call.value, []);
        assert.equal(server.requests.length - before, 2);
      } finally {
        await client.close();
        pacer.dispose();
      }
    });
  });
});
