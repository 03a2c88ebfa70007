// The learned scenario's report for bench:poll, and what any fixed poll plan can do in that scenario when it knows
// each kind's distribution exactly (no progress or eta from the gateway, so the elapsed time is all a poller has):
// the extension's own planner (src/videos/core/pollPlan.ts) fed the true distribution instead of a learned one, and
// a certificate that the three targets cannot be met together by any plan.
//
// The certificate: for any plan, polls + λ · mean unseen s + μ · late fraction ≥ W*(λ, μ), the least such cost,
// which the planner's dynamic program finds (among plans on its 250 ms grid; moving an optimal plan's polls onto
// the grid changes its cost only to second order, far less than the margins printed). A plan meeting polls ≤ P,
// mean ≤ M and late ≤ 5 % would cost at most P + λM + 0.05μ; if W* is above that for some λ, μ ≥ 0, no plan
// meets all three.
import { normalCdf, optimalPlan, planOutcome, type DurationModel, type PlanOutcome, type PlanPolicy } from '../../src/videos/core/pollPlan';
import { timingPolicy } from '../../src/videos/core/pollTiming';

export interface Kind {
  meanMs: number;
  sdMs: number;
}

/** N(mean, sd) cut at ±3 sd, as the bench draws it. */
export function truncatedNormal({ meanMs, sdMs }: Kind): DurationModel {
  const pdf = (z: number) => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
  const mass = normalCdf(3) - normalCdf(-3);
  const zOf = (t: number) => Math.min(3, Math.max(-3, (t - meanMs) / sdMs));
  return {
    cdf: (t) => (normalCdf(zOf(t)) - normalCdf(-3)) / mass,
    partialMean: (t) => (meanMs * (normalCdf(zOf(t)) - normalCdf(-3)) - sdMs * (pdf(zOf(t)) - pdf(-3))) / mass,
    low: meanMs - 3 * sdMs,
    high: meanMs + 3 * sdMs,
  };
}

/** Polls, mean unseen ms and late fraction over the kinds (equally many jobs of each), for one choice of costs. */
function outcomeOver(kinds: readonly Kind[], costs: Partial<PlanPolicy>): PlanOutcome {
  const policy = { ...timingPolicy({}), ...costs };
  const each = kinds.map((kind) => planOutcome(truncatedNormal(kind), optimalPlan(truncatedNormal(kind), policy), policy.lateAfterMs));
  const mean = (key: keyof PlanOutcome) => each.reduce((sum, o) => sum + o[key], 0) / each.length;
  return { polls: mean('polls'), unseenMs: mean('unseenMs'), late: mean('late') };
}

export interface BoundRow {
  costs: string;
  'requests per job': string;
  'mean s': string;
  'late > 4 s': string;
}

/** The best plans knowing the truth, at a few trade-offs (the last is the extension's default). */
export function frontier(kinds: readonly Kind[]): BoundRow[] {
  const settings: Array<Partial<PlanPolicy>> = [
    { delayCostPerS: 0.6, lateCost: 0 },
    { delayCostPerS: 0.8, lateCost: 2 },
    { delayCostPerS: 2, lateCost: 0 },
    { delayCostPerS: 1, lateCost: 30 },
  ];
  return settings.map((costs) => {
    const o = outcomeOver(kinds, costs);
    return {
      costs: `${costs.delayCostPerS}/s, ${costs.lateCost} per late`,
      'requests per job': (1 + o.polls).toFixed(2),
      'mean s': (o.unseenMs / 1000).toFixed(2),
      'late > 4 s': `${(o.late * 100).toFixed(1)} %`,
    };
  });
}

/**
 * Whether a plan with at most `requests` per job (one is the submit), `meanS` mean and 5 % late could exist:
 * the (λ, μ) pair whose least cost exceeds that budget by the most, if any.
 */
export function certificate(kinds: readonly Kind[], requests: number, meanS: number): { lambda: number; mu: number; least: number; budget: number } | undefined {
  let best: { lambda: number; mu: number; least: number; budget: number } | undefined;
  for (const lambda of [0.5, 1, 2]) {
    for (const mu of [5, 10, 20, 40]) {
      const o = outcomeOver(kinds, { delayCostPerS: lambda, lateCost: mu });
      const least = o.polls + (lambda * o.unseenMs) / 1000 + mu * o.late;
      const budget = requests - 1 + lambda * meanS + mu * 0.05;
      if (least > budget && (!best || least - budget > best.least - best.budget)) best = { lambda, mu, least, budget };
    }
  }
  return best;
}

/** What the report reads of one run: requests for the measured jobs, and how late each completion was seen. */
interface Run {
  requests: readonly unknown[];
  detectionLatencyMs: number[];
}

interface Targets {
  perJob: number;
  meanMs: number;
  p95Ms: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The learned scenario over every seed (latencies pooled), against issue 27's targets and what timing alone allows. */
export interface LearnedSummary {
  perJob: number;
  mean: number;
  p95: number;
  /** Each seed's p95, in s. */
  p95s: number[];
}

/** Prints the learned scenario pooled over its seeds, and the bound on fixed plans; returns the pooled figures. */
export function reportLearned(runs: ReadonlyArray<{ seed: number } & Record<'learning' | 'today', Run>>, measured: number, kinds: readonly Kind[], targets: Targets): Record<'learning' | 'today', LearnedSummary> {
  const summary = (kind: 'learning' | 'today'): LearnedSummary => {
    const perJob = runs.reduce((sum, r) => sum + r[kind].requests.length / measured, 0) / runs.length;
    const latencies = runs.flatMap((r) => r[kind].detectionLatencyMs);
    const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
    const p95s = runs.map((r) => percentile(r[kind].detectionLatencyMs, 95) / 1000);
    return { perJob, mean, p95: percentile(latencies, 95), p95s };
  };
  const [learning, today] = [summary('learning'), summary('today')];
  console.log(`\n## learned scenario over ${runs.length} seed(s) (${runs.map((r) => r.seed).join(', ')}), latencies pooled`);
  console.table(
    Object.fromEntries(
      ([['learning', learning], ['today', today]] as const).map(([kind, s]) => [
        kind,
        {
          'requests per job': s.perJob.toFixed(2),
          'mean s': (s.mean / 1000).toFixed(2),
          'p95 s': (s.p95 / 1000).toFixed(2),
          'p95 s per run': `${Math.min(...s.p95s).toFixed(1)}–${Math.max(...s.p95s).toFixed(1)}`,
        },
      ]),
    ),
  );
  const met = (ok: boolean) => (ok ? 'met' : 'missed');
  console.log(
    `Targets (issue 27): ≤ ${targets.perJob} requests per job ${met(learning.perJob <= targets.perJob)}, ≤ ${targets.meanMs / 1000} s mean ${met(learning.mean <= targets.meanMs)}, ` +
      `≤ ${targets.p95Ms / 1000} s p95 ${met(learning.p95 <= targets.p95Ms)}.`,
  );
  console.log('\nThe best fixed plans knowing each kind\'s distribution exactly (the same planner, fed the truth; no progress or eta):');
  console.table(frontier(kinds));
  const proof = certificate(kinds, targets.perJob, targets.meanMs / 1000);
  console.log(
    proof
      ? `No plan meets all three targets: with λ = ${proof.lambda}/s, μ = ${proof.mu}, the least polls + λ·mean s + μ·late fraction is ${proof.least.toFixed(2)} > ${proof.budget.toFixed(2)}, what one meeting them would cost.`
      : 'No certificate found that the targets are out of reach of a fixed plan.',
  );
  return { learning, today };
}

