// The usage feature from the outside: what other features (and the webview pages) may import of it; the layering
// test refuses any other file. Types and pure helpers only: the records and the ledger's reading side, the summary
// and how costs are written, and the dashboard's messages. Browser code imports it, so nothing here loads Node.
export type { Ledger, LedgerSnapshot } from './ledger';
export type { Modality, UsageRecord } from './recordTypes';
export { formatCost, formatUsd, GROUPS, localMonthStart, PERIODS, STACKS, summarize, type GroupBy, type Period, type StackBy, type Totals, type UsageSummary } from './summary';
export { parseDashboardUpdate, type DashboardRequest, type DashboardUpdate } from './dashboardProtocol';
export { estimatedCostText, type PaidAsk, type PriceBook } from './paidEstimate';
