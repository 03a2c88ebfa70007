// A paid tool's expected cost, by the usage feature's prices (its core/api.ts): the same prices the ledger records
// the request at, so the confirmation and the ledger agree. Unknown (undefined) when no price is known. Pure.
import { estimatedCostText, type PriceBook } from '../../usage/core/api';
import type { ToolPorts } from './toolRunner';

export function costByPrices(prices: () => Promise<PriceBook>): NonNullable<ToolPorts['estimatedCost']> {
  return async (kind, model, text) => (model && kind !== 'transcription' ? estimatedCostText(await prices(), { kind, model, text }) : undefined);
}
