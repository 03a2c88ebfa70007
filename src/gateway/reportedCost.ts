// The one reader of what a gateway says a call cost, wherever it puts it (../shared/spec/dialects.md, "Where cost is
// reported"): `usage.cost` with `cost_details` (OpenRouter chat, images, video, transcription), `usage.cost_in_usd_ticks`
// (xAI), `outputs.cost` (Together) and a cost header (LiteLLM's `x-litellm-response-cost`). Chat, images, video jobs
// and transcription all call it, so a cost is read the same way everywhere. Pure; USD; undefined when not said.

/** 1 USD in xAI's ticks. */
const TICKS_PER_USD = 1e10;

/** A non-negative finite amount from a number or a plain numeric string; anything else says nothing. */
function amount(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && value.length <= 40 ? Number(value.trim()) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The cost a `usage` block reports: `cost`, plus `cost_details.upstream_inference_cost` when the key is the user's own
 * (`is_byok`: OpenRouter's `cost` is then only its fee, the provider bills the rest), else `cost_in_usd_ticks`.
 */
export function costOfUsage(usage: unknown, isByok?: unknown): number | undefined {
  const u = record(usage);
  if (!u) return undefined;
  const cost = amount(u.cost);
  if (cost !== undefined) {
    const upstream = amount(record(u.cost_details)?.upstream_inference_cost);
    return (isByok === true || u.is_byok === true) && upstream !== undefined ? cost + upstream : cost;
  }
  const ticks = amount(u.cost_in_usd_ticks);
  return ticks === undefined ? undefined : ticks / TICKS_PER_USD;
}

/** The cost an answer's body reports: its `usage` (see costOfUsage), else Together's `outputs.cost`. */
export function reportedCostOf(body: unknown): number | undefined {
  const b = record(body);
  if (!b) return undefined;
  return costOfUsage(b.usage, b.is_byok) ?? amount(record(b.outputs)?.cost);
}

/** The cost a response header reports (LiteLLM's `x-litellm-response-cost`, or the configured one). */
export function costOfHeader(value: string | undefined): number | undefined {
  return amount(value);
}
