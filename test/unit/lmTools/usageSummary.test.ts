import * as assert from 'node:assert/strict';
import type { UsageRecord } from '../../../src/usage/core/recordTypes';
import { runTool, type ToolPorts } from '../../../src/lmTools/core/toolRunner';
import { TOOL_NAMES } from '../../../src/lmTools/core/toolSpecs';
import { monthUsage, usageText, type UsageSource } from '../../../src/lmTools/core/usageSummary';

const NOW = new Date(2026, 10, 26, 9, 0).getTime();

function record(model: string, time: number, cost?: number, tokens = 0): UsageRecord {
  const base = { time, profile: 'default', workspace: '', surface: 'chat', model, modality: 'chat' as const, outcome: 'ok' as const, inputTokens: tokens, outputTokens: 0 };
  return cost === undefined ? { ...base, costSource: 'unknown' } : { ...base, cost, costSource: 'reported' };
}

function source(records: UsageRecord[]): UsageSource & { asked: number[] } {
  const asked: number[] = [];
  return { asked, records: async (since) => (asked.push(since), records), now: () => NOW };
}

const signal = new AbortController().signal;
const ports = (usage?: UsageSource): ToolPorts => ({ media: () => assert.fail(), videos: () => assert.fail(), models: async () => [], defaultModel: () => undefined, ...(usage && { usage }) });

describe('gateway_usage_summary (this month from the usage ledger)', () => {
  it("reads this month only, by model, with the ledger's sums and wording", async () => {
    const ledger = source([
      record('model-k3', NOW - 3_600_000, 0.0123, 1200),
      record('model-k3', NOW - 7_200_000, 0.5, 34),
      record('model-5.2', NOW - 60_000, 0.004),
      record('model-old', new Date(2026, 9, 30).getTime(), 9),
    ]);
    const usage = await monthUsage(ledger);
    assert.deepEqual(ledger.asked, [new Date(2026, 10, 1).getTime()], 'reads from the first of the month');
    assert.deepEqual(
      usage.models.map((m) => [m.model, m.cost, m.requests, m.tokens]),
      [
        ['model-k3', '$0.51', 2, 1234],
        ['model-5.2', '$0.0040', 1, 0],
      ],
    );
    assert.equal(usage.total.cost, '$0.52');
    const text = usageText(usage);
    assert.match(text, /^Spend in November 2026 by model/);
    assert.match(text, /^- model-k3: \$0\.51 \(2 requests, 1,234 tokens\)$/m);
    assert.match(text, /^Total: \$0\.52 \(3 requests, 1,234 tokens\)$/m);
  });

  it('says an unknown cost as unknown, never $0.00, and a sum that leaves some out as "≥"', async () => {
    const usage = await monthUsage(source([record('model-image-1.0', NOW - 1000), record('model-k3', NOW - 2000, 0.02), record('model-k3', NOW - 3000)]));
    const image = usage.models.find((m) => m.model === 'model-image-1.0')!;
    assert.equal(image.cost, 'unknown');
    assert.equal(usage.models.find((m) => m.model === 'model-k3')!.cost, '≥ $0.02');
    assert.equal(usage.total.cost, '≥ $0.02');
    const text = usageText(usage);
    assert.doesNotMatch(text, /\$0\.00/);
    assert.match(text, /^- model-image-1\.0: unknown \(1 request\)$/m);
    assert.match(text, /^- model-k3: ≥ \$0\.02 \(2 requests; 1 of unknown cost\)$/m);
    assert.match(text, /"unknown" means the gateway published no price/);
  });

  it('runs as a read-only tool: no input, a clear answer for an empty month or no ledger', async () => {
    const empty = await runTool(TOOL_NAMES.usageSummary, {}, ports(source([])), signal);
    assert.deepEqual([empty.ok, empty.text], [true, 'No requests recorded in November 2026 (every window and profile of this machine).']);
    const bad = await runTool(TOOL_NAMES.usageSummary, { month: 'May' }, ports(source([])), signal);
    assert.deepEqual([bad.ok, bad.text], [false, 'Invalid input: gateway_usage_summary has no input "month"; it takes none.']);
    const notAnObject = await runTool(TOOL_NAMES.usageSummary, 'May', ports(source([])), signal);
    assert.equal(notAnObject.text, 'Invalid input: gateway_usage_summary takes an object such as {}.');
    const none = await runTool(TOOL_NAMES.usageSummary, {}, ports(), signal);
    assert.deepEqual([none.ok, none.text], [false, 'This window keeps no usage ledger.']);
    const failing = await runTool(TOOL_NAMES.usageSummary, {}, ports({ records: async () => Promise.reject(new Error('EACCES')), now: () => NOW }), signal);
    assert.deepEqual([failing.ok, failing.text], [false, 'Usage Summary failed: EACCES']);
  });
});
