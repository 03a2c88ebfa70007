// OpenRouter's speech answer carries no cost, only an `X-Generation-Id` header (../shared/spec/dialects.md, "Where
// cost is reported"): the cost is looked up afterwards with `GET /generation?id=` on the profile's own gateway,
// whose answer has `data.total_cost` (USD). The generation's figures can lag the answer by a second or two, so a
// lookup that finds none tries once more after a short wait, then gives up (the record stays estimated). Pure:
// the fetch and the wait come in.
import { isRecord } from '../../util/records';
import { amountOf, MAX_REPORTED_COST } from './numbers';

/** The answer header that names the generation (lower case, as the call report reads headers). */
export const GENERATION_HEADER = 'x-generation-id';
/** The wait before the one retry: long enough for the gateway to have written the generation's figures. */
export const GENERATION_RETRY_MS = 2_500;
/** The most of a `/generation` answer that is read (a few hundred bytes are expected). */
export const GENERATION_ANSWER_LIMIT = 64 * 1024;
const MAX_ID_CHARS = 128;
/** Letters, digits and `-_.:`: what generation ids are made of; anything else is not sent back to the gateway. */
const ID = /^[A-Za-z0-9._:-]+$/;

/** The generation id of an answer header, or undefined when there is none or it is not a plain id. */
export function generationIdOf(header: string | undefined): string | undefined {
  const id = header?.trim();
  return id && id.length <= MAX_ID_CHARS && ID.test(id) ? id : undefined;
}

/** Where to look a generation up: below the profile's base URL (which ends in `/api/v1` on OpenRouter). */
export function generationUrl(baseUrl: string, id: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/generation?id=${encodeURIComponent(id)}`;
}

/** The cost (USD) a `/generation` answer reports, or undefined when it reports none (yet). */
export function generationCostOf(body: unknown): number | undefined {
  const data = isRecord(body) ? body.data : undefined;
  return isRecord(data) ? amountOf(data.total_cost, MAX_REPORTED_COST) : undefined;
}

export interface GenerationLookupDeps {
  /** The JSON answer of `url` (a 200 only, read bounded; rejects otherwise). */
  fetchJson(url: string): Promise<unknown>;
  /** Resolves after `ms` (the injected clock). */
  wait(ms: number): Promise<void>;
}

/** One lookup, and at most one more after GENERATION_RETRY_MS; the cost, or undefined. Never rejects. */
export async function lookUpGenerationCost(deps: GenerationLookupDeps, url: string): Promise<number | undefined> {
  const once = () => deps.fetchJson(url).then(generationCostOf, () => undefined);
  const first = await once();
  if (first !== undefined) return first;
  await deps.wait(GENERATION_RETRY_MS);
  return once();
}
