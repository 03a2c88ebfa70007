// The learned poll plan: when to poll a job of a known kind, from how long earlier jobs of that kind took. The
// durations are smoothed into a distribution (a kernel density in log time), and the plan is the one that costs least on
// average against it, where each poll costs 1, each second a completion goes unseen costs `delayCostPerS`, and a
// completion seen more than `lateAfterMs` after it happened costs `lateCost` more. A dynamic program over a time
// grid finds it exactly: every poll is placed knowing that the job was still running at the one before, so the plan
// follows the conditional remaining time (dense where completions are likely, sparse in the tails). Pure.

/** The parts of the timing policy the plan depends on. */
export interface PlanPolicy {
  minIntervalMs: number;
  maxIntervalMs: number;
  /** Fewest earlier durations of the same kind before they plan the polls. */
  minSamples: number;
  /** What a second of unseen completion costs, in polls. */
  delayCostPerS: number;
  /** A completion seen later than this after it happened is late… */
  lateAfterMs: number;
  /** …and costs this many polls more. */
  lateCost: number;
}

/** A distribution of durations: its CDF, its partial mean ∫ x f(x) dx up to t, and where nearly all of it lies. */
export interface DurationModel {
  cdf(t: number): number;
  partialMean(t: number): number;
  low: number;
  high: number;
}

/** Durations of whole seconds, from the gateway's second-resolution times: no kernel narrower than this. */
const MIN_BANDWIDTH_MS = 500;
/** The plan's time grid has at most this many steps (unless that would part polls by more than the cap)… */
const MAX_GRID_STEPS = 400;
/** …and none shorter than this. */
const MIN_GRID_STEP_MS = 250;
/** Plans kept for reuse: jobs of one kind restored together plan alike. */
const CACHE_SIZE = 16;

/** Standard normal CDF (Abramowitz & Stegun 7.1.26; error below 1e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) * Math.SQRT1_2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t;
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * The durations smoothed by a kernel in log time (a log-normal around each, so no duration comes out negative and
 * a spread of minutes to hours keeps its shape), whose width follows Silverman's rule (robust to an odd outlier
 * through the interquartile range) and is never under MIN_BANDWIDTH_MS at the median.
 */
export function smoothedDurations(durationsMs: readonly number[]): DurationModel {
  const logs = durationsMs.map((ms) => Math.log(Math.max(1, ms))).sort((a, b) => a - b);
  const n = logs.length;
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, n - 1));
  const iqr = (quantile(logs, 0.75) - quantile(logs, 0.25)) / 1.34;
  const spread = iqr > 0 ? Math.min(sd, iqr) : sd;
  const h = Math.max(MIN_BANDWIDTH_MS / Math.exp(quantile(logs, 0.5)), 0.9 * spread * Math.pow(n, -0.2));
  // Of a log-normal (m, h): P(X ≤ t) = Φ(z) and ∫ x f(x) dx up to t = e^(m + h²/2) Φ(z − h), z = (ln t − m)/h.
  const zOf = (t: number, m: number) => (Math.log(Math.max(1, t)) - m) / h;
  return {
    cdf: (t) => (t <= 0 ? 0 : logs.reduce((sum, m) => sum + normalCdf(zOf(t, m)), 0) / n),
    partialMean: (t) => (t <= 0 ? 0 : logs.reduce((sum, m) => sum + Math.exp(m + (h * h) / 2) * normalCdf(zOf(t, m) - h), 0) / n),
    // A wide kernel's tails reach far past anything seen: beyond half the shortest and twice the longest the plan
    // stops, and a job past it is polled as one past its plan.
    low: Math.max(Math.exp(logs[0] - 3 * h), Math.exp(logs[0]) / 2),
    high: Math.min(Math.exp(logs[n - 1] + 3 * h), 2 * Math.exp(logs[n - 1])),
  };
}

/**
 * When to poll, in ms after submission, against a distribution of durations: the plan of least expected cost
 * (see the top of this file) whose polls are at least `minIntervalMs` apart and at most `maxIntervalMs` apart once
 * they begin. The last poll is where the distribution ends; a job still running then is past its plan.
 */
export function optimalPlan(model: DurationModel, policy: PlanPolicy): number[] {
  const { minIntervalMs, maxIntervalMs, delayCostPerS, lateAfterMs, lateCost } = policy;
  const low = Math.max(minIntervalMs, model.low);
  const high = Math.max(low, model.high);
  // Polls must be able to keep within maxIntervalMs, whatever the span.
  const step = Math.min(Math.max(MIN_GRID_STEP_MS, (high - low) / MAX_GRID_STEPS), Math.max(MIN_GRID_STEP_MS, maxIntervalMs));
  const minSteps = Math.max(1, Math.ceil(minIntervalMs / step));
  const maxSteps = Math.max(minSteps, Math.floor(maxIntervalMs / step));
  // Past `high` nothing is left to see; the grid runs on by minSteps so the last poll may come after it.
  const n = Math.ceil((high - low) / step) + 1 + minSteps;
  const at = Array.from({ length: n }, (_, i) => low + i * step);
  const F = at.map((t) => model.cdf(t));
  const G = at.map((t) => model.partialMean(t));
  const lateF = at.map((t) => model.cdf(t - lateAfterMs));
  const delayCost = delayCostPerS / 1000;
  // Cost of the poll at at[j] when the one before was at at[i] (i = -1: none), counting only completions between.
  const between = (i: number, j: number): number => {
    const [f, g] = i < 0 ? [0, 0] : [F[i], G[i]];
    const unseenMs = at[j] * (F[j] - f) - (G[j] - g);
    return delayCost * unseenMs + lateCost * Math.max(0, lateF[j] - f);
  };
  // rest[i]: the least cost of what follows a poll at at[i] that found the job running (weighted by its chance).
  const rest = new Array<number>(n).fill(0);
  const next = new Array<number>(n).fill(-1);
  const doneFrom = n - minSteps;
  for (let i = doneFrom - 1; i >= 0; i--) {
    const running = 1 - F[i];
    let best = Number.POSITIVE_INFINITY;
    for (let j = i + minSteps; j <= Math.min(n - 1, i + maxSteps); j++) {
      const cost = running + between(i, j) + rest[j];
      if (cost < best) [best, next[i]] = [cost, j];
    }
    rest[i] = best;
  }
  let first = 0;
  let bestFirst = Number.POSITIVE_INFINITY;
  for (let j = 0; j < n; j++) {
    const cost = 1 + between(-1, j) + rest[j];
    if (cost < bestFirst) [bestFirst, first] = [cost, j];
  }
  const plan: number[] = [];
  for (let i = first; i >= 0; i = i < doneFrom ? next[i] : -1) plan.push(Math.round(at[i]));
  return plan;
}

const cache = new Map<string, number[]>();

/**
 * The learned plan of a job submitted at `submittedAt`, in absolute ms, from the durations of earlier jobs of the
 * same kind; undefined while there are fewer than `minSamples`.
 */
export function learnedPlan(durationsMs: readonly number[], submittedAt: number, policy: PlanPolicy): number[] | undefined {
  if (durationsMs.length < policy.minSamples) return undefined;
  const { minIntervalMs, maxIntervalMs, delayCostPerS, lateAfterMs, lateCost } = policy;
  const key = [minIntervalMs, maxIntervalMs, delayCostPerS, lateAfterMs, lateCost, '', ...durationsMs].join(',');
  let offsets = cache.get(key);
  if (!offsets) {
    offsets = optimalPlan(smoothedDurations(durationsMs), policy);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, offsets);
  }
  return offsets.map((ms) => submittedAt + ms);
}

/** What a plan gives against a distribution: polls per job, mean ms a completion goes unseen, the fraction late. */
export interface PlanOutcome {
  polls: number;
  unseenMs: number;
  late: number;
}

/** The expected outcome of polling at `plan` (ms after submission) when durations follow `model`. */
export function planOutcome(model: DurationModel, plan: readonly number[], lateAfterMs: number): PlanOutcome {
  const outcome: PlanOutcome = { polls: 0, unseenMs: 0, late: 0 };
  let [f, g] = [0, 0];
  for (const at of plan) {
    outcome.polls += 1 - f;
    const [fAt, gAt] = [model.cdf(at), model.partialMean(at)];
    outcome.unseenMs += at * (fAt - f) - (gAt - g);
    outcome.late += Math.max(0, model.cdf(at - lateAfterMs) - f);
    [f, g] = [fAt, gAt];
  }
  return outcome;
}
