import * as assert from 'node:assert/strict';
import { budgetAlert, budgetFor, budgetPeriod } from '../../../src/usage/core/budget';
import { parseDashboardRequest, parseDashboardUpdate } from '../../../src/usage/core/dashboardProtocol';
import { formatCost, localDayStart, spendOf, summarize } from '../../../src/usage/core/summary';
import { readUsageSettings } from '../../../src/usage/core/usageSettings';
import { sampleRecord } from './sample';

const NOW = new Date(2026, 10, 20, 15).getTime();
const DAY = 86_400_000;

describe('usage summaries', () => {
  const records = [
    sampleRecord({ time: NOW - 1000, model: 'a', cost: 1, inputTokens: 10, outputTokens: 5 }),
    sampleRecord({ time: NOW - DAY, model: 'b', modality: 'image', cost: 2, inputTokens: undefined, outputTokens: undefined, images: 3 }),
    sampleRecord({ time: NOW - 2 * DAY, model: 'a', cost: undefined, costSource: 'unknown', inputTokens: 1, outputTokens: 1, profile: 'work' }),
    sampleRecord({ time: NOW - 400 * DAY, model: 'old', cost: 50 }),
    sampleRecord({ time: NOW + 900 * DAY, model: 'future', cost: 70 }),
  ];

  it('names rows and series with no model by what the requests were, never "(none)"', () => {
    const unnamed = [
      sampleRecord({ time: NOW - 1000, model: '', surface: 'models', cost: 0 }),
      sampleRecord({ time: NOW - 1000, model: '', surface: 'test-connection', cost: 0 }),
      sampleRecord({ time: NOW - 1000, model: '', surface: 'odd', cost: 0 }),
    ];
    const s = summarize(unnamed, { period: '7d', stackBy: 'model', groupBy: 'model', now: NOW });
    assert.deepEqual(s.rows.map((r) => r.key).sort(), ['Model lists', 'No model (odd)', 'Test Connection']);
    assert.deepEqual(s.series.map((x) => x.name).sort(), ['Model lists', 'No model (odd)', 'Test Connection']);
  });

  it('sums spend and tokens per day, stacked by model, within the period', () => {
    const s = summarize(records, { period: '7d', stackBy: 'model', groupBy: 'model', now: NOW });
    assert.equal(s.days.length, 7);
    assert.equal(s.days[6], localDayStart(NOW) / 1000);
    assert.deepEqual(s.series.map((x) => x.name), ['b', 'a']);
    const a = s.series.find((x) => x.name === 'a')!;
    assert.equal(a.cost[6], 1);
    assert.equal(a.tokens[6], 15);
    assert.equal(a.tokens[4], 2);
    assert.equal(s.totals.requests, 3);
    assert.equal(s.totals.cost, 3);
    assert.equal(s.totals.unknownCost, 1);
    assert.equal(formatCost(s.totals), '≥ $3.00');
    const chartSum = s.series.reduce((sum, x) => sum + x.cost.reduce((p, c) => p + c, 0), 0);
    assert.equal(chartSum, s.totals.cost, 'the chart and the totals agree');
  });

  it('stacks by modality and groups the table by any dimension', () => {
    const s = summarize(records, { period: '30d', stackBy: 'modality', groupBy: 'profile', now: NOW });
    assert.deepEqual(s.series.map((x) => x.name).sort(), ['chat', 'image']);
    assert.deepEqual(s.rows.map((r) => [r.key, r.requests]), [['default', 2], ['work', 1]]);
  });

  it("groups a renamed profile's records in one row under its name now; a deleted profile's and old records under the name recorded", () => {
    const renamed = [
      sampleRecord({ time: NOW, profile: 'Work', profileId: 'p-1', cost: 2 }),
      sampleRecord({ time: NOW, profile: 'Clients', profileId: 'p-1', cost: 4 }),
      sampleRecord({ time: NOW, profile: 'Old', profileId: 'p-gone', cost: 8 }),
      sampleRecord({ time: NOW, profile: 'Legacy', cost: 16 }),
    ];
    const names: Record<string, string> = { 'p-1': 'Clients' };
    const s = summarize(renamed, { period: '30d', stackBy: 'model', groupBy: 'profile', now: NOW, profileName: (id) => names[id] });
    assert.deepEqual(s.rows.map((r) => [r.key, r.cost]), [['Legacy', 16], ['Old', 8], ['Clients', 6]]);
  });

  it('keeps a clock that jumped out of bounded periods, and bounds the days drawn for all time', () => {
    const all = summarize(records, { period: 'all', stackBy: 'model', groupBy: 'model', now: NOW });
    assert.equal(all.totals.requests, 5);
    assert.ok(all.days.length <= 800);
    assert.equal(summarize(records, { period: 'year', stackBy: 'model', groupBy: 'model', now: NOW }).totals.requests, 3);
  });

  it('gives the status bar today and this month for one profile; unknown is never $0.00', () => {
    const { today, month } = spendOf(records, { id: 'default', name: 'default' }, NOW);
    assert.equal(today.cost, 1);
    assert.equal(month.requests, 2);
    // A profile is followed by its id through a rename; records written before ids were kept match by name.
    const work = [sampleRecord({ time: NOW, profile: 'Work', cost: 1 }), sampleRecord({ time: NOW, profile: 'Work', profileId: 'p-1', cost: 2 }), sampleRecord({ time: NOW, profile: 'Clients', profileId: 'p-1', cost: 4 }), sampleRecord({ time: NOW, profile: 'Clients', profileId: 'p-2', cost: 8 })];
    assert.equal(spendOf(work, { id: 'p-1', name: 'Clients' }, NOW).month.cost, 6);
    assert.equal(spendOf(work, { id: 'p-1', name: 'Work' }, NOW).month.cost, 7);
    assert.equal(formatCost({ cost: 0, unknownCost: 2, requests: 2 }), 'unknown');
    assert.equal(formatCost({ cost: 0, unknownCost: 0, requests: 0 }), '$0.00');
    assert.equal(formatCost({ cost: 0.0042, unknownCost: 0, requests: 1 }), '$0.0042');
  });
});

describe('usage dashboard protocol', () => {
  it('takes only the requests it knows from the page', () => {
    assert.deepEqual(parseDashboardRequest({ type: 'query', period: '7d', stackBy: 'model', groupBy: 'surface' }), { type: 'query', period: '7d', stackBy: 'model', groupBy: 'surface' });
    for (const bad of [null, 'ready', { type: 'query', period: 'ever', stackBy: 'model', groupBy: 'model' }, { type: 'export', path: '/etc/passwd' }, { type: 'run' }]) assert.equal(parseDashboardRequest(bad), undefined);
  });

  it('draws only a summary of the expected shape', () => {
    const summary = summarize([sampleRecord({ time: NOW })], { period: '7d', stackBy: 'model', groupBy: 'model', now: NOW });
    const update = JSON.parse(JSON.stringify({ type: 'summary', summary, damaged: 0 }));
    assert.ok(parseDashboardUpdate(update));
    assert.equal(parseDashboardUpdate({ ...update, summary: { ...summary, series: [{ name: 'x', cost: [1], tokens: [1] }] } }), undefined);
    assert.equal(parseDashboardUpdate({ ...update, summary: { ...summary, totals: { ...summary.totals, cost: -1 } } }), undefined);
    assert.deepEqual(parseDashboardUpdate({ type: 'problem', message: 'x' }), { type: 'problem', message: 'x' });
    const budgeted = parseDashboardUpdate({ ...update, budget: 25, budgetOf: 'Work' });
    assert.deepEqual(budgeted?.type === 'summary' && [budgeted.budget, budgeted.budgetOf], [25, 'Work'], 'the budget says whose it is');
    assert.equal(parseDashboardUpdate({ ...update, budget: 25, budgetOf: 'x'.repeat(600) }), undefined);
  });
});

describe('usage budget and settings', () => {
  it('alerts at 80% and 95% once each; both at once gives the higher', () => {
    const given = new Set<number>();
    const alert = (spent: number) => {
      const a = budgetAlert(spent, 100, (t) => given.has(t));
      a?.passed.forEach((t) => given.add(t));
      return a?.threshold;
    };
    assert.equal(alert(50), undefined);
    assert.equal(alert(81), 0.8);
    assert.equal(alert(85), undefined);
    assert.equal(alert(96), 0.95);
    assert.equal(alert(99), undefined);
    given.clear();
    assert.equal(alert(120), 0.95);
    assert.equal(alert(130), undefined);
    assert.equal(budgetAlert(1000, undefined, () => false), undefined);
  });

  it("takes the profile's own budget, else the setting's; 0 turns a profile's alerts off", () => {
    assert.equal(budgetFor({ monthlyBudget: 20 }, 100), 20);
    assert.equal(budgetFor({}, 100), 100);
    assert.equal(budgetFor({}, undefined), undefined);
    assert.equal(budgetFor({ monthlyBudget: 0 }, 100), undefined);
    assert.equal(budgetFor({ monthlyBudget: Number.NaN }, 100), undefined);
    assert.equal(budgetPeriod(new Date(2026, 0, 31, 23, 59).getTime()), '2026-01');
    assert.equal(budgetPeriod(new Date(2026, 1, 1, 0, 0).getTime()), '2026-02');
  });

  it('reads the settings at user level, refusing odd values', () => {
    const user: Record<string, unknown> = { 'modelGateway.usage.costHeader': 'X-Cost', 'modelGateway.usage.monthlyBudget': -5, 'modelGateway.prices': { m: { input: 0.000001 } } };
    const s = readUsageSettings({ userValue: <T>(k: string) => user[k] as T, value: <T>(k: string) => user[k] as T });
    assert.equal(s.costHeader, 'x-cost');
    assert.equal(s.monthlyBudget, undefined);
    assert.equal(s.retentionDays, 400);
    assert.deepEqual(s.prices.get('m'), { input: 0.000001 });
    assert.equal(s.problems.length, 1);
    const bad = readUsageSettings({ userValue: <T>(k: string) => ({ 'modelGateway.usage.costHeader': 'a b\r\nx' })[k] as T, value: () => undefined });
    assert.equal(bad.costHeader, 'x-litellm-response-cost');
  });

  it('takes no retention, price, budget or threshold from a cloned repository\'s settings', () => {
    const workspace: Record<string, unknown> = {
      'modelGateway.usage.retentionDays': 1,
      'modelGateway.usage.monthlyBudget': 1_000_000,
      'modelGateway.usage.confirmPaidAbove': 1_000_000,
      'modelGateway.prices': { m: { input: 0 } },
    };
    const s = readUsageSettings({ userValue: () => undefined, value: <T>(k: string) => workspace[k] as T });
    assert.equal(s.retentionDays, 400);
    assert.equal(s.monthlyBudget, undefined);
    assert.equal(s.confirmAbove, undefined);
    assert.equal(s.prices.size, 0);
  });
});
