// The learned poll plan: pure, so computed outcomes are checked, not timings.
import * as assert from 'node:assert/strict';
import { learnedPlan, normalCdf, optimalPlan, planOutcome, smoothedDurations, type PlanPolicy } from '../../../src/videos/core/pollPlan';
import { timingPolicy } from '../../../src/videos/core/pollTiming';
import { seededRandom } from '../../util/seededRandom';

const S = 1_000;
const policy: PlanPolicy = timingPolicy({});

/** `n` durations of N(meanS, sdS) seconds, the same every run. */
function normalDurations(n: number, meanS: number, sdS: number, seed = 7): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.round((meanS + sdS * z) * S);
  });
}

/** The plan's expected cost under `policy`: polls + delay cost × seconds unseen + late cost × late fraction. */
function cost(plan: number[], durations: number[], costs: PlanPolicy = policy): number {
  const outcome = planOutcome(smoothedDurations(durations), plan, costs.lateAfterMs);
  return outcome.polls + (costs.delayCostPerS * outcome.unseenMs) / S + costs.lateCost * outcome.late;
}

const gaps = (plan: readonly number[]) => plan.slice(1).map((at, i) => at - plan[i]);

describe('pollPlan', () => {
  it('normalCdf is the standard normal CDF', () => {
    for (const [z, p] of [[0, 0.5], [1, 0.841345], [-1.959964, 0.025], [3, 0.99865]]) assert.ok(Math.abs(normalCdf(z) - p) < 1e-6, `Φ(${z})`);
  });

  it('plans nothing until minSamples durations of the kind are known, then in absolute time from the submission', () => {
    assert.equal(learnedPlan([100 * S, 110 * S], 0, policy), undefined);
    const plan = learnedPlan([100 * S, 105 * S, 110 * S], 0, policy)!;
    assert.deepEqual(learnedPlan([100 * S, 105 * S, 110 * S], 5 * S, policy), plan.map((at) => at + 5 * S));
  });

  it('starts early enough to see nearly all jobs on time, ends after the slowest, and keeps gaps between the minimum and the cap', () => {
    const durations = normalDurations(20, 80, 6);
    const model = smoothedDurations(durations);
    const plan = optimalPlan(model, policy);
    assert.ok(model.cdf(plan[0] - policy.lateAfterMs) < 0.05 && plan.at(-1)! > Math.max(...durations), plan.join(', '));
    assert.ok(gaps(plan).every((gap) => gap >= policy.minIntervalMs && gap <= policy.maxIntervalMs), gaps(plan).join(', '));
  });

  it('polls more often as a running job becomes likelier to finish next (a normal spread: towards its end)', () => {
    const durations = normalDurations(40, 160, 10);
    const plan = optimalPlan(smoothedDurations(durations), policy);
    const g = gaps(plan);
    assert.ok(g.every((gap, i) => i === 0 || gap <= g[i - 1]) && g.at(-1)! < g[0], `gaps ${g.join(', ')}`);
  });

  it('costs less than the 5th–95th percentile window with 6 even steps it replaces, or any even spacing', () => {
    for (const durations of [normalDurations(10, 80, 6), normalDurations(50, 160, 10, 3), [30, 31, 33, 40, 60].map((s) => s * S)]) {
      const best = cost(optimalPlan(smoothedDurations(durations), policy), durations);
      const sorted = [...durations].sort((a, b) => a - b);
      const [low, high] = [sorted[Math.ceil(0.05 * sorted.length) - 1], sorted[Math.ceil(0.95 * sorted.length) - 1]];
      const window = Array.from({ length: 7 }, (_, i) => low - (high - low) * 0.1 + (i * (high - low) * 1.2) / 6);
      const tail = Array.from({ length: 40 }, (_, i) => window[6] + (i + 1) * 4 * S);
      assert.ok(best <= cost([...window, ...tail], durations), `window: ${best} vs ${cost([...window, ...tail], durations)}`);
      for (const step of [2, 3, 4, 6, 10]) {
        const even = Array.from({ length: 200 }, (_, i) => low - 10 * S + i * step * S);
        assert.ok(best <= cost(even, durations) + 1e-9, `every ${step} s`);
      }
    }
  });

  it('knowing N(80 s, 6 s) well, sees completions within 2 s on average and 4 s for 95 % of jobs in under 4 polls', () => {
    const durations = normalDurations(400, 80, 6);
    const model = smoothedDurations(durations);
    const outcome = planOutcome(model, optimalPlan(model, policy), policy.lateAfterMs);
    assert.ok(outcome.unseenMs <= 2 * S && outcome.late <= 0.05 && outcome.polls < 4, JSON.stringify(outcome));
  });

  it('trades polls for latency as the delay cost says', () => {
    const model = smoothedDurations(normalDurations(30, 120, 8));
    const outcomes = [0.25, 1, 4].map((delayCostPerS) => planOutcome(model, optimalPlan(model, { ...policy, delayCostPerS, lateCost: 0 }), policy.lateAfterMs));
    for (let i = 1; i < outcomes.length; i++) {
      assert.ok(outcomes[i].polls > outcomes[i - 1].polls && outcomes[i].unseenMs < outcomes[i - 1].unseenMs, JSON.stringify(outcomes));
    }
  });

  it('needs a poll or two for a kind that always took the same time', () => {
    const plan = optimalPlan(smoothedDurations([90 * S, 90 * S, 90 * S]), policy);
    assert.ok(plan.length <= 2 && plan[0] >= 89 * S && plan.at(-1)! <= 93 * S, plan.join(', '));
  });

  it('puts no completion before the submission, keeps within the cap and stops by twice the longest for a wild spread', () => {
    const durations = [60 * S, 600 * S, 1800 * S];
    const model = smoothedDurations(durations);
    assert.equal(model.cdf(0), 0);
    const plan = optimalPlan(model, policy);
    assert.ok(gaps(plan).every((gap) => gap <= policy.maxIntervalMs), `largest gap ${Math.max(...gaps(plan))}`);
    assert.ok(plan.at(-1)! <= 2 * 1800 * S + policy.maxIntervalMs, `${plan.at(-1)}`);
  });

  it('is not pulled out of shape by one odd outlier', () => {
    const durations = [...Array.from({ length: 39 }, (_, i) => 60 * S + i * 500), 900 * S];
    const plan = optimalPlan(smoothedDurations(durations), policy);
    assert.ok(plan.filter((at) => at <= 90 * S).length >= 8, `dense through 60–80 s: ${plan.join(', ')}`);
  });
});
