// OpenRouter's speech cost (option `openrouterModels`): its speech answer carries no cost, only `X-Generation-Id`,
// and `GET /v1/generation?id=` answers `{data:{id, model, total_cost, …}}` (../../../shared/spec/dialects.md,
// "Where cost is reported"). An unknown id is a 404, as OpenRouter answers before a generation's figures are written.
import { notFound } from './errors';

/** What the simulator's OpenRouter speech costs per character of input (USD): not the listed price, so a test can tell the reported cost from the estimate. */
export const OPENROUTER_SPEECH_COST_PER_CHAR = 0.00002;
export const GENERATION_PATH = '/v1/generation';
/** Generations kept at most (the oldest go first). */
const MAX_KEPT = 1000;

export class Generations {
  readonly #costs = new Map<string, { model: string; cost: number; created: number }>();
  #next = 1;

  constructor(private readonly now: () => number) {}

  /** Keeps a speech generation's cost; returns its id for the `X-Generation-Id` header. */
  speech(model: string, input: string): string {
    const id = `gen-${Math.floor(this.now() / 1000)}-${this.#next++}`;
    this.#costs.set(id, { model, cost: Number((input.length * OPENROUTER_SPEECH_COST_PER_CHAR).toFixed(10)), created: Math.floor(this.now() / 1000) });
    for (const oldest of this.#costs.keys()) {
      if (this.#costs.size <= MAX_KEPT) break;
      this.#costs.delete(oldest);
    }
    return id;
  }

  /** The answer of `GET /v1/generation?id=`. */
  view(id: string | null): { data: Record<string, unknown> } {
    const generation = id === null ? undefined : this.#costs.get(id);
    if (!generation) throw notFound(`Generation ${id ?? ''} not found`);
    return { data: { id, model: generation.model, created_at: new Date(generation.created * 1000).toISOString(), total_cost: generation.cost, usage: generation.cost, is_byok: false } };
  }
}
