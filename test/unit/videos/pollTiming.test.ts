import * as assert from 'node:assert/strict';
import {
  completedDurationMs,
  gatewayTiming,
  originWatchMs,
  OriginWatch,
  progressForecast,
  rateLimitWaitMs,
  timingPolicy,
  type WatchedJob,
} from '../../../src/videos/core/pollTiming';

const HOUR = 60 * 60_000;

describe('pollTiming', () => {
  const policy = timingPolicy({ random: () => 0 });

  describe('gatewayTiming', () => {
    it('reads progress as a percentage and eta as seconds left', () => {
      assert.deepEqual(gatewayTiming({ id: 'j', status: 'in_progress', progress: 42.5, eta: 12 }, HOUR), { progress: 42.5, etaMs: 12_000 });
      assert.deepEqual(gatewayTiming({ id: 'j', status: 'in_progress', progress: '7', eta: ' 3 ' }, HOUR), { progress: 7, etaMs: 3_000 });
    });

    it('drops what is malformed or out of range, and caps eta', () => {
      for (const [progress, eta] of [[-1, -5], [101, 'soon'], [NaN, Infinity], [null, {}], ['1e3', '0x10']]) {
        assert.deepEqual(gatewayTiming({ id: 'j', status: 'queued', progress, eta }, HOUR), {}, `${String(progress)} / ${String(eta)}`);
      }
      assert.deepEqual(gatewayTiming({ id: 'j', status: 'queued', eta: 10 ** 9 }, HOUR), { etaMs: HOUR });
    });
  });

  describe('progressForecast', () => {
    it('gives the earliest and latest completion that linear, rounded-down progress allows', () => {
      const forecast = progressForecast({ at: 0, percent: 10 }, { at: 30_000, percent: 40 })!;
      // Fastest: 31 % in 30 s, 59 % left; slowest: 29 % in 30 s, 60 % left.
      assert.ok(Math.abs(forecast.earliest - (30_000 + (59 * 30_000) / 31)) < 1e-6);
      assert.ok(Math.abs(forecast.latest! - (30_000 + (60 * 30_000) / 29)) < 1e-6);
    });

    it('has no latest bound when the marks differ by one percent, and none at all without progress', () => {
      assert.equal(progressForecast({ at: 0, percent: 10 }, { at: 5_000, percent: 11 })!.latest, undefined);
      assert.equal(progressForecast({ at: 0, percent: 10 }, { at: 5_000, percent: 10 }), undefined);
      assert.equal(progressForecast({ at: 5_000, percent: 10 }, { at: 5_000, percent: 20 }), undefined);
    });
  });

  describe('completedDurationMs', () => {
    const submittedAt = 1_700_000_000_000;
    const job = (extra: Record<string, unknown> = {}) => ({ id: 'j', status: 'completed', ...extra });

    it('takes the middle of the last running poll and the completed one when the gateway gives no times', () => {
      assert.equal(completedDurationMs(job(), submittedAt, submittedAt + 100_000, submittedAt + 110_000), 105_000);
    });

    it('uses completed_at − created (seconds or ms) within those bounds', () => {
      const created = submittedAt / 1000;
      assert.equal(completedDurationMs(job({ created, completed_at: created + 107 }), submittedAt, submittedAt + 100_000, submittedAt + 110_000), 107_000);
      assert.equal(completedDurationMs(job({ created: submittedAt, completed_at: submittedAt + 101_500 }), submittedAt, submittedAt + 100_000, submittedAt + 110_000), 101_500);
      // A gateway clock that disagrees with what the polls saw is held to the bounds.
      assert.equal(completedDurationMs(job({ created, completed_at: created + 300 }), submittedAt, submittedAt + 100_000, submittedAt + 110_000), 110_000);
      assert.equal(completedDurationMs(job({ created: 'x', completed_at: created }), submittedAt, submittedAt + 100_000, submittedAt + 110_000), 105_000);
    });

    it('counts a job found completed on its first poll as taking until then', () => {
      assert.equal(completedDurationMs(job(), submittedAt, undefined, submittedAt + 90_000), 90_000);
      const created = submittedAt / 1000;
      assert.equal(completedDurationMs(job({ created, completed_at: created + 70 }), submittedAt, undefined, submittedAt + 90_000), 70_000);
    });
  });

  describe('rateLimitWaitMs', () => {
    it('takes the Retry-After, the default without one, and keeps it between the minimum interval and an hour', () => {
      assert.equal(rateLimitWaitMs(policy, 20_000), 20_000);
      assert.equal(rateLimitWaitMs(policy, undefined), 30_000);
      assert.equal(rateLimitWaitMs(policy, 0), 2_000);
      assert.equal(rateLimitWaitMs(policy, 30 * 24 * HOUR), HOUR);
    });
  });

  describe('origin watch', () => {
    it('shares the quiet limit among the pending jobs, slowed while unfocused, and is off for the plain schedule', () => {
      assert.equal(originWatchMs(policy, 1, true), 10 * 60_000);
      assert.equal(originWatchMs(policy, 100, true), 6_000);
      assert.equal(originWatchMs(policy, 1_000, true), 2_000, 'never below the minimum interval');
      assert.equal(originWatchMs(policy, 100, false), 60_000, '4 × 6 s, at least 60 s');
      assert.equal(originWatchMs(timingPolicy({ gatewayHints: false }), 100, true), undefined);
    });

    it('picks, per origin nothing is polling, the job that waited longest and is not held', () => {
      const watch = new OriginWatch(policy);
      const job = (origin: string, since: number, more: Partial<WatchedJob> = {}): WatchedJob => ({ origin, since, busy: false, heldUntil: undefined, ...more });
      const jobs = [job('a', 5), job('a', 1, { heldUntil: 50 }), job('a', 3), job('b', 0), job('b', 0, { busy: true }), job('c', 0)];
      for (const j of jobs.slice(0, 5)) watch.add(j.origin, 0);
      watch.heard('a', 10);
      // a: 3 jobs, heard from at 10 s; the held job waited longest but may not go; b has a poll on the wire;
      // c is not tracked.
      assert.deepEqual([...watch.due(jobs, (j) => j, 20, true)], [[jobs[2], 10 + 200_000]]);
      watch.drop('a');
      assert.deepEqual([...watch.due(jobs, (j) => j, 20, true)], [[jobs[2], 10 + 300_000]]);
    });
  });
});
