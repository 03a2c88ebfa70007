// The pacing decisions for one gateway origin and key, pure: what the answers said about the budgets, what the
// 429s taught where they said nothing, and whether a request of a given priority may go now or must wait, and
// until when. State is never wider than its evidence: the budgets an answer about one model states are that
// model's (OpenAI and Groq count requests and tokens per model), and only 429s and the budgets of answers about no
// model (the model list, a video poll) hold the whole key. Times are monotonic milliseconds (clock.monotonic()), so a wall clock that steps neither stalls nor
// hurries a wait; only the shared file (paceFile.ts) speaks wall time.
import type { BudgetReading, RateLimitReading } from './rateLimitHeaders';

/**
 * Who is asking: `foreground` a person waiting for it (a chat message, Generate Image), `background` work nobody
 * watches (video polling, model list refreshes), `extra` the columns of a comparison after its first.
 */
export type PacePriority = 'foreground' | 'background' | 'extra';

export interface Budget {
  limit?: number;
  remaining: number;
  /** When it refills (monotonic). */
  resetAt: number;
  /** Requests let through since the reading (their answers, with fresher figures, are still to come). */
  spent: number;
}

/** A pace learned from 429s that came without budget headers: at most `limit` requests per `windowMs`. */
export interface LearnedPace {
  limit: number;
  windowMs: number;
  /** Forgotten after this (monotonic): limits change, and a guess should not slow a key forever. */
  expiresAt: number;
}

/** The budgets an answer about one model stated. */
export interface ModelBudgets {
  requests?: Budget;
  tokens?: Budget;
}

/** Most models whose budgets one key keeps (the least recently heard of goes first). */
export const MAX_PACED_MODELS = 64;
/** Longest model name paced by name: a longer one is paced by the key's figures alone. */
export const MAX_MODEL_NAME = 256;

export interface PaceState {
  /** Budgets of the whole key: stated by answers about no model. */
  requests?: Budget;
  tokens?: Budget;
  /** Budgets stated by answers about one model, by model: they hold that model's requests only. */
  models: Map<string, ModelBudgets>;
  /** Nothing goes before this (monotonic): a server's Retry-After, or a pause after a bare 429. */
  blockedUntil?: number;
  learned?: LearnedPace;
  /** 429s in a row without a success between: the pause after a bare one doubles. */
  refusals: number;
  /** When recent requests were let through (monotonic), for learning a pace; at most one window's worth. */
  sent: number[];
  lastBackgroundAt?: number;
  /** Let through and not yet answered: an `extra` request waits for these, to go with fresh figures. */
  inFlight: number;
}

export type PaceDecision =
  | { go: true }
  /** `until` undefined: wait for an answer in flight (its figures decide), not for a time. */
  | { go: false; until: number | undefined; reason: 'blocked' | 'empty' | 'learned' | 'slowing' | 'turn' };

/** The share of a budget below which background work slows and extra columns queue. */
export const LOW_SHARE = 0.1;
export const LEARN_WINDOW_MS = 60_000;
const LEARNED_FOR_MS = 10 * 60_000;
const FIRST_BARE_PAUSE_MS = 1000;
const MAX_BARE_PAUSE_MS = 60_000;

export function emptyPaceState(): PaceState {
  return { refusals: 0, sent: [], inFlight: 0, models: new Map() };
}

/** The model a request is paced by, when it names one that can be kept. */
export function pacedModel(model: string | undefined): string | undefined {
  return model && model.length <= MAX_MODEL_NAME ? model : undefined;
}

/** The budgets that hold a request for `model` (the key's, and the model's own). */
function budgetsFor(state: PaceState, model: string | undefined): Budget[] {
  const own = model === undefined ? undefined : state.models.get(model);
  return [state.requests, state.tokens, own?.requests, own?.tokens].filter((b): b is Budget => b !== undefined);
}

/**
 * Takes in one answer's readings (`now` monotonic, when it arrived). `model`: the model the request was about; its
 * budgets then hold that model alone.
 */
export function observeAnswer(state: PaceState, status: number, reading: RateLimitReading, now: number, model?: string): void {
  const name = pacedModel(model);
  const holder: ModelBudgets = name === undefined ? state : (state.models.get(name) ?? {});
  holder.requests = budgetFrom(reading.requests, holder.requests, now);
  holder.tokens = budgetFrom(reading.tokens, holder.tokens, now);
  if (name !== undefined) {
    // Heard of last, kept longest: the map's order is the order models were last heard of.
    state.models.delete(name);
    if (holder.requests || holder.tokens) state.models.set(name, holder);
    while (state.models.size > MAX_PACED_MODELS) state.models.delete(state.models.keys().next().value!);
  }
  // A wait sent with a success is about that answer (a video job saying when to ask again), not the gateway.
  if (reading.retryAfterMs !== undefined && (status === 429 || status === 503)) block(state, now + reading.retryAfterMs);
  if (status === 429) {
    state.refusals++;
    // A 429 with neither budgets nor a wait teaches a pace; one with a Retry-After says exactly when, which is enough.
    const bare = reading.requests === undefined && reading.tokens === undefined && reading.retryAfterMs === undefined;
    if (bare) learnFrom429(state, now);
    // A 429 with budgets but no wait: the budget that ran out says until when.
    else if (reading.retryAfterMs === undefined) {
      const empty = [holder.requests, holder.tokens].filter((b): b is Budget => b !== undefined && b.remaining === 0 && b.resetAt > now);
      if (empty.length === 0) block(state, now + barePause(state.refusals));
    }
  } else if (status >= 200 && status < 400) state.refusals = 0;
}

/** A 429 seen only as an error (no headers at hand): its wait, when it said one. */
export function observeRefusal(state: PaceState, retryAfterMs: number | undefined, now: number): void {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) block(state, now + retryAfterMs);
}

function block(state: PaceState, until: number): void {
  state.blockedUntil = Math.max(state.blockedUntil ?? 0, until);
}

function barePause(refusals: number): number {
  return Math.min(MAX_BARE_PAUSE_MS, FIRST_BARE_PAUSE_MS * 2 ** Math.max(0, Math.min(10, refusals - 1)));
}

/**
 * What a 429 without budget headers teaches: the window held one request fewer than were sent in it. A refusal of
 * the only request in the window teaches no pace (a burst of tokens, a concurrency cap): the pause must do.
 */
function learnFrom429(state: PaceState, now: number): void {
  forgetOld(state, now);
  const sentInWindow = state.sent.length;
  if (sentInWindow >= 2) {
    const previous = state.learned && state.learned.expiresAt > now ? state.learned.limit : Infinity;
    state.learned = { limit: Math.min(previous, sentInWindow - 1), windowMs: LEARN_WINDOW_MS, expiresAt: now + LEARNED_FOR_MS };
  }
  block(state, now + barePause(state.refusals));
}

function budgetFrom(reading: BudgetReading | undefined, previous: Budget | undefined, now: number): Budget | undefined {
  if (!reading || reading.remaining === undefined) {
    // An answer silent about a budget leaves its figures unknown: kept, they would count down with every silent
    // request and stop this gateway on a budget it no longer states (a limit lifted, a route without headers).
    return undefined;
  }
  // Without a reset time, a figure is believed for one learning window: long enough to pace by, short enough not to
  // stall on a number nobody refreshes.
  const resetAt = now + (reading.resetMs ?? LEARN_WINDOW_MS);
  const budget: Budget = { remaining: reading.remaining, resetAt, spent: 0 };
  const limit = reading.limit ?? (previous && previous.resetAt > now ? previous.limit : undefined);
  if (limit !== undefined) budget.limit = limit;
  return budget;
}

function forgetOld(state: PaceState, now: number): void {
  const windowMs = Math.max(LEARN_WINDOW_MS, state.learned?.windowMs ?? 0);
  let drop = 0;
  while (drop < state.sent.length && state.sent[drop] <= now - windowMs) drop++;
  if (drop > 0) state.sent.splice(0, drop);
  if (state.learned && state.learned.expiresAt <= now) state.learned = undefined;
  if (state.blockedUntil !== undefined && state.blockedUntil <= now) state.blockedUntil = undefined;
  if (state.requests && state.requests.resetAt <= now) state.requests = undefined;
  if (state.tokens && state.tokens.resetAt <= now) state.tokens = undefined;
  for (const [name, own] of state.models) {
    if (own.requests && own.requests.resetAt <= now) own.requests = undefined;
    if (own.tokens && own.tokens.resetAt <= now) own.tokens = undefined;
    if (!own.requests && !own.tokens) state.models.delete(name);
  }
}

function left(budget: Budget): number {
  return Math.max(0, budget.remaining - budget.spent);
}

function isLow(budget: Budget): boolean {
  return budget.limit !== undefined ? left(budget) < budget.limit * LOW_SHARE : false;
}

/** May a request of this priority (for `model`, when it names one) go now? Pure: `admit` records it when it goes. */
export function decide(state: PaceState, priority: PacePriority, now: number, model?: string): PaceDecision {
  forgetOld(state, now);
  if (state.blockedUntil !== undefined) return { go: false, until: state.blockedUntil, reason: 'blocked' };
  // No requests left, or no tokens left: nothing goes to this gateway (or this model) before the budget refills.
  let emptyUntil: number | undefined;
  for (const budget of budgetsFor(state, pacedModel(model))) {
    if (left(budget) === 0) emptyUntil = Math.max(emptyUntil ?? 0, budget.resetAt);
  }
  if (emptyUntil !== undefined) return { go: false, until: emptyUntil, reason: 'empty' };
  if (state.learned && state.sent.length >= state.learned.limit) {
    return { go: false, until: state.sent[state.sent.length - state.learned.limit] + state.learned.windowMs, reason: 'learned' };
  }
  if (priority === 'foreground') return { go: true };
  const low = lowBudget(state, now, model);
  if (!low) return { go: true };
  if (priority === 'extra') return state.inFlight > 0 ? { go: false, until: undefined, reason: 'turn' } : { go: true };
  // Background work spreads what is left over the time to the reset, leaving the rest to people.
  const spacing = (low.resetAt - now) / Math.max(1, low.left);
  const next = (state.lastBackgroundAt ?? -Infinity) + spacing;
  return next > now ? { go: false, until: Math.min(next, low.resetAt), reason: 'slowing' } : { go: true };
}

/** Records that a request of this priority (for `model`) went (after `decide` said go). */
export function admit(state: PaceState, priority: PacePriority, now: number, model?: string): void {
  state.sent.push(now);
  state.inFlight++;
  if (state.requests) state.requests.spent++;
  const name = pacedModel(model);
  const own = name === undefined ? undefined : state.models.get(name)?.requests;
  if (own) own.spent++;
  if (priority === 'background') state.lastBackgroundAt = now;
}

/** A request let through got its answer's headers, or failed without any. */
export function settled(state: PaceState): void {
  state.inFlight = Math.max(0, state.inFlight - 1);
}

/**
 * The tightest budget (the key's, or `model`'s own) while one is below LOW_SHARE (or a learned pace is nearly used),
 * for pacing and the status bar.
 */
export function lowBudget(state: PaceState, now: number, model?: string): { unit: 'requests' | 'tokens'; left: number; resetAt: number } | undefined {
  let low: { unit: 'requests' | 'tokens'; left: number; resetAt: number; share: number } | undefined;
  const name = pacedModel(model);
  const holders: ModelBudgets[] = [state, ...(name !== undefined && state.models.has(name) ? [state.models.get(name)!] : [])];
  for (const holder of holders) {
    for (const unit of ['requests', 'tokens'] as const) {
      const budget = holder[unit];
      if (!budget || budget.resetAt <= now || !isLow(budget)) continue;
      const share = left(budget) / budget.limit!;
      if (!low || share < low.share) low = { unit, left: left(budget), resetAt: budget.resetAt, share };
    }
  }
  if (low) return { unit: low.unit, left: low.left, resetAt: low.resetAt };
  if (state.learned && state.learned.expiresAt > now && state.sent.length >= Math.ceil(state.learned.limit * (1 - LOW_SHARE))) {
    return { unit: 'requests', left: Math.max(0, state.learned.limit - state.sent.length), resetAt: state.sent[0] + state.learned.windowMs };
  }
  return undefined;
}

/** Whether some model's own budget is spent or low: then other windows need to hear of it. */
export function modelsPressed(state: PaceState, now: number): boolean {
  forgetOld(state, now);
  for (const own of state.models.values()) {
    for (const budget of [own.requests, own.tokens]) if (budget && (left(budget) === 0 || isLow(budget))) return true;
  }
  return false;
}

/** What the status bar says about this key: nothing, slowing down, or waiting. Times monotonic. */
export type PaceSummary =
  | { kind: 'waiting'; until: number; reason: 'blocked' | 'empty' | 'learned'; unit?: 'requests' | 'tokens' }
  | { kind: 'slowing'; unit: 'requests' | 'tokens'; left: number; resetAt: number };

export function summarize(state: PaceState, now: number): PaceSummary | undefined {
  const decision = decide(state, 'foreground', now);
  if (!decision.go && decision.until !== undefined && decision.reason !== 'slowing' && decision.reason !== 'turn') {
    const unit = decision.reason === 'empty' ? (state.requests && left(state.requests) === 0 ? 'requests' : 'tokens') : undefined;
    return { kind: 'waiting', until: decision.until, reason: decision.reason, ...(unit && { unit }) };
  }
  const low = lowBudget(state, now);
  return low ? { kind: 'slowing', unit: low.unit, left: low.left, resetAt: low.resetAt } : undefined;
}

/** When this state next changes by itself (a block ends, a budget refills, a learned pace lapses), monotonic. */
export function nextChangeAt(state: PaceState, now: number): number | undefined {
  const times = [state.blockedUntil, state.requests?.resetAt, state.tokens?.resetAt, state.learned?.expiresAt, state.learned && state.sent.length > 0 ? state.sent[0] + state.learned.windowMs : undefined];
  for (const own of state.models.values()) times.push(own.requests?.resetAt, own.tokens?.resetAt);
  let next: number | undefined;
  for (const t of times) if (t !== undefined && t > now && (next === undefined || t < next)) next = t;
  return next;
}
