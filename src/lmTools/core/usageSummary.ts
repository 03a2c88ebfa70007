// This month's spend by model, for gateway_usage_summary and `@gateway /usage`. The sums and the money's wording are
// the usage ledger's own (usage/core/summary: summarize, formatCost), the same as the dashboard's and the status
// bar's, so a request of unknown cost reads "unknown" (or makes a sum "≥ …"), never $0.00. Pure.
import { formatCost, localMonthStart, summarize, type Totals, type UsageRecord } from '../../usage/core/api';

/** The ledger as the tools read it (every window's and every profile's records). */
export interface UsageSource {
  /** The records from `since` (epoch ms) on. */
  records(since: number): Promise<readonly UsageRecord[]>;
  now(): number;
}

export interface ModelSpend {
  model: string;
  /** As the ledger words it: "$0.0123", "≥ $0.01" (part unknown) or "unknown". */
  cost: string;
  requests: number;
  /** Requests whose cost is unknown. */
  unknownCost: number;
  tokens: number;
}

export interface MonthUsage {
  /** Local midnight of the month's first day, epoch ms. */
  since: number;
  models: ModelSpend[];
  total: Omit<ModelSpend, 'model'>;
}

function spendOf(totals: Totals): Omit<ModelSpend, 'model'> {
  return { cost: formatCost(totals), requests: totals.requests, unknownCost: totals.unknownCost, tokens: totals.inputTokens + totals.outputTokens };
}

export async function monthUsage(source: UsageSource): Promise<MonthUsage> {
  const now = source.now();
  const since = localMonthStart(now);
  const summary = summarize(await source.records(since), { period: 'month', stackBy: 'model', groupBy: 'model', now });
  return { since, models: summary.rows.map((row) => ({ model: row.key, ...spendOf(row) })), total: spendOf(summary.totals) };
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** One model's line: "model-k3: $0.0123 (4 requests, 1,234 tokens; 1 of unknown cost)". */
export function spendLine(spend: Omit<ModelSpend, 'model'>): string {
  const parts = [plural(spend.requests, 'request')];
  if (spend.tokens > 0) parts.push(plural(spend.tokens, 'token'));
  const unknown = spend.unknownCost > 0 && spend.unknownCost < spend.requests ? `; ${spend.unknownCost} of unknown cost` : '';
  return `${spend.cost} (${parts.join(', ')}${unknown})`;
}

/** The month's name as the summary says it ("November 2026"), in the machine's time zone like the ledger's months. */
export function monthName(since: number): string {
  return new Date(since).toLocaleString('en-US', { month: 'long', year: 'numeric' });
}

/** For the model: the month, each model's spend, the total, and what "unknown" means when it appears. */
export function usageText(usage: MonthUsage): string {
  const month = monthName(usage.since);
  if (usage.models.length === 0) return `No requests recorded in ${month} (every window and profile of this machine).`;
  const lines = [`Spend in ${month} by model (every window and profile of this machine):`, ...usage.models.map((m) => `- ${m.model}: ${spendLine(m)}`), `Total: ${spendLine(usage.total)}`];
  if (usage.total.unknownCost > 0) lines.push('"unknown" means the gateway published no price for those requests; "≥" means a sum leaves them out.');
  return lines.join('\n');
}
