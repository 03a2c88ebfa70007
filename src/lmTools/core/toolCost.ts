// A paid tool's expected cost, by the usage feature's prices (its core/api.ts): the same prices the ledger records
// the request at, so the confirmation and the ledger agree. Unknown (undefined) when no price is known. Pure.
import { estimatedCostText, type PriceBook } from '../../usage/core/api';
import type { ToolPorts } from './toolRunner';

/** The figure, or "unknown" with the reason there is none: a confirmation never leaves the user guessing why. */
export function costByPrices(prices: () => Promise<PriceBook>): NonNullable<ToolPorts['estimatedCost']> {
  return async (kind, model, text) => {
    if (kind === 'transcription') return "unknown: the gateway prices a transcript by the audio's length, which is known only after it is sent";
    if (!model) return `unknown: no ${kind} model is chosen, so no price applies (the gateway's first ${kind} model is used)`;
    const book = await prices();
    const figure = estimatedCostText(book, { kind, model, text });
    if (figure !== undefined) return figure;
    if (book.priceOf(model) === undefined) return "unknown: the gateway's model list gives no price for this model, and none is set in modelGateway.usage.prices";
    return kind === 'video' ? "unknown: the video's length is the gateway's to choose, and its price is per second" : 'unknown: the price listed for this model is not per request';
  };
}
