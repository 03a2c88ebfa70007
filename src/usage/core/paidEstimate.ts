// What a paid request is expected to cost by the prices the usage feature knows, so a confirmation states the same
// figure the ledger will record. Pure.
import { countOf } from './numbers';
import { estimateCost, type PriceBook } from './prices';
import { estimateBeforeSending } from './record';
import { formatUsd } from './summary';

export type { PriceBook };

/** What a paid tool asks for, as far as pricing goes. */
export interface PaidAsk {
  kind: 'image' | 'video' | 'speech';
  model: string;
  /** The text a speech request speaks. */
  text?: string;
}

/**
 * The expected cost of one paid request, in words ("$0.04"), or undefined when a price or a figure it needs is
 * unknown (a video's length is the gateway's choice): never "$0.00" for what is not known.
 */
export function estimatedCostText(prices: PriceBook, ask: PaidAsk): string | undefined {
  const price = prices.priceOf(ask.model);
  let cost: number | undefined;
  if (ask.kind === 'image') cost = estimateBeforeSending({ operation: 'image', request: { n: 1 } }, price);
  else if (ask.kind === 'video') cost = estimateBeforeSending({ operation: 'video-submit', request: {} }, price);
  else {
    const chars = countOf(ask.text?.length, Number.MAX_SAFE_INTEGER);
    cost = chars === undefined ? undefined : estimateCost(price, { modality: 'speech', speechChars: chars });
  }
  return cost === undefined ? undefined : formatUsd(cost);
}
