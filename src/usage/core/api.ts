// The usage feature from the outside: what other features (and the webview pages) may import of it; the layering
// test refuses any other file. Types and pure helpers only: the records and the ledger's reading side, the summary
// and how costs are written, the dashboard's messages, and the service the feature offers at run time (UsageApi,
// which usage/vscode/feature.ts implements). Browser code imports it, so nothing here loads Node.
import type { Ledger } from './ledger';

export type { Ledger, LedgerSnapshot } from './ledger';
export type { Modality, UsageRecord } from './recordTypes';
export { formatCost, formatUsd, GROUPS, localMonthStart, PERIODS, STACKS, summarize, type GroupBy, type Period, type StackBy, type Totals, type UsageSummary } from './summary';
export { parseDashboardUpdate, type DashboardRequest, type DashboardUpdate } from './dashboardProtocol';
export { estimatedCostText, type PaidAsk, type PriceBook } from './paidEstimate';
import type { PriceBook as Prices } from './paidEstimate';

/** What the usage feature does for other features at run time (usage/vscode/feature.ts builds it at activation). */
export interface UsageApi {
  /**
   * The known cost (USD) of a finished call its caller named (RequestOptions.callId), as the ledger records it;
   * undefined when unknown. Handed out once per call; ask after the call has finished.
   */
  costOf(callId: string): Promise<number | undefined>;
  /** The ledger's reading side (the chat tools' usage summary); the usage service loads on the first use. */
  ledger(): Pick<Ledger, 'read'>;
  /** The prices the ledger records by (the gateway's model list and the user's setting), for a paid request's estimate. */
  prices(): Promise<Prices>;
}
