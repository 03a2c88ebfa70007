// How a chosen reasoning effort goes on the wire. Gateways differ: OpenAI-compatible chat completions take
// `reasoning_effort: "high"`, gateways in front of the Responses API take `reasoning: {effort: "high"}`, and
// Anthropic-style ones take `thinking: {type: "enabled", budget_tokens: N}`. Which one is a setting
// (`modelGateway.reasoningEffortFormat`); no effort chosen means nothing is sent, in every format.
import type { ChatRequest } from './types';
import type { ReasoningEffortFormat } from '../settings/settings';

export { DEFAULT_EFFORT_LEVELS, EFFORT_FORMATS, type ReasoningEffortFormat } from '../settings/settings';

/**
 * Thinking budgets for the Anthropic form, by level. Anthropic's minimum is 1,024 tokens; the others double up to
 * the 32k that its documentation calls the point past which batch processing is advised. A level not listed here
 * (a gateway's own word) gets the medium budget.
 */
export const THINKING_BUDGETS: Readonly<Record<string, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 32768 };
const OFF = new Set(['none', 'off', 'disabled']);

export type EffortFields = Pick<ChatRequest, 'reasoning_effort' | 'reasoning' | 'thinking'>;

/** The request members for `effort` in `format`; none when no effort was chosen. */
export function effortFields(effort: string | undefined, format: ReasoningEffortFormat = 'reasoning_effort'): EffortFields {
  if (effort === undefined || effort === '') return {};
  if (format === 'responses') return { reasoning: { effort } };
  if (format === 'anthropic') {
    if (OFF.has(effort)) return { thinking: { type: 'disabled' } };
    return { thinking: { type: 'enabled', budget_tokens: THINKING_BUDGETS[effort] ?? THINKING_BUDGETS.medium } };
  }
  return { reasoning_effort: effort };
}

/** "reasoning_effort: \"high\"": what `effortFields` sends, as the Diagnose Models report says it. */
export function describeEffortFields(fields: EffortFields): string {
  const entries = Object.entries(fields);
  return entries.length === 0 ? 'nothing' : entries.map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join(', ');
}
