// The rules that name a failure (failureKind.ts asks them), loaded with the first failure: what gateways really send,
// read in order: the HTTP status, `error.type`, `error.code` (string or number), `metadata`, and in-band errors (a
// 200 body or a stream event carrying an error, whose code stands in for the status). No backtracking regex.
import type { ErrorFields, FailureKind } from './failureTypes';

const TRANSPORT_KINDS: Readonly<Record<string, FailureKind>> = {
  timeout: 'timeout',
  aborted: 'aborted',
  stream_interrupted: 'interrupted',
  bad_response: 'bad_response',
  too_large: 'bad_response',
  network: 'network',
};

const BUDGET_WORDS = ['budget_exceeded', 'budget_exceeded_error', 'exceededbudget', 'budgetexceedederror', 'key_limit_exceeded'];
const CREDITS_WORDS = ['insufficient_quota', 'insufficient_credits', 'insufficient_balance', 'payment_required', 'billing_hard_limit_reached'];
const MODERATION_WORDS = ['content_filter', 'content_policy_violation', 'moderation_blocked', 'moderation', 'flagged', 'content_filtered', 'datainspectionfailed'];
const AUTH_WORDS = ['invalid_api_key', 'authentication_error', 'auth_error', 'invalidapikey', 'unauthorized', 'invalid_authentication'];
const RATE_WORDS = ['rate_limit_exceeded', 'rate_limit_error', 'rate_limit', 'throttling', 'too_many_requests'];
const NOT_FOUND_WORDS = ['model_not_found', 'not_found_error', 'not_found'];
const SERVER_WORDS = ['api_error', 'internal_error', 'internalerror', 'overloaded_error', 'service_unavailable'];

/** What a failure's fields say it is; the order decides: what cannot be waited out before what can. */
export function classifyFailure(e: ErrorFields, error?: unknown): FailureKind {
  const flagged = moderationReasonsOf(error) !== undefined;
  if (!e.fromServer && e.code !== undefined && TRANSPORT_KINDS[e.code] !== undefined) return TRANSPORT_KINDS[e.code]!;
  const words = [e.type, e.code].filter((w): w is string => w !== undefined).map((w) => w.toLowerCase());
  const has = (list: readonly string[]): boolean => words.some((w) => list.includes(w));
  const message = e.message.toLowerCase();
  const status = effectiveStatus(e);
  const serverSaid = e.fromServer === true || (status !== undefined && status >= 400);
  if (serverSaid && (has(BUDGET_WORDS) || mentionsBudgetReached(message))) return 'budget';
  if (serverSaid && (has(CREDITS_WORDS) || message.includes('insufficient credits'))) return 'credits';
  if (serverSaid && (flagged || has(MODERATION_WORDS))) return 'moderation';
  if (status === 402) return 'credits';
  if (status === 401 || has(AUTH_WORDS)) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 429 || has(RATE_WORDS)) return 'rate_limit';
  if (status === 404 || has(NOT_FOUND_WORDS)) return 'not_found';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'bad_request';
  if (has(SERVER_WORDS)) return 'server';
  return e.gatewayError || e.fromServer ? 'upstream' : 'other';
}

/**
 * The HTTP status, or for an error the gateway reported inside a 200 (a stream event, an `error` in the body) the
 * status its numeric code names (OpenRouter's `{code: 401}`, LiteLLM's `"429"`).
 */
function effectiveStatus(e: ErrorFields): number | undefined {
  if (e.status !== undefined && e.status >= 300) return e.status;
  if (!e.fromServer || e.code === undefined) return e.status;
  const code = Number(e.code);
  return Number.isInteger(code) && code >= 400 && code <= 599 ? code : e.status;
}

/** "Budget has been exceeded!", "ExceededBudget: … over budget", "exceeded budget for model=…", "crossed budget". */
function mentionsBudgetReached(message: string): boolean {
  if (!message.includes('budget')) return false;
  return message.includes('budget has been exceeded') || message.includes('exceededbudget') || message.includes('over budget') || message.includes('exceeded budget') || message.includes('crossed budget') || message.includes('budget exceeded');
}

/** What a budget refusal says was spent and allowed, in USD, when its message carries the figures. */
export interface BudgetFigures {
  spent?: number;
  limit?: number;
}

/**
 * The figures of a budget refusal's message: LiteLLM's "Current cost: 10.51, Max budget: 10.0" and
 * "Spend=10.51, Budget=10.0". Linear scans; a figure that is not plainly a number stays unknown.
 */
export function budgetFigures(message: string): BudgetFigures {
  const lower = message.toLowerCase();
  const figures: BudgetFigures = {};
  const spent = numberAfter(lower, 'current cost:') ?? numberAfter(lower, 'spend=');
  const limit = numberAfter(lower, 'max budget:') ?? numberAfter(lower, 'budget=');
  if (spent !== undefined) figures.spent = spent;
  if (limit !== undefined) figures.limit = limit;
  return figures;
}

function numberAfter(text: string, label: string): number | undefined {
  const at = text.indexOf(label);
  if (at < 0) return undefined;
  let i = at + label.length;
  while (i < text.length && text[i] === ' ') i++;
  const start = i;
  while (i < text.length && i - start < 32 && ((text[i]! >= '0' && text[i]! <= '9') || text[i] === '.' || text[i] === 'e' || text[i] === '-')) i++;
  const value = Number(text.slice(start, i));
  return i > start && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The reasons of a moderation refusal (a GatewayError's `moderationReasons`, from OpenRouter's `metadata`), if flagged. */
export function moderationReasonsOf(error: unknown): string[] | undefined {
  const reasons = typeof error === 'object' && error !== null ? (error as { moderationReasons?: unknown }).moderationReasons : undefined;
  return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : undefined;
}
