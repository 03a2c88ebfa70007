// The Usage dashboard's messages, checked on both sides the way every webview's are (webviewProtocol.ts): the host
// trusts nothing the page sends (a webview is untrusted), and the page draws only a summary of the expected shape.
// Browser-safe: no Node, no vscode.
import { clip } from '../../chatProtocol/validate';
import { exactly, messageOf, optional, type Shapes } from '../../chatProtocol/webviewProtocol';
import { GROUPS, PERIODS, STACKS, type GroupBy, type Period, type StackBy, type Totals, type UsageSummary } from './summary';

export const USAGE_VIEW_TYPE = 'modelGateway.usage';

/** The page to the host. */
export type DashboardRequest = { type: 'ready' } | { type: 'query'; period: Period; stackBy: StackBy; groupBy: GroupBy } | { type: 'export' } | { type: 'clear' } | { type: 'openDamaged' };

/** The host to the page. */
/**
 * `budget`: the monthly budget of the profile `budgetOf` names (the window's), beside the totals of every profile;
 * `gateway`: what the window's profile's gateway itself says of the key's spend and limit, labelled as its own.
 */
export type DashboardUpdate = { type: 'summary'; summary: UsageSummary; damaged: number; budget?: number; budgetOf?: string; gateway?: string } | { type: 'problem'; message: string };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T => typeof value === 'string' && (values as readonly string[]).includes(value);

const MAX_DAYS = 1000;
const MAX_ROWS = 10_000;
const MAX_SERIES = 16;
const TOTAL_KEYS: ReadonlyArray<keyof Totals> = ['requests', 'errors', 'cost', 'unknownCost', 'inputTokens', 'outputTokens', 'cachedTokens', 'reasoningTokens', 'images', 'videoSeconds', 'speechChars', 'audioSeconds'];

const isAmount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isAmounts = (value: unknown, length: number): value is number[] => Array.isArray(value) && value.length === length && value.every(isAmount);
const MAX_TEXT = 512;
const isText = (value: unknown): value is string => typeof value === 'string' && value.length <= MAX_TEXT;
const isTotals = (value: unknown): value is Totals => isObject(value) && TOTAL_KEYS.every((key) => isAmount(value[key]));

/** A summary the page can draw: bounded, every figure a finite amount. */
function isSummary(s: unknown): s is UsageSummary {
  if (!isObject(s) || !oneOf(PERIODS, s.period) || !oneOf(STACKS, s.stackBy) || !oneOf(GROUPS, s.groupBy) || !isTotals(s.totals)) return false;
  const days = s.days;
  if (!Array.isArray(days) || days.length > MAX_DAYS || !days.every(isAmount)) return false;
  const series = s.series;
  if (!Array.isArray(series) || series.length > MAX_SERIES || !series.every((x) => isObject(x) && isText(x.name) && isAmounts(x.cost, days.length) && isAmounts(x.tokens, days.length))) return false;
  const rows = s.rows;
  return Array.isArray(rows) && rows.length <= MAX_ROWS && rows.every((row) => isObject(row) && isText(row.key) && isTotals(row));
}

const oneOfThese = <T extends string>(values: readonly T[]) => exactly((v): v is T => oneOf(values, v));

/** The dashboard's protocol: the page's requests and the host's updates. */
export const USAGE_SHAPES: { page: Shapes<DashboardRequest>; host: Shapes<DashboardUpdate> } = {
  page: { ready: {}, query: { period: oneOfThese(PERIODS), stackBy: oneOfThese(STACKS), groupBy: oneOfThese(GROUPS) }, export: {}, clear: {}, openDamaged: {} },
  host: {
    summary: { summary: exactly(isSummary), damaged: exactly(isAmount), budget: optional(exactly(isAmount)), budgetOf: optional(exactly(isText)), gateway: optional(exactly(isText)) },
    // A long error is cut to what the page shows.
    problem: { message: (v) => (typeof v === 'string' ? clip(v, MAX_TEXT) : undefined) },
  },
};

/** A request from the page, or undefined for anything else (which is dropped and logged by the caller). */
export function parseDashboardRequest(value: unknown): DashboardRequest | undefined {
  return messageOf<DashboardRequest>(value, USAGE_SHAPES.page);
}

/** An update from the host, or undefined when it is not one this page can draw. */
export function parseDashboardUpdate(value: unknown): DashboardUpdate | undefined {
  return messageOf<DashboardUpdate>(value, USAGE_SHAPES.host);
}
