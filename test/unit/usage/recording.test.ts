// From the connection's one report of every call to a record on disk: the headers of the answer, the surface the
// caller named, cancelled calls, a declined confirmation (nothing sent, nothing recorded), and the budget alert.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeyStore } from '../../../src/auth/core/apiKeyStore';
import { callReport } from '../../../src/gateway/callFigures';
import type { GatewayCallReport } from '../../../src/gateway/callReport';
import { GatewayConnection } from '../../../src/gateway/connection';
import { GatewayError } from '../../../src/gateway/errors';
import type { ChatOptions, GatewayApi, ImageRequest } from '../../../src/gateway/types';
import type { ProfileRef } from '../../../src/usage/core/budget';
import { BudgetMarks } from '../../../src/usage/core/budgetMarks';
import { Ledger } from '../../../src/usage/core/ledger';
import { PriceBook } from '../../../src/usage/core/prices';
import { UsageRecorder } from '../../../src/usage/core/usageRecorder';
import { readUsageSettings } from '../../../src/usage/core/usageSettings';
import { realClock } from '../../../src/util/clock';
import { FakeClock } from '../../util/fakeClock';

async function connected(api: GatewayApi): Promise<GatewayConnection> {
  const secrets = new Map<string, string>();
  const memento = new Map<string, unknown>();
  const keys = new ApiKeyStore(
    { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    { get: <T>(k: string) => memento.get(k) as T, update: async (k, v) => void memento.set(k, v) },
  );
  await keys.set('https://gw.example', 'sk-secret');
  return new GatewayConnection({ baseUrl: 'https://gw.example/v1', origin: 'https://gw.example', headers: {}, timeoutMs: 1000, idleTimeoutMs: 1000 }, keys, () => api, new FakeClock());
}

const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, prompt_tokens_details: { cached_tokens: 20 } };
const chatResult = { id: 'c', model: 'm', created: 1, content: 'secret words', reasoning: '', refusal: '', toolCalls: [], finishReason: 'stop', usage };

describe('usage recording through the connection', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-usage-rec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('publishes each finished call once, with the answer headers, the surface and the caller\'s name for it', async () => {
    let cancel = false;
    const api = {
      chat: async (_r: unknown, options?: ChatOptions) => {
        options?.onResponseHeaders?.((name) => (name === 'x-litellm-response-cost' ? '0.0042' : undefined));
        if (cancel) throw new GatewayError({ status: 0, code: 'aborted', message: 'aborted', partial: { ...chatResult, usage: null } });
        return chatResult;
      },
    } as unknown as GatewayApi;
    const connection = await connected(api);
    const reports: GatewayCallReport[] = [];
    connection.onDidFinishCall((r) => reports.push(callReport(r)));
    const gateway = (await connection.api())!;
    const answer = await gateway.chat({ model: 'm', messages: [] }, { surface: 'compare', callId: 'turn-1' });
    assert.equal(reports.length, 1, 'published before the caller sees the answer');
    assert.equal(answer.usage!.cost, undefined, 'the answer is the gateway\'s: no cost is written into it');
    cancel = true;
    await assert.rejects(gateway.chat({ model: 'm', messages: [] }));
    assert.deepEqual(reports.map((r) => [r.operation, r.surface, r.outcome, r.header('x-litellm-response-cost'), r.callId]), [
      ['chat', 'compare', 'ok', '0.0042', 'turn-1'],
      ['chat', undefined, 'cancelled', '0.0042', undefined],
    ]);
    connection.dispose();
  });

  it('sends nothing and records nothing when the confirmation is declined', async () => {
    const sent: ImageRequest[] = [];
    const api = { generateImage: async (r: ImageRequest) => (sent.push(r), { created: 1, images: [], rejected: [] }) } as unknown as GatewayApi;
    const connection = await connected(api);
    const reports: GatewayCallReport[] = [];
    const asked: string[] = [];
    connection.onDidFinishCall((r) => reports.push(callReport(r)));
    connection.setPaidCheck(async (call) => (asked.push(call.request.model), call.request.model === 'cheap'));
    const gateway = (await connection.api())!;
    await assert.rejects(gateway.generateImage({ model: 'dear', prompt: 'p' }), (e: GatewayError) => e.code === 'aborted');
    await gateway.generateImage({ model: 'cheap', prompt: 'p' });
    assert.deepEqual(asked, ['dear', 'cheap']);
    assert.deepEqual(sent.map((r) => r.model), ['cheap']);
    assert.deepEqual(reports.map((r) => r.model), ['cheap']);
    connection.dispose();
  });

  const report = (cost?: string, profile = 'default'): GatewayCallReport => ({ origin: 'o', profile, operation: 'chat', surface: 'chat', model: 'm', outcome: 'ok', usage, header: (n) => (n === 'x-litellm-response-cost' ? cost : undefined) });

  /** One window's recorder on the shared folder: its own ledger file, the shared alert marks. */
  function windowRecorder(name: string, clock: FakeClock, profiles: Record<string, ProfileRef>, alerts: Array<[string, number, string]>, monthlyBudget?: number): UsageRecorder {
    const settings = { ...readUsageSettings({ userValue: () => undefined, value: () => undefined }), monthlyBudget };
    const ledger = new Ledger(dir, name);
    return new UsageRecorder({
      ledger,
      clock,
      settings: () => settings,
      prices: () => new PriceBook(new Map([['m', { input: 0.000001, output: 0.00001, cacheRead: 0 }]])),
      profile: (id) => profiles[id ?? 'default']!,
      workspace: () => 'ws',
      // The marks' lock waits on real time: it is shared with other processes, whose files age in real time.
      alerts: new BudgetMarks(ledger.folder, realClock),
      onBudgetAlert: ({ threshold, profile }) => alerts.push([name, threshold, profile.name]),
      onError: (error) => assert.fail(String(error)),
    });
  }

  it('writes the record with the cost and its profile id, and alerts on the budget once', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const alerts: Array<[string, number, string]> = [];
    const recorder = windowRecorder('w', clock, { default: { id: 'default', name: 'Default' } }, alerts, 0.01);
    const estimated = await recorder.record(report());
    assert.equal(estimated!.cost!.toFixed(8), (80 * 0.000001 + 10 * 0.00001).toFixed(8));
    assert.deepEqual([estimated!.profile, estimated!.profileId], ['Default', 'default']);
    await recorder.record(report('0.0079'));
    await recorder.record(report('0.0002'));
    await recorder.record(report('0.0015'));
    assert.deepEqual(alerts.map(([, t]) => t), [0.8, 0.95]);
    const records = (await new Ledger(dir, 'reader').read()).records;
    assert.deepEqual(records.map((r) => r.costSource), ['estimated', 'reported', 'reported', 'reported']);
    assert.equal((await recorder.spend()).month.requests, 4);
    // A new month is a new period: the alerts come again.
    clock.advance(15 * 86_400_000);
    await recorder.record(report('0.02'));
    assert.deepEqual(alerts.map(([, t]) => t), [0.8, 0.95, 0.95]);
  });

  it("prices a request by its own profile's list, whichever profile is active", async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const ledger = new Ledger(dir, 'priced');
    const books: Record<string, PriceBook> = { default: new PriceBook(new Map()), 'p-1': new PriceBook(new Map([['m', { input: 0.000001, output: 0.00001, cacheRead: 0 }]])) };
    const asked: Array<string | undefined> = [];
    const recorder = new UsageRecorder({
      ledger,
      clock,
      settings: () => readUsageSettings({ userValue: () => undefined, value: () => undefined }),
      prices: (profile) => (asked.push(profile), books[profile ?? 'default']!),
      profile: (id) => ({ id: id ?? 'default', name: id ?? 'Default' }),
      workspace: () => 'ws',
      alerts: new BudgetMarks(ledger.folder, realClock),
      onBudgetAlert: () => undefined,
      onError: (error) => assert.fail(String(error)),
    });
    const work = await recorder.record(report(undefined, 'p-1'));
    assert.equal(work!.costSource, 'estimated');
    assert.equal(work!.cost!.toFixed(8), (80 * 0.000001 + 10 * 0.00001).toFixed(8));
    const active = await recorder.record(report(undefined, 'default'));
    assert.equal(active!.costSource, 'unknown', 'no price on its own list: unknown, not the other profile\'s');
    assert.deepEqual(asked, ['p-1', 'default']);
  });

  it("alerts on each profile's own budget, the setting's for a profile without one", async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const alerts: Array<[string, number, string]> = [];
    const profiles = { default: { id: 'default', name: 'Default' }, 'p-1': { id: 'p-1', name: 'Work', monthlyBudget: 1 }, 'p-2': { id: 'p-2', name: 'Off', monthlyBudget: 0 } };
    const recorder = windowRecorder('w', clock, profiles, alerts, 10);
    await recorder.record(report('0.85', 'p-1'));
    await recorder.record(report('5', 'p-2'));
    await recorder.record(report('5', 'default'));
    assert.deepEqual(alerts, [['w', 0.8, 'Work']], "Work's own budget of $1; Default's spend is under 80% of the setting's $10; Off has none");
    await recorder.record(report('3.5', 'default'));
    assert.deepEqual(alerts.at(-1), ['w', 0.8, 'Default']);
    assert.equal(recorder.budget(profiles['p-1']), 1);
  });

  it('alerts once per threshold across windows that record at the same moment', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const alerts: Array<[string, number, string]> = [];
    const profiles = { default: { id: 'default', name: 'Default', monthlyBudget: 1 } };
    const windows = ['a', 'b', 'c'].map((name) => windowRecorder(name, clock, profiles, alerts));
    // Every window's spend passes 80% and then 95% at once: each sees the threshold passed, one says so.
    await Promise.all(windows.map((w) => w.record(report('0.3'))));
    await Promise.all(windows.map((w) => w.record(report('0.03'))));
    assert.deepEqual(alerts.map(([, t]) => t).sort(), [0.8, 0.95]);
    assert.deepEqual(readdirSync(join(dir, 'usage')).filter((name) => !/^\d{4}-\d{2}$/.test(name)), ['alerts.json'], 'no lock left behind');
  });

  it("gives a chat its cost before the record is on disk: the ledger's sync is not on the chat's path", async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 20, 12));
    const ledger = new Ledger(dir, 'w');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const append = ledger.append.bind(ledger);
    ledger.append = async (record) => (await gate, append(record));
    const settings = readUsageSettings({ userValue: () => undefined, value: () => undefined });
    const recorder = new UsageRecorder({
      ledger,
      clock,
      settings: () => settings,
      prices: () => new PriceBook(new Map()),
      profile: () => ({ id: 'default', name: 'Default' }),
      workspace: () => 'ws',
      alerts: new BudgetMarks(ledger.folder, realClock),
      onBudgetAlert: () => assert.fail('no budget'),
      onError: (error) => assert.fail(String(error)),
    });
    void recorder.record({ ...report('0.0042'), callId: 'turn-1' });
    assert.equal(await recorder.costOf('turn-1'), 0.0042, 'the cost comes while the write is held');
    assert.equal(await recorder.costOf('turn-1'), undefined, 'handed out once');
    assert.equal(await recorder.costOf('never-made'), undefined);
    assert.deepEqual((await new Ledger(dir, 'reader').read()).records, []);
    open();
    await recorder.settled();
    assert.equal((await new Ledger(dir, 'reader').read()).records.length, 1, 'and the record is still written');
  });
});
