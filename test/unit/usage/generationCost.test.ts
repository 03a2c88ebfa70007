// OpenRouter speech's cost, looked up afterwards by its X-Generation-Id (issue 36): the reader of `/generation`, its
// one bounded retry on the injected clock, the ledger's amendment line folded over the record it names (whichever
// window wrote either), and the recorder that writes the estimate first and amends it to the reported cost.
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayCallReport } from '../../../src/gateway/callReport';
import { BudgetMarks } from '../../../src/usage/core/budgetMarks';
import { generationCostOf, generationIdOf, generationUrl, GENERATION_RETRY_MS, lookUpGenerationCost } from '../../../src/usage/core/generationCost';
import { Ledger, monthOf } from '../../../src/usage/core/ledger';
import { decodeAmendment, encodeAmendment } from '../../../src/usage/core/ledgerAmendment';
import { decodeRecord, encodeRecord } from '../../../src/usage/core/ledgerLine';
import { PriceBook } from '../../../src/usage/core/prices';
import { UsageRecorder } from '../../../src/usage/core/usageRecorder';
import { readUsageSettings } from '../../../src/usage/core/usageSettings';
import { realClock } from '../../../src/util/clock';
import { FakeClock } from '../../util/fakeClock';
import { SAMPLE_TIME, sampleRecord } from './sample';

describe('usage: a speech cost looked up by its generation id', () => {
  describe('the /generation reader', () => {
    it('reads data.total_cost, and nothing odd', () => {
      assert.equal(generationCostOf({ data: { id: 'gen-1', total_cost: 0.00042, usage: 0.00042 } }), 0.00042);
      assert.equal(generationCostOf({ data: { total_cost: '0.5' } }), 0.5, 'plain decimal text');
      for (const odd of [undefined, null, [], 'x', {}, { data: [] }, { data: {} }, { data: { total_cost: -1 } }, { data: { total_cost: 1e9 } }, { data: { total_cost: '1e-3' } }, { total_cost: 0.1 }]) {
        assert.equal(generationCostOf(odd), undefined, JSON.stringify(odd));
      }
    });

    it('takes only a plain id from the header, and asks below the profile\'s base URL', () => {
      assert.equal(generationIdOf(' gen-1712345678-AbC_d.e:f '), 'gen-1712345678-AbC_d.e:f');
      for (const bad of [undefined, '', '   ', 'gen 1', 'gen/../x', 'a?b', 'x'.repeat(129), 'gén']) assert.equal(generationIdOf(bad), undefined, bad);
      assert.equal(generationUrl('https://openrouter.ai/api/v1', 'gen-1'), 'https://openrouter.ai/api/v1/generation?id=gen-1');
      assert.equal(generationUrl('http://127.0.0.1:8080/v1/', 'a:b'), 'http://127.0.0.1:8080/v1/generation?id=a%3Ab');
    });

    it('asks once, and once more after the wait when the figures are not there yet; never a third time', async () => {
      const clock = new FakeClock();
      const asked: number[] = [];
      const answers: Array<() => unknown> = [() => Promise.reject(new Error('HTTP 404')), () => ({ data: { total_cost: 0.0031 } })];
      const deps = {
        fetchJson: async () => (asked.push(clock.monotonic()), answers.shift()!()),
        wait: (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms)),
      };
      const start = clock.monotonic();
      const found = lookUpGenerationCost(deps, 'https://gw/generation?id=g');
      await clock.advanceAsync(GENERATION_RETRY_MS - 1);
      assert.equal(asked.length, 1, 'not retried before the wait');
      await clock.advanceAsync(1);
      assert.equal(await found, 0.0031);
      assert.deepEqual(asked, [start, start + GENERATION_RETRY_MS]);

      let calls = 0;
      const never = lookUpGenerationCost({ ...deps, fetchJson: async () => (calls++, { data: {} }) }, 'u');
      await clock.advanceAsync(GENERATION_RETRY_MS * 10);
      assert.equal(await never, undefined);
      assert.equal(calls, 2, 'one attempt and one retry');

      let once = 0;
      assert.equal(await lookUpGenerationCost({ ...deps, fetchJson: async () => (once++, { data: { total_cost: 0 } }) }, 'u'), 0, 'a reported zero is a cost');
      assert.equal(once, 1);
    });
  });

  describe('the ledger amendment', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-usage-amend-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('encodes an amendment on its own line, never read as a record', () => {
      const line = encodeAmendment({ record: 'r1', time: SAMPLE_TIME, cost: 0.0123, costSource: 'reported' });
      assert.deepEqual(decodeAmendment(line), { record: 'r1', time: SAMPLE_TIME, cost: 0.0123, costSource: 'reported' });
      assert.equal(decodeRecord(line), undefined);
      assert.equal(decodeAmendment(encodeRecord(sampleRecord())), undefined);
      for (const bad of [line.replace('"cs":"r"', '"cs":"e"'), line.replace('0.0123', '-1'), line.replace('"am":"r1"', '"am":7'), line.replace('"am":"r1"', '"am":""'), '{"am":"r1"}']) assert.equal(decodeAmendment(bad), undefined, bad);
      const withId = sampleRecord({ id: 'a1b2' });
      assert.deepEqual(decodeRecord(encodeRecord(withId)), withId, "a record's id round-trips");
    });

    it("folds another window's amendment over the record, in either order of reading, and leaves others alone", async () => {
      const a = new Ledger(dir, 'window-a');
      const b = new Ledger(dir, 'window-b');
      const reader = new Ledger(dir, 'reader');
      await a.append(sampleRecord({ id: 'r1', modality: 'speech', cost: 0.001, costSource: 'estimated' }));
      await a.append(sampleRecord({ modality: 'chat' }));
      assert.equal((await reader.read()).records.find((r) => r.id === 'r1')!.costSource, 'estimated', 'before the amendment');
      await b.amend({ record: 'r1', time: SAMPLE_TIME, cost: 0.0042, costSource: 'reported' });
      await b.amend({ record: 'nobody', time: SAMPLE_TIME, cost: 9, costSource: 'reported' });
      for (const ledger of [reader, new Ledger(dir, 'fresh')]) {
        const { records, damaged } = await ledger.read(SAMPLE_TIME);
        assert.deepEqual(damaged, []);
        assert.deepEqual(records.map((r) => [r.modality, r.costSource, r.cost]), [['speech', 'reported', 0.0042], ['chat', 'estimated', 0.000521]]);
      }
      assert.deepEqual(readdirSync(join(dir, 'usage', monthOf(SAMPLE_TIME))).sort(), ['window-a.jsonl', 'window-b.jsonl'], "each window wrote only its own file, in the record's month");
    });

    it('reads an amendment whose line was torn as damage, and the record stays as it was', async () => {
      const ledger = new Ledger(dir, 'w');
      await ledger.append(sampleRecord({ id: 'r1', cost: 0.001 }));
      appendFileSync(join(dir, 'usage', monthOf(SAMPLE_TIME), 'w.jsonl'), `${encodeAmendment({ record: 'r1', time: SAMPLE_TIME, cost: 5, costSource: 'reported' }).slice(0, 20)}\n`);
      const { records, damaged } = await new Ledger(dir, 'r').read();
      assert.equal(damaged.length, 1);
      assert.deepEqual(records.map((r) => [r.costSource, r.cost]), [['estimated', 0.001]]);
    });
  });

  describe('the recorder', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-usage-gen-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const speechReport = (headers: Record<string, string>, over: Partial<GatewayCallReport> = {}): GatewayCallReport => ({
      origin: 'https://openrouter.ai',
      profile: 'p-or',
      operation: 'speech',
      surface: 'speech',
      model: 'openai/gpt-4o-mini-tts',
      outcome: 'ok',
      speechChars: 100,
      header: (name) => headers[name],
      ...over,
    });

    function recorder(ledger: Ledger, lookup: (profile: string | undefined, id: string) => Promise<number | undefined>) {
      const recorded: Array<[string, number | undefined]> = [];
      const built = new UsageRecorder({
        ledger,
        clock: new FakeClock(SAMPLE_TIME),
        settings: () => readUsageSettings({ userValue: () => undefined, value: () => undefined }),
        prices: () => new PriceBook(new Map([['openai/gpt-4o-mini-tts', { speechChar: 0.00001 }]])),
        profile: (id) => ({ id: id ?? 'default', name: id ?? 'Default' }),
        workspace: () => 'ws',
        alerts: new BudgetMarks(ledger.folder, realClock),
        onBudgetAlert: () => undefined,
        onError: (error) => assert.fail(String(error)),
        generationCost: lookup,
      });
      built.onDidRecord((r) => recorded.push([r.costSource, r.cost]));
      return { built, recorded };
    }

    it('writes the estimate at once, then amends it to the cost the gateway reports for the generation', async () => {
      const ledger = new Ledger(dir, 'w');
      let release: (cost: number | undefined) => void = () => undefined;
      const asked: Array<[string | undefined, string]> = [];
      const { built, recorded } = recorder(ledger, (profile, id) => (asked.push([profile, id]), new Promise((resolve) => (release = resolve))));
      const record = await built.record(speechReport({ 'x-generation-id': 'gen-77' }));
      assert.deepEqual([record!.costSource, record!.cost!.toFixed(6)], ['estimated', '0.001000'], 'recorded before the lookup ends');
      assert.ok(record!.id, 'the record can be named by its amendment');
      assert.deepEqual(asked, [['p-or', 'gen-77']]);
      assert.deepEqual((await ledger.read()).records.map((r) => r.costSource), ['estimated']);
      release(0.00123);
      await built.lookedUp();
      assert.deepEqual((await new Ledger(dir, 'other-window').read()).records.map((r) => [r.costSource, r.cost, r.id]), [['reported', 0.00123, record!.id]]);
      assert.deepEqual(recorded.map(([source]) => source), ['estimated', 'reported'], 'the status bar and the dashboard hear of both');
    });

    it('looks nothing up without a generation id, for a cost already reported, or for a failed call; keeps the estimate when none is found', async () => {
      const ledger = new Ledger(dir, 'w');
      let asked = 0;
      const { built } = recorder(ledger, async () => (asked++, undefined));
      await built.record(speechReport({}));
      await built.record(speechReport({ 'x-generation-id': 'gen-1', 'x-litellm-response-cost': '0.5' }));
      await built.record(speechReport({ 'x-generation-id': 'gen-2' }, { outcome: 'error' }));
      await built.record(speechReport({ 'x-generation-id': 'gen/../../key' }));
      await built.record(speechReport({ 'x-generation-id': 'gen-3' }, { operation: 'image', images: { count: 1, bytes: 0 } }));
      await built.lookedUp();
      assert.equal(asked, 0);
      await built.record(speechReport({ 'x-generation-id': 'gen-4' }));
      await built.lookedUp();
      assert.equal(asked, 1);
      const records = (await ledger.read()).records;
      assert.deepEqual(records.map((r) => r.costSource), ['estimated', 'reported', 'unknown', 'estimated', 'unknown', 'estimated']);
      assert.deepEqual(records.map((r) => r.id !== undefined), [false, false, false, false, false, true], 'only a record that may be amended carries an id');
    });
  });
});
