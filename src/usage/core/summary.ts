// What the dashboard and the status bar show, computed from the records: spend and tokens per day stacked by
// model or modality, a table by model, profile, workspace or surface, and totals. A request of unknown cost adds
// nothing to a sum of money but is counted, so the sum is shown as "at least" and never passes for the whole.
import type { UsageRecord } from './recordTypes';

export const PERIODS = ['today', '7d', '30d', 'month', 'year', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const STACKS = ['model', 'modality'] as const;
export type StackBy = (typeof STACKS)[number];
export const GROUPS = ['model', 'profile', 'workspace', 'surface'] as const;
export type GroupBy = (typeof GROUPS)[number];

/** Sums of a set of records. */
export interface Totals {
  requests: number;
  errors: number;
  /** USD of the requests whose cost is known. */
  cost: number;
  /** Requests whose cost is unknown (their cost is not in `cost`). */
  unknownCost: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  images: number;
  videoSeconds: number;
  speechChars: number;
  audioSeconds: number;
}

export interface Series {
  name: string;
  /** USD per day, aligned with `days`. */
  cost: number[];
  /** Tokens (input + output) per day. */
  tokens: number[];
}

export interface UsageSummary {
  period: Period;
  stackBy: StackBy;
  groupBy: GroupBy;
  /** Local midnight of each day shown, epoch seconds (uPlot's x values). */
  days: number[];
  series: Series[];
  rows: Array<{ key: string } & Totals>;
  totals: Totals;
}

export function emptyTotals(): Totals {
  return { requests: 0, errors: 0, cost: 0, unknownCost: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, images: 0, videoSeconds: 0, speechChars: 0, audioSeconds: 0 };
}

export function addTo(totals: Totals, r: UsageRecord): void {
  totals.requests++;
  if (r.outcome === 'error') totals.errors++;
  if (r.costSource === 'unknown' || r.cost === undefined) totals.unknownCost++;
  else totals.cost += r.cost;
  totals.inputTokens += r.inputTokens ?? 0;
  totals.outputTokens += r.outputTokens ?? 0;
  totals.cachedTokens += r.cachedTokens ?? 0;
  totals.reasoningTokens += r.reasoningTokens ?? 0;
  totals.images += r.images ?? 0;
  totals.videoSeconds += r.videoSeconds ?? 0;
  totals.speechChars += r.speechChars ?? 0;
  totals.audioSeconds += r.audioSeconds ?? 0;
}

/** Local midnight of the day holding `time` (epoch ms). */
export function localDayStart(time: number): number {
  const d = new Date(time);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Local midnight of the first day of the month holding `time`. */
export function localMonthStart(time: number): number {
  const d = new Date(time);
  return new Date(d.getFullYear(), d.getMonth(), 1).getTime();
}

/** The first instant of a period ending now (epoch ms); 0 for all time. */
export function periodStart(period: Period, now: number): number {
  const today = localDayStart(now);
  switch (period) {
    case 'today':
      return today;
    case '7d':
      return localDayStart(today - 6 * 86_400_000 + 3_600_000 * 12);
    case '30d':
      return localDayStart(today - 29 * 86_400_000 + 3_600_000 * 12);
    case 'month':
      return localMonthStart(now);
    case 'year':
      return new Date(new Date(now).getFullYear(), 0, 1).getTime();
    case 'all':
      return 0;
  }
}

/** Most series drawn; the rest are summed into "other". */
const MAX_SERIES = 8;
/** Most days drawn (a ledger with a wild clock could span centuries). */
const MAX_DAYS = 800;

/** What requests that name no model were, by the surface (or operation) that sent them. */
const UNNAMED: Readonly<Record<string, string>> = {
  models: 'Model lists',
  'test-connection': 'Test Connection',
  'video-status': 'Video job checks',
};

/**
 * The row or series name of a record with no value for `field`: with no model, what the request was (a model list,
 * Test Connection), never a bare "(none)" that reads like a model.
 */
export function unnamedKey(r: Pick<UsageRecord, 'surface'>, field: string): string {
  if (field !== 'model') return '(none)';
  return UNNAMED[r.surface] ?? (r.surface ? `No model (${r.surface})` : 'No model');
}

/**
 * `profileName`: a profile's name now, by id. Grouped by profile, a record that carries its profile's id goes under
 * that profile's current name, so a renamed profile is one row; a deleted one, or a record from before ids were kept,
 * goes under the name it was recorded with.
 */
export function summarize(records: readonly UsageRecord[], options: { period: Period; stackBy: StackBy; groupBy: GroupBy; now: number; profileName?: (id: string) => string | undefined }): UsageSummary {
  const start = periodStart(options.period, options.now);
  const totals = emptyTotals();
  const rows = new Map<string, { key: string } & Totals>();
  const byStack = new Map<string, Map<number, { cost: number; tokens: number }>>();
  const stackCost = new Map<string, number>();
  let first = Infinity;
  let last = -Infinity;
  for (const r of records) {
    // A record from a clock that ran ahead stays out of "today" and the month, but counts in "all".
    if (r.time < start || (options.period !== 'all' && r.time > options.now + 86_400_000)) continue;
    addTo(totals, r);
    const key = (options.groupBy === 'profile' && r.profileId !== undefined && options.profileName?.(r.profileId)) || r[options.groupBy] || unnamedKey(r, options.groupBy);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { key, ...emptyTotals() }));
    addTo(row, r);
    const day = localDayStart(r.time);
    first = Math.min(first, day);
    last = Math.max(last, day);
    const name = (options.stackBy === 'model' ? r.model : r.modality) || unnamedKey(r, options.stackBy);
    let days = byStack.get(name);
    if (!days) byStack.set(name, (days = new Map()));
    const cell = days.get(day) ?? { cost: 0, tokens: 0 };
    const known = r.costSource === 'unknown' || r.cost === undefined ? 0 : r.cost;
    cell.cost += known;
    cell.tokens += (r.inputTokens ?? 0) + (r.outputTokens ?? 0);
    days.set(day, cell);
    stackCost.set(name, (stackCost.get(name) ?? 0) + known);
  }
  const from = options.period === 'all' ? first : Math.min(start, first);
  const to = Math.max(localDayStart(options.now), Number.isFinite(last) ? last : -Infinity);
  const days = Number.isFinite(from) ? dayList(from, to) : [localDayStart(options.now)];
  const names = [...byStack.keys()].sort((a, b) => (stackCost.get(b) ?? 0) - (stackCost.get(a) ?? 0) || a.localeCompare(b));
  const shown = names.slice(0, names.length > MAX_SERIES ? MAX_SERIES - 1 : MAX_SERIES);
  const series: Series[] = shown.map((name) => ({ name, cost: days.map(() => 0), tokens: days.map(() => 0) }));
  if (names.length > shown.length) series.push({ name: 'other', cost: days.map(() => 0), tokens: days.map(() => 0) });
  const index = new Map(days.map((d, i) => [d, i]));
  names.forEach((name, n) => {
    const target = series[Math.min(n, series.length - 1)]!;
    for (const [day, cell] of byStack.get(name)!) {
      const i = index.get(day);
      if (i === undefined) continue;
      target.cost[i]! += cell.cost;
      target.tokens[i]! += cell.tokens;
    }
  });
  return {
    period: options.period,
    stackBy: options.stackBy,
    groupBy: options.groupBy,
    days: days.map((d) => d / 1000),
    series,
    rows: [...rows.values()].sort((a, b) => b.cost - a.cost || b.requests - a.requests || a.key.localeCompare(b.key)),
    totals,
  };
}

/** Each local midnight from `from` to `to` (both local midnights), at most MAX_DAYS of them (the latest). */
function dayList(from: number, to: number): number[] {
  const days: number[] = [];
  for (let d = to; d >= from && days.length < MAX_DAYS; d = localDayStart(d - 12 * 3_600_000)) days.push(d);
  return days.reverse();
}

/** Whether a record is the profile's: by id, or by name for records written before ids were kept. */
export function isProfiles(record: Pick<UsageRecord, 'profile' | 'profileId'>, profile: { id: string; name: string }): boolean {
  return record.profileId !== undefined ? record.profileId === profile.id : record.profile === profile.name;
}

/** Spend for the status bar and the budget: today and this month, for one profile. */
export function spendOf(records: readonly UsageRecord[], profile: { id: string; name: string }, now: number): { today: Totals; month: Totals } {
  const today = emptyTotals();
  const month = emptyTotals();
  const dayStart = localDayStart(now);
  const monthStart = localMonthStart(now);
  for (const r of records) {
    if (!isProfiles(r, profile) || r.time < monthStart || r.time > now + 86_400_000) continue;
    addTo(month, r);
    if (r.time >= dayStart) addTo(today, r);
  }
  return { today, month };
}

/** USD as shown: "$1.23", "$0.0042" for small sums; an unknown part says so ("≥ $1.23", or "unknown"). */
export function formatCost(totals: Pick<Totals, 'cost' | 'unknownCost' | 'requests'>): string {
  if (totals.requests > 0 && totals.unknownCost === totals.requests) return 'unknown';
  const text = formatUsd(totals.cost);
  return totals.unknownCost > 0 ? `≥ ${text}` : text;
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  if (usd < 0.0001) return '< $0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
