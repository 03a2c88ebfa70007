// Prices per model, read from what the gateway's model lists say (OpenRouter's `pricing` block and its video list's
// `pricing_skus`, LiteLLM's `*_cost_per_*` fields, wherever the entry carries them) and overridden per model by `modelGateway.prices`.
// Every figure goes through numbers.ts: an odd one is dropped, so a cost is estimated from good prices or not at all.
import { isRecord } from '../../util/records';
import { amountOf, PRICE_LIMITS } from './numbers';

/** USD per unit. A missing field is an unknown price, never a zero one. */
export interface ModelPrice {
  /** Per input (prompt) token. */
  input?: number;
  /** Per output (completion) token. */
  output?: number;
  /** Per cached input token read (else the input price). */
  cacheRead?: number;
  /** Per generated image. */
  image?: number;
  /** Per request, whatever it holds. */
  request?: number;
  /** Per second of generated video. */
  videoSecond?: number;
  /** Per character of speech input. */
  speechChar?: number;
}

type PriceField = keyof ModelPrice;

const LIMIT_OF: Record<PriceField, number> = {
  input: PRICE_LIMITS.perToken,
  output: PRICE_LIMITS.perToken,
  cacheRead: PRICE_LIMITS.perToken,
  image: PRICE_LIMITS.perImage,
  request: PRICE_LIMITS.perRequest,
  videoSecond: PRICE_LIMITS.perSecond,
  speechChar: PRICE_LIMITS.perCharacter,
};

/** OpenRouter's `pricing` member names → ours. */
const OPENROUTER: ReadonlyArray<[string, PriceField]> = [
  ['prompt', 'input'],
  ['completion', 'output'],
  ['input_cache_read', 'cacheRead'],
  ['image', 'image'],
  ['request', 'request'],
];

/** LiteLLM's field names → ours. */
const LITELLM: ReadonlyArray<[string, PriceField]> = [
  ['input_cost_per_token', 'input'],
  ['output_cost_per_token', 'output'],
  ['cache_read_input_token_cost', 'cacheRead'],
  ['output_cost_per_image', 'image'],
  ['output_cost_per_second', 'videoSecond'],
  ['input_cost_per_character', 'speechChar'],
];

/** Our own names (the setting's), so `modelGateway.prices` reads like the rest of the extension. */
const OWN: ReadonlyArray<[string, PriceField]> = (Object.keys(LIMIT_OF) as PriceField[]).map((f) => [f, f]);

function readFields(source: Record<string, unknown>, names: ReadonlyArray<[string, PriceField]>, into: ModelPrice): void {
  for (const [name, field] of names) {
    if (!(name in source)) continue;
    const amount = amountOf(source[name], LIMIT_OF[field]);
    if (amount !== undefined) into[field] = amount;
  }
}

/** Whether any price is known. */
export function hasPrice(price: ModelPrice | undefined): price is ModelPrice {
  return price !== undefined && Object.values(price).some((v) => v !== undefined);
}

/**
 * The prices one /v1/models entry carries: OpenRouter's `pricing`, LiteLLM's fields at the top level or in
 * `model_info` (where LiteLLM's proxy puts them). Undefined when it carries none that can be believed.
 */
export function priceOfModelEntry(entry: unknown): ModelPrice | undefined {
  if (!isRecord(entry)) return undefined;
  const price: ModelPrice = {};
  if (isRecord(entry.pricing)) readFields(entry.pricing, OPENROUTER, price);
  readFields(entry, LITELLM, price);
  if (isRecord(entry.model_info)) readFields(entry.model_info, LITELLM, price);
  if (price.videoSecond === undefined && isRecord(entry.pricing_skus)) {
    const perSecond = videoSecondOfSkus(entry.pricing_skus);
    if (perSecond !== undefined) price.videoSecond = perSecond;
  }
  return hasPrice(price) ? price : undefined;
}

/** At most this many SKUs of one model are read: the list is the gateway's. */
const MAX_SKUS = 64;

/**
 * The per-second price of a video model in OpenRouter's /videos/models `pricing_skus` (strings by SKU name, e.g.
 * `duration_seconds_without_audio_720p: "0.03"` in USD, `cents_per_second_output: "12"` in cents). A model priced
 * per resolution or with audio has several: the highest is taken, so an estimate is never below what is charged.
 * SKUs priced by tokens or megapixels say nothing per second and are left out.
 */
export function videoSecondOfSkus(skus: Record<string, unknown>): number | undefined {
  let best: number | undefined;
  for (const [name, value] of Object.entries(skus).slice(0, MAX_SKUS)) {
    const key = name.toLowerCase();
    if (key.includes('megapixel') || key.includes('token')) continue;
    const cents = key.startsWith('cents_per_') && key.includes('second');
    if (!cents && !key.startsWith('duration_seconds')) continue;
    const amount = amountOf(value, cents ? LIMIT_OF.videoSecond * 100 : LIMIT_OF.videoSecond);
    if (amount === undefined) continue;
    const usd = cents ? amount / 100 : amount;
    best = best === undefined ? usd : Math.max(best, usd);
  }
  return best;
}

/** Reads `modelGateway.prices` (model id → prices, in our names or LiteLLM's); problems say what was ignored. */
export function readPriceSetting(value: unknown): { prices: Map<string, ModelPrice>; problems: string[] } {
  const prices = new Map<string, ModelPrice>();
  const problems: string[] = [];
  if (value === undefined || value === null) return { prices, problems };
  if (!isRecord(value)) return { prices, problems: ['modelGateway.prices must be an object of model ids.'] };
  for (const [model, raw] of Object.entries(value)) {
    if (!isRecord(raw)) {
      problems.push(`modelGateway.prices["${model}"] is not an object; ignored.`);
      continue;
    }
    const price: ModelPrice = {};
    readFields(raw, OWN, price);
    readFields(raw, LITELLM, price);
    const bad = Object.keys(raw).filter((k) => !OWN.some(([n]) => n === k) && !LITELLM.some(([n]) => n === k));
    const refused = [...OWN, ...LITELLM].filter(([n, f]) => n in raw && price[f] === undefined).map(([n]) => n);
    if (bad.length) problems.push(`modelGateway.prices["${model}"]: unknown field ${bad.join(', ')}.`);
    if (refused.length) problems.push(`modelGateway.prices["${model}"]: ${refused.join(', ')} must be a non-negative plain number; ignored.`);
    if (hasPrice(price)) prices.set(model, price);
  }
  return { prices, problems };
}

/** Prices by model: the user's setting first, field by field over the gateway's. */
export class PriceBook {
  constructor(
    private readonly fromGateway: ReadonlyMap<string, ModelPrice> = new Map(),
    private readonly fromUser: ReadonlyMap<string, ModelPrice> = new Map(),
  ) {}

  static fromModels(models: readonly unknown[], user: ReadonlyMap<string, ModelPrice> = new Map()): PriceBook {
    const gateway = new Map<string, ModelPrice>();
    for (const entry of models) {
      const price = priceOfModelEntry(entry);
      if (price && isRecord(entry) && typeof entry.id === 'string') gateway.set(entry.id, price);
    }
    return new PriceBook(gateway, user);
  }

  withUser(user: ReadonlyMap<string, ModelPrice>): PriceBook {
    return new PriceBook(this.fromGateway, user);
  }

  withGateway(gateway: ReadonlyMap<string, ModelPrice>): PriceBook {
    return new PriceBook(gateway, this.fromUser);
  }

  priceOf(model: string): ModelPrice | undefined {
    const merged: ModelPrice = { ...this.fromGateway.get(model), ...this.fromUser.get(model) };
    return hasPrice(merged) ? merged : undefined;
  }
}

/** What a finished request used, as far as pricing goes. */
export interface Consumption {
  modality: 'chat' | 'image' | 'video' | 'speech' | 'transcription';
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  images?: number;
  videoSeconds?: number;
  speechChars?: number;
}

/** The estimated USD cost, or undefined when a price or a figure it needs is unknown. */
export function estimateCost(price: ModelPrice | undefined, use: Consumption): number | undefined {
  if (!price) return undefined;
  const request = price.request ?? 0;
  const times = (rate: number | undefined, amount: number | undefined): number | undefined => (amount === 0 ? 0 : rate === undefined || amount === undefined ? undefined : rate * amount);
  let variable: number | undefined;
  switch (use.modality) {
    case 'chat': {
      if (use.inputTokens === undefined || use.outputTokens === undefined) return price.request !== undefined && price.input === undefined && price.output === undefined ? request : undefined;
      const cached = Math.min(use.cachedTokens ?? 0, use.inputTokens);
      const fresh = times(price.input, use.inputTokens - cached);
      const reused = times(price.cacheRead ?? price.input, cached);
      const out = times(price.output, use.outputTokens);
      variable = fresh === undefined || reused === undefined || out === undefined ? undefined : fresh + reused + out;
      break;
    }
    case 'image':
      variable = times(price.image, use.images);
      break;
    case 'video':
      variable = times(price.videoSecond, use.videoSeconds);
      break;
    case 'speech':
      variable = times(price.speechChar, use.speechChars);
      break;
  }
  if (variable === undefined) return undefined;
  return variable + request;
}
