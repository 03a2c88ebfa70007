import * as assert from 'node:assert/strict';
import type { VideoJob } from '../../../src/gateway/types';
import { FakeClock, settle } from '../../util/fakeClock';
import {
  PollScheduler,
  type AuthRequired,
  type PauseChange,
  type PollEvent,
  type PollSchedulerOptions,
} from '../../../src/videos/core/pollScheduler';
import { deferred, FakeGateway, FakeGatewayError, seededRandom, type Deferred } from './fakes';

const A = 'https://a.example';
const B = 'https://b.example';

describe('PollScheduler', () => {
  let clock: FakeClock;
  let gateway: FakeGateway;
  let scheduler: PollScheduler;
  let events: PollEvent[];

  function create(options: Partial<PollSchedulerOptions> = {}): PollScheduler {
    scheduler = new PollScheduler({
      clock,
      random: () => 0,
      minGapMs: 0,
      poll: (target, signal) => gateway.getVideo(target.id, { signal }),
      ...options,
    });
    scheduler.onDidPoll((event) => events.push(event));
    return scheduler;
  }

  function track(id: string, origin = A): void {
    scheduler.track({ key: id, origin, id });
  }

  function intervals(id: string): number[] {
    const times = gateway.gets(id).map((call) => call.at);
    return times.slice(1).map((t, i) => t - times[i]);
  }

  beforeEach(() => {
    clock = new FakeClock();
    gateway = new FakeGateway(clock);
    events = [];
  });

  afterEach(() => {
    scheduler?.dispose();
    assert.equal(clock.pendingTimers, 0, 'dispose leaves no timer behind');
  });

  describe('backoff', () => {
    it('doubles the interval from the minimum up to the cap', async () => {
      create();
      const start = clock.now();
      track('j1');
      await clock.advanceAsync(200_000);
      const calls = gateway.gets('j1');
      assert.equal(calls[0].at - start, 2_000);
      assert.deepEqual(intervals('j1').slice(0, 7), [4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
    });

    it('honours configured minimum, maximum and factor', async () => {
      create({ minIntervalMs: 1_000, maxIntervalMs: 5_000, backoffFactor: 3 });
      track('j1');
      await clock.advanceAsync(30_000);
      assert.deepEqual(intervals('j1').slice(0, 4), [3_000, 5_000, 5_000, 5_000]);
    });

    it('takes new bounds on the live scheduler (a settings change rebuilds nothing)', async () => {
      create({ minIntervalMs: 1_000, maxIntervalMs: 5_000, backoffFactor: 3 });
      track('j1');
      await clock.advanceAsync(15_000);
      assert.deepEqual(intervals('j1').slice(0, 3), [3_000, 5_000, 5_000]);
      const before = gateway.gets('j1').length;
      scheduler.setIntervals({ minIntervalMs: 1_000, maxIntervalMs: 2_000 });
      await clock.advanceAsync(20_000);
      const after = intervals('j1').slice(before);
      assert.ok(after.length >= 5, `${after.length} polls after the change`);
      assert.ok(after.every((ms) => ms <= 2_000), `every poll after the first keeps to the new cap: ${after.join(', ')}`);
    });

    it('keeps jittered intervals within [base × (1 − jitter), base] and actually varies them', async () => {
      create({ random: seededRandom(7), jitter: 0.2 });
      track('j1');
      await clock.advanceAsync(20 * 60_000);
      const seen = intervals('j1');
      assert.ok(seen.length > 30);
      seen.forEach((interval, i) => {
        const base = scheduler.baseIntervalMs(i + 1);
        assert.ok(interval <= base && interval >= base * 0.8, `interval ${i}: ${interval} vs base ${base}`);
      });
      assert.ok(new Set(seen.slice(5)).size > 10, 'capped intervals are spread, not identical');
    });

    it('backs off on network and server errors and keeps the job', async () => {
      create();
      gateway.script('j1', new FakeGatewayError(undefined, 'network'), new FakeGatewayError(503, 'server_error'),
        new FakeGatewayError(500, 'server_error'), 'completed');
      track('j1');
      await clock.advanceAsync(60_000);
      assert.equal(gateway.gets('j1').length, 4);
      assert.deepEqual(intervals('j1'), [4_000, 8_000, 16_000]);
      assert.deepEqual(events.map((e) => e.outcome.kind), ['transient', 'transient', 'transient', 'status']);
      assert.equal(scheduler.isTracked('j1'), false);
    });

    it('never hot-loops on an unknown status: it is shown as-is and polled with backoff', async () => {
      create();
      gateway.script('j1', 'warming_up');
      track('j1');
      await clock.advanceAsync(10 * 60_000);
      const calls = gateway.gets('j1').length;
      // 2 + 4 + 8 + 16 s, then every 30 s: 4 + (600 − 30) / 30 = 23 polls in ten minutes.
      assert.equal(calls, 23);
      assert.ok(intervals('j1').every((interval) => interval >= 2_000));
      const last = events.at(-1)!;
      assert.equal(last.outcome.kind, 'status');
      assert.equal(last.outcome.kind === 'status' && last.outcome.job.status, 'warming_up');
      assert.equal(scheduler.isTracked('j1'), true);
    });
  });

  describe('final states', () => {
    for (const status of ['completed', 'succeeded', 'failed', 'cancelled', 'canceled', 'expired', 'error', 'COMPLETED']) {
      it(`stops polling for good once the job is ${status}`, async () => {
        create();
        gateway.script('j1', 'queued', 'in_progress', status);
        track('j1');
        await clock.advanceAsync(60 * 60_000);
        assert.equal(gateway.gets('j1').length, 3);
        assert.equal(scheduler.isTracked('j1'), false);
        assert.equal(scheduler.pollNow('j1'), false);
        scheduler.pollAllNow();
        scheduler.setFocused(false);
        scheduler.setFocused(true);
        await clock.advanceAsync(60 * 60_000);
        assert.equal(gateway.gets('j1').length, 3);
        const final = events.at(-1)!;
        assert.equal(final.outcome.kind === 'status' && final.outcome.final, true);
        assert.equal(final.nextPollAt, undefined);
      });
    }

    it('treats 404 as not found: final, no more polls', async () => {
      create();
      gateway.script('j1', 'queued', new FakeGatewayError(404, 'not_found'));
      track('j1');
      await clock.advanceAsync(60 * 60_000);
      assert.equal(gateway.gets('j1').length, 2);
      assert.equal(events.at(-1)!.outcome.kind, 'not_found');
      assert.equal(scheduler.isTracked('j1'), false);
    });
  });

  describe('timers', () => {
    it('arms no timer while nothing is pending', async () => {
      create();
      assert.equal(clock.pendingTimers, 0);
      scheduler.setFocused(false);
      scheduler.setFocused(true);
      scheduler.pollAllNow();
      assert.equal(clock.pendingTimers, 0);
      gateway.script('j1', 'queued', 'completed');
      gateway.script('j2', 'failed');
      track('j1');
      track('j2');
      assert.equal(clock.pendingTimers, 1, 'one timer serves every job');
      await clock.advanceAsync(10 * 60_000);
      assert.equal(clock.pendingTimers, 0);
      assert.equal(scheduler.hasTimer, false);
      assert.equal(gateway.calls.length, 3);
    });

    it('arms no timer when the last job is untracked, and ignores its in-flight answer', async () => {
      create();
      const answer = deferred<VideoJob>();
      gateway.onGet = () => answer.promise;
      track('j1');
      await clock.advanceAsync(2_000);
      assert.equal(scheduler.inFlight, 1);
      scheduler.untrack('j1');
      answer.resolve({ id: 'j1', status: 'completed' });
      await settle();
      assert.equal(events.length, 0);
      assert.equal(scheduler.inFlight, 0);
      assert.equal(clock.pendingTimers, 0);
    });

    it('dispose aborts polls in flight and clears the timer', async () => {
      create();
      gateway.onGet = () => new Promise<VideoJob>(() => undefined);
      track('j1');
      track('j2');
      await clock.advanceAsync(2_000);
      assert.equal(scheduler.inFlight, 2);
      scheduler.dispose();
      await settle();
      assert.equal(events.length, 0);
      assert.equal(clock.pendingTimers, 0);
      track('j3');
      assert.equal(clock.pendingTimers, 0, 'a disposed scheduler tracks nothing');
    });
  });

  describe('concurrency', () => {
    it('never has more than maxInFlight polls at once', async () => {
      create({ maxInFlight: 3 });
      const pending: Array<Deferred<VideoJob>> = [];
      let peak = 0;
      gateway.onGet = () => {
        const answer = deferred<VideoJob>();
        pending.push(answer);
        peak = Math.max(peak, scheduler.inFlight);
        return answer.promise;
      };
      for (let i = 0; i < 10; i++) track(`j${i}`);
      await clock.advanceAsync(5_000);
      assert.equal(gateway.calls.length, 3);
      pending.shift()!.resolve({ id: 'x', status: 'completed' });
      await settle();
      assert.equal(gateway.calls.length, 4, 'a freed slot is used at once');
      while (pending.length > 0) {
        pending.shift()!.resolve({ id: 'x', status: 'completed' });
        await settle();
      }
      assert.equal(gateway.calls.length, 10);
      assert.ok(peak <= 3, `peak ${peak}`);
      assert.equal(scheduler.pendingCount, 0);
      assert.equal(clock.pendingTimers, 0);
    });

    it('spaces poll starts by at least minGapMs', async () => {
      create({ minGapMs: 250, maxInFlight: 10 });
      for (let i = 0; i < 8; i++) track(`j${i}`);
      await clock.advanceAsync(10_000);
      const starts = gateway.calls.map((c) => c.at).slice(0, 8);
      starts.slice(1).forEach((t, i) => assert.ok(t - starts[i] >= 250, `gap ${t - starts[i]}`));
    });
  });

  describe('rate limiting (429)', () => {
    it('pauses every poll to the gateway until Retry-After is over, and exposes the pause', async () => {
      create();
      const pauses: PauseChange[] = [];
      scheduler.onDidChangePause((p) => pauses.push(p));
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 20_000 }), 'queued');
      track('j1');
      await clock.advanceAsync(1_000);
      track('j2');
      track('j3');
      await clock.advanceAsync(1_000); // j1 polled at t=2 s and rate limited
      const limitedAt = clock.now();
      assert.equal(gateway.calls.length, 1);
      assert.deepEqual(pauses, [{ origin: A, pausedUntil: limitedAt + 20_000 }]);
      assert.equal(scheduler.pausedUntil(A), limitedAt + 20_000);
      assert.equal(scheduler.pausedUntil(B), undefined);

      scheduler.pollNow('j2');
      scheduler.pollAllNow();
      scheduler.setFocused(false);
      scheduler.setFocused(true);
      await clock.advanceAsync(19_999);
      assert.equal(gateway.calls.length, 1, 'no request inside the Retry-After window');
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 4, 'all three jobs resume when the window ends');
      assert.ok(gateway.calls.slice(1).every((c) => c.at === limitedAt + 20_000));
      assert.deepEqual(pauses.at(-1), { origin: A, pausedUntil: undefined });
      assert.equal(scheduler.pausedUntil(A), undefined);
    });

    it('does not pause other gateways', async () => {
      create();
      gateway.script('a1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 30_000 }), 'queued');
      track('a1', A);
      await clock.advanceAsync(2_000);
      const limitedAt = clock.now();
      track('a2', A);
      track('b1', B);
      await clock.advanceAsync(10_000);
      assert.deepEqual(gateway.gets('b1').map((c) => c.at), [limitedAt + 2_000, limitedAt + 6_000]);
      assert.equal(gateway.gets('a2').length, 0);
      assert.equal(scheduler.pausedUntil(A), limitedAt + 30_000);
    });

    it('extends a pause but never shortens it', async () => {
      create();
      gateway.script('a1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 30_000 }), 'queued');
      gateway.script('a2', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 5_000 }), 'queued');
      track('a1');
      track('a2');
      await clock.advanceAsync(2_000); // both polls were in flight together
      const limitedAt = clock.now();
      assert.equal(gateway.calls.length, 2);
      assert.equal(scheduler.pausedUntil(A), limitedAt + 30_000);
      await clock.advanceAsync(29_999);
      assert.equal(gateway.calls.length, 2);
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 4);
    });

    it('pauses for a default time when the 429 carries no Retry-After', async () => {
      create({ defaultRateLimitPauseMs: 15_000 });
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited'), 'queued');
      track('j1');
      await clock.advanceAsync(2_000);
      assert.equal(scheduler.pausedUntil(A), clock.now() + 15_000);
      await clock.advanceAsync(14_999);
      assert.equal(gateway.calls.length, 1);
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 2);
    });

    it('never hot-loops on a repeated 429 with Retry-After: 0', async () => {
      create();
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 0 }));
      track('j1');
      await clock.advanceAsync(60_000);
      assert.ok(intervals('j1').every((interval) => interval >= 2_000));
      assert.ok(gateway.calls.length <= 30, `${gateway.calls.length} polls in a minute`);
    });

    it('caps a pause at one hour, however long the Retry-After, and waits it out with one timer', async () => {
      create();
      const pauses: PauseChange[] = [];
      scheduler.onDidChangePause((p) => pauses.push(p));
      // 30 days: longer than a platform timer can wait (2^31 − 1 ms).
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 30 * 24 * 60 * 60_000 }), 'queued');
      track('j1');
      await clock.advanceAsync(2_000);
      const limitedAt = clock.now();
      assert.equal(scheduler.pausedUntil(A), limitedAt + 60 * 60_000);
      assert.equal(clock.nextDueAt(), limitedAt + 60 * 60_000, 'one timer, armed for the end of the pause');
      await clock.advanceAsync(60 * 60_000 - 1);
      assert.equal(gateway.calls.length, 1, 'nothing inside the pause');
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 2);
      assert.deepEqual(pauses, [{ origin: A, pausedUntil: limitedAt + 60 * 60_000 }, { origin: A, pausedUntil: undefined }]);
    });

    it('arms no timer for a pause when nothing is pending', async () => {
      create();
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 20_000 }));
      track('j1');
      await clock.advanceAsync(2_000);
      scheduler.untrack('j1');
      assert.equal(clock.pendingTimers, 0);
      assert.ok(scheduler.pausedUntil(A)! > clock.now(), 'the pause still applies to new jobs');
      track('j2');
      await clock.advanceAsync(19_000);
      assert.equal(gateway.gets('j2').length, 0);
    });
  });

  describe('authentication (401/403)', () => {
    for (const status of [401, 403]) {
      it(`pauses the origin on ${status}, emits authRequired once, and resumes on resumeAuth`, async () => {
        create();
        const auth: AuthRequired[] = [];
        scheduler.onAuthRequired((a) => auth.push(a));
        gateway.onGet = (id) => (id.startsWith('a') && auth.length === 0 ? new FakeGatewayError(status, 'unauthorized') : { id, status: 'queued' });
        track('a1', A);
        track('a2', A);
        track('b1', B);
        await clock.advanceAsync(10 * 60_000);
        assert.equal(auth.length, 1);
        assert.equal(auth[0].origin, A);
        assert.equal(auth[0].status, status);
        assert.equal(scheduler.isAuthBlocked(A), true);
        assert.equal(scheduler.authFailure(A)?.status, status, 'the refusal is kept for the view to word');
        assert.equal(scheduler.authFailure(B), undefined);
        const aCalls = gateway.calls.filter((c) => c.id!.startsWith('a')).length;
        assert.ok(aCalls <= 2, `only the polls already in flight reached the gateway (${aCalls})`);
        assert.ok(gateway.gets('b1').length > 10, 'the other gateway keeps polling');

        scheduler.resumeAuth(A);
        await settle();
        assert.equal(gateway.calls.filter((c) => c.id!.startsWith('a') && c.at === clock.now()).length, 2, 'overdue jobs are polled at once');
        assert.equal(scheduler.isAuthBlocked(A), false);
        assert.equal(scheduler.authFailure(A), undefined);
      });
    }
  });

  describe('focus', () => {
    it('polls less often while unfocused (interval × 4, at least 60 s)', async () => {
      create();
      const start = clock.now();
      scheduler.setFocused(false);
      track('j1');
      await clock.advanceAsync(20 * 60_000);
      // Base intervals 2, 4, 8, 16, 30 s become 60, 60, 60, 64, 120 s.
      assert.equal(gateway.gets('j1')[0].at - start, 60_000);
      assert.deepEqual(intervals('j1').slice(0, 5), [60_000, 60_000, 64_000, 120_000, 120_000]);
    });

    it('catches up at once on focus: due and overdue jobs are polled immediately, others keep their time', async () => {
      create();
      track('early');
      await clock.advanceAsync(1_000);
      track('late');
      scheduler.setFocused(false);
      await clock.advanceAsync(1_500); // now 2.5 s: early was due at 2 s, late is due at 3 s (focused view)
      assert.equal(gateway.calls.length, 0, 'unfocused: not polled yet');
      scheduler.setFocused(true);
      await settle();
      assert.deepEqual(gateway.calls.map((c) => c.id), ['early']);
      assert.equal(gateway.calls[0].at, clock.now());
      await clock.advanceAsync(500);
      assert.deepEqual(gateway.calls.map((c) => c.id), ['early', 'late']);
    });

    it('an explicit refresh is not slowed by lost focus', async () => {
      create();
      scheduler.setFocused(false);
      track('j1');
      await clock.advanceAsync(5_000);
      assert.equal(gateway.calls.length, 0);
      assert.equal(scheduler.pollNow('j1'), true);
      await settle();
      assert.equal(gateway.calls.length, 1);
    });
  });

  describe('wall-clock steps', () => {
    const HOUR = 60 * 60_000;

    it('keeps polling on schedule when the wall clock steps back an hour', async () => {
      create();
      track('j1');
      await clock.advanceAsync(6_500); // polls at 2 s and 6 s
      assert.equal(gateway.gets('j1').length, 2);
      clock.stepWall(-HOUR);
      await clock.advanceAsync(60_000);
      // Backoff goes on from 6 s: 14, 30, 60 s (monotonic), as if nothing happened.
      assert.equal(gateway.gets('j1').length, 5, 'polled through the step, not an hour later');
      assert.deepEqual(intervals('j1'), [4_000, 8_000 - HOUR, 16_000, 30_000]);
    });

    it('does not hurry when it steps forward, and reports its times on the wall clock', async () => {
      create();
      gateway.script('j1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 20_000 }), 'queued');
      track('j1');
      await clock.advanceAsync(2_000); // rate limited at t = 2 s
      const limitedAt = clock.now();
      clock.stepWall(HOUR);
      assert.equal(scheduler.pausedUntil(A), limitedAt + HOUR + 20_000, 'the pause on the stepped wall clock');
      await clock.advanceAsync(19_999);
      assert.equal(gateway.calls.length, 1, 'the pause still lasts its 20 s');
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 2);
      assert.equal(events.at(-1)!.polledAt, clock.now(), 'polledAt is wall time');
      assert.equal(scheduler.nextPollAt('j1'), clock.now() + 4_000, 'nextPollAt is wall time');
    });
  });

  describe('restoring', () => {
    it('resumes at the stored next poll time and backoff step', async () => {
      create();
      const start = clock.now();
      scheduler.track({ key: 'j1', origin: A, id: 'j1' }, { pollCount: 3, lastPolledAt: start - 4_000, nextPollAt: start + 12_000 });
      await clock.advanceAsync(11_999);
      assert.equal(gateway.calls.length, 0);
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 1);
      await clock.advanceAsync(60_000);
      assert.equal(intervals('j1')[0], 30_000, 'backoff continues from step 4 (capped)');
      assert.equal(events[0].pollCount, 4);
    });

    it('polls overdue restored jobs at once, within the in-flight cap', async () => {
      create({ maxInFlight: 2 });
      gateway.onGet = () => new Promise<VideoJob>(() => undefined);
      for (let i = 0; i < 5; i++) scheduler.track({ key: `j${i}`, origin: A, id: `j${i}` }, { nextPollAt: clock.now() - 60_000 });
      await settle();
      assert.equal(gateway.calls.length, 2);
    });
  });
});
