// The Usage dashboard's messages, checked on both sides: the host trusts nothing the page sends (a webview is
// untrusted), and the page draws only a summary of the expected shape. Browser-safe: no Node, no vscode.
import { GROUPS, PERIODS, STACKS, type GroupBy, type Period, type StackBy, type Totals, type UsageSummary } from './summary';
import { pageCsp } from '../../util/html';

export const USAGE_VIEW_TYPE = 'modelGateway.usage';

/** The dashboard page's Content-Security-Policy: its own nonce'd script and the resource root's styles, nothing else. */
export function usageCsp(nonce: string, cspSource: string): string {
  return pageCsp({ nonce, cspSource });
}

/** The page to the host. */
export type DashboardRequest = { type: 'ready' } | { type: 'query'; period: Period; stackBy: StackBy; groupBy: GroupBy } | { type: 'export' } | { type: 'clear' } | { type: 'openDamaged' };

/** The host to the page. */
/** `budget`: the monthly budget of the profile `budgetOf` names (the window's), beside the totals of every profile. */
export type DashboardUpdate = { type: 'summary'; summary: UsageSummary; damaged: number; budget?: number; budgetOf?: string } | { type: 'problem'; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T => typeof value === 'string' && (values as readonly string[]).includes(value);

/** A request from the page, or undefined for anything else (which is dropped and logged by the caller). */
export function parseDashboardRequest(value: unknown): DashboardRequest | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'ready':
    case 'export':
    case 'clear':
    case 'openDamaged':
      return Object.keys(value).length === 1 ? { type: value.type } : undefined;
    case 'query':
      return oneOf(PERIODS, value.period) && oneOf(STACKS, value.stackBy) && oneOf(GROUPS, value.groupBy) && Object.keys(value).length === 4
        ? { type: 'query', period: value.period, stackBy: value.stackBy, groupBy: value.groupBy }
        : undefined;
    default:
      return undefined;
  }
}

const MAX_DAYS = 1000;
const MAX_ROWS = 10_000;
const MAX_SERIES = 16;
const TOTAL_KEYS: ReadonlyArray<keyof Totals> = ['requests', 'errors', 'cost', 'unknownCost', 'inputTokens', 'outputTokens', 'cachedTokens', 'reasoningTokens', 'images', 'videoSeconds', 'speechChars'];

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isAmounts = (value: unknown, length: number): value is number[] => Array.isArray(value) && value.length === length && value.every(isAmount);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length <= 512;
const isTotals = (value: unknown): value is Totals => isObject(value) && TOTAL_KEYS.every((key) => isAmount(value[key]));

/** An update from the host, or undefined when it is not one this page can draw. */
export function parseDashboardUpdate(value: unknown): DashboardUpdate | undefined {
  if (!isObject(value)) return undefined;
  if (value.type === 'problem') return isText(value.message) ? { type: 'problem', message: value.message } : undefined;
  if (value.type !== 'summary' || !isAmount(value.damaged) || (value.budget !== undefined && !isAmount(value.budget)) || (value.budgetOf !== undefined && !isText(value.budgetOf))) return undefined;
  const s = value.summary;
  if (!isObject(s) || !oneOf(PERIODS, s.period) || !oneOf(STACKS, s.stackBy) || !oneOf(GROUPS, s.groupBy) || !isTotals(s.totals)) return undefined;
  const days = s.days;
  if (!Array.isArray(days) || days.length > MAX_DAYS || !days.every(isAmount)) return undefined;
  const series = s.series;
  if (!Array.isArray(series) || series.length > MAX_SERIES || !series.every((x) => isObject(x) && isText(x.name) && isAmounts(x.cost, days.length) && isAmounts(x.tokens, days.length))) return undefined;
  const rows = s.rows;
  if (!Array.isArray(rows) || rows.length > MAX_ROWS || !rows.every((row) => isObject(row) && isText(row.key) && isTotals(row))) return undefined;
  return { type: 'summary', summary: s as unknown as UsageSummary, damaged: value.damaged, ...(value.budget !== undefined && { budget: value.budget }), ...(value.budgetOf !== undefined && { budgetOf: value.budgetOf }) };
}
