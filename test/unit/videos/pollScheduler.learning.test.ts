// The scheduler's learned schedule and the gateway's timing hints, on a fake clock with jitter pinned to zero.
import * as assert from 'node:assert/strict';
import type { VideoJob } from '../../../src/gateway/types';
import { FakeClock, settle } from '../../util/fakeClock';
import { DurationHistory, MemoryJsonStore } from '../../../src/videos/core/durationHistory';
import { PollScheduler, type JobProfile, type PollSchedulerOptions } from '../../../src/videos/core/pollScheduler';
import { learnedPlan } from '../../../src/videos/core/pollPlan';
import { timingPolicy } from '../../../src/videos/core/pollTiming';
import { deferred, FakeGateway, FakeGatewayError, type Deferred } from './fakes';

const A = 'https://a.example';
const MODEL = 'model-1.0-video-edit';
const S = 1_000;
const MIN = 60_000;

/** The learned plan from earlier durations of `durationsS`, in ms after submission (pollPlan.test.ts tests the plan). */
function planned(durationsS: number[]): number[] {
  return learnedPlan(durationsS.map((s) => s * S), 0, timingPolicy({}))!;
}

describe('PollScheduler: learned schedule and gateway hints', () => {
  let clock: FakeClock;
  let gateway: FakeGateway;
  let history: DurationHistory;
  let scheduler: PollScheduler;
  let start: number;
  /** Retry-After (ms) the next answers for a job carry, consumed one per poll. */
  let retryAfter: Map<string, number[]>;

  function create(options: Partial<PollSchedulerOptions> = {}): PollScheduler {
    scheduler = new PollScheduler({
      clock,
      random: () => 0,
      minGapMs: 0,
      history,
      poll: async (target, signal, onRetryAfter) => {
        const job = await gateway.getVideo(target.id, { signal });
        const wait = retryAfter.get(target.id)?.shift();
        if (wait !== undefined) onRetryAfter(wait);
        return job;
      },
      ...options,
    });
    return scheduler;
  }

  function profile(resolution = '720p', duration = 4): JobProfile {
    return { model: MODEL, resolution, duration, submittedAt: clock.now() };
  }

  function track(id: string, job: JobProfile = profile()): void {
    scheduler.track({ key: id, origin: A, id }, { job });
  }

  /** Poll times of a job, in ms after the start. */
  function pollTimes(id: string): number[] {
    return gateway.gets(id).map((call) => call.at - start);
  }

  function learn(durationsS: number[], resolution = '720p', duration = 4): void {
    durationsS.forEach((s, i) => history.record({ origin: A, model: MODEL, resolution, duration }, { ms: s * S, at: i }));
  }

  beforeEach(async () => {
    clock = new FakeClock();
    start = clock.now();
    gateway = new FakeGateway(clock);
    history = new DurationHistory({ store: new MemoryJsonStore() });
    await history.load();
    retryAfter = new Map();
  });

  afterEach(() => {
    scheduler?.dispose();
    assert.equal(clock.pendingTimers, 0, 'dispose leaves no timer behind');
  });

  describe('until there is history', () => {
    it('polls a job of an unknown kind exactly as the plain backoff does', async () => {
      learn([100, 104, 108]); // another kind
      learn([100, 104], '1080p', 8); // this kind, too few
      create();
      track('known-too-little', profile('1080p', 8));
      scheduler.track({ key: 'no-profile', origin: A, id: 'no-profile' });
      await clock.advanceAsync(3 * MIN);
      const backoff = [2, 6, 14, 30, 60, 90, 120, 150, 180].map((s) => s * S);
      assert.deepEqual(pollTimes('known-too-little'), backoff);
      assert.deepEqual(pollTimes('no-profile'), backoff);
    });
  });

  describe('with history', () => {
    it('polls at the learned plan, then sparsely past its end', async () => {
      const plan = planned([100, 104, 108, 112, 116, 120]);
      learn([100, 104, 108, 112, 116, 120]);
      create();
      track('j1');
      await clock.advanceAsync(5 * MIN);
      const times = pollTimes('j1');
      assert.ok(plan[0] < 100 * S && plan.at(-1)! > 120 * S, `the plan covers what was seen: ${plan.join(', ')}`);
      assert.deepEqual(times.slice(0, plan.length), plan);
      // Past the plan the gap doubles from the plan's last one, up to the 30 s cap.
      const lastGap = plan.at(-1)! - plan.at(-2)!;
      const gaps = times.slice(plan.length - 1).map((at, i, all) => (i === 0 ? 0 : at - all[i - 1])).slice(1);
      assert.deepEqual(gaps.slice(0, 3), [2, 4, 8].map((k) => Math.min(30 * S, k * lastGap)));
      assert.ok(gaps.every((gap) => gap <= 30 * S));
    });

    it('keeps kinds apart: another resolution, duration, model or gateway is planned from its own history', async () => {
      learn([100, 104, 108, 112, 116, 120]);
      create();
      track('other-resolution', profile('1080p', 4));
      track('other-duration', profile('720p', 8));
      scheduler.track({ key: 'other-model', origin: A, id: 'other-model' }, { job: { ...profile(), model: 'video-2' } });
      scheduler.track({ key: 'other-origin', origin: 'https://b.example', id: 'other-origin' }, { job: profile() });
      await clock.advanceAsync(10 * S);
      for (const id of ['other-resolution', 'other-duration', 'other-model', 'other-origin']) assert.deepEqual(pollTimes(id), [2 * S, 6 * S], id);
    });

    it('sees a completion at the first planned poll after it and learns its duration', async () => {
      const plan = planned([100, 104, 108, 112, 116, 120]);
      learn([100, 104, 108, 112, 116, 120]);
      create();
      const created = Math.floor(start / 1000);
      gateway.script('j1', 'in_progress', 'in_progress', 'in_progress', { id: 'j1', status: 'completed', created, completed_at: created + 107 });
      track('j1');
      await clock.advanceAsync(4 * MIN);
      const seenAt = plan.findIndex((at) => at >= 107 * S);
      assert.deepEqual(pollTimes('j1'), plan.slice(0, seenAt + 1));
      assert.equal(seenAt, 3, `three polls before 107 s: ${plan.join(', ')}`);
      assert.equal(scheduler.isTracked('j1'), false);
      await history.flush();
      assert.equal(history.durationsMs({ origin: A, model: MODEL, resolution: '720p', duration: 4 }).at(-1), 107 * S);
    });

    it('learns from the polls alone when the gateway gives no times, and not from failures', async () => {
      create();
      gateway.script('ok', 'queued', 'in_progress', 'completed'); // polls at 2, 6, 14 s: done between 6 and 14
      gateway.script('bad', 'queued', 'failed');
      track('ok');
      track('bad');
      await clock.advanceAsync(MIN);
      assert.deepEqual(history.durationsMs({ origin: A, model: MODEL, resolution: '720p', duration: 4 }), [10 * S]);
    });

    it('does not wait more than maxQuietMs before a far plan, so an early failure is still seen', async () => {
      learn([30 * 60, 31 * 60, 32 * 60]);
      create();
      gateway.script('j1', 'in_progress', 'failed');
      track('j1');
      await clock.advanceAsync(60 * MIN);
      assert.deepEqual(pollTimes('j1'), [10 * MIN, 20 * MIN]);
    });

    it('keeps every rule: at most maxInFlight at once, a 429 pauses all, nothing while idle', async () => {
      learn([100, 100, 100]);
      // A quiet limit of 20 min keeps the origin watch (20 min / 8 jobs = 150 s) out of the way of the plan.
      create({ maxInFlight: 3, maxQuietMs: 20 * MIN });
      const answers: Array<Deferred<VideoJob>> = [];
      let peak = 0;
      gateway.onGet = () => {
        const answer = deferred<VideoJob>();
        answers.push(answer);
        peak = Math.max(peak, scheduler.inFlight);
        return answer.promise;
      };
      for (let i = 0; i < 8; i++) track(`j${i}`);
      const [first] = planned([100, 100, 100]);
      assert.ok(first >= 100 * S && first <= 102 * S, `${first}`);
      await clock.advanceAsync(first - 1);
      assert.equal(gateway.calls.length, 0, 'nothing before the plan');
      await clock.advanceAsync(1);
      assert.equal(gateway.calls.length, 3, 'eight jobs due at once: three polls go');
      answers.shift()!.reject(new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 20 * S }));
      answers.splice(0).forEach((a) => a.resolve({ id: 'x', status: 'completed' }));
      await settle();
      await clock.advanceAsync(20 * S - 1);
      assert.equal(gateway.calls.length, 3, 'nothing inside the pause');
      gateway.onGet = (id) => ({ id, status: 'completed' });
      await clock.advanceAsync(1);
      await clock.advanceAsync(10 * S);
      assert.equal(gateway.calls.length, 9);
      assert.ok(peak <= 3);
      assert.equal(scheduler.pendingCount, 0);
      assert.equal(clock.pendingTimers, 0, 'no timer once nothing is pending');
    });

    it('polls slower while unfocused, as every job does', async () => {
      learn([100, 100, 100]);
      create();
      scheduler.setFocused(false);
      track('j1');
      await clock.advanceAsync(7 * MIN);
      // The wait for the plan (just after 100 s) is no cadence to multiply: unfocused, at most 4 × the 30 s cap.
      assert.equal(pollTimes('j1')[0], 120 * S);
    });
  });

  describe('an origin whose jobs all wait together', () => {
    /** Jobs j0 … j(n−1), submitted now, all of a kind that takes 300 s: each waits for its plan, just after 300 s. */
    function waitTogether(n: number): string[] {
      learn([300, 300, 300]);
      const ids = Array.from({ length: n }, (_, i) => `j${i}`);
      for (const id of ids) track(id);
      return ids;
    }

    /** Poll starts to the origin, in s after the start, with the job polled. */
    function polls(): Array<[number, string]> {
      return gateway.gets().map((call) => [(call.at - start) / S, call.id!]);
    }

    it('is still heard from every maxQuietMs / pending jobs, each time through the job that waited longest', async () => {
      create();
      waitTogether(10);
      const [first] = planned([300, 300, 300]);
      await clock.advanceAsync(300 * S - 1);
      // 10 min / 10 jobs: one poll a minute keeps the origin observed; a job's own schedule is unchanged.
      assert.deepEqual(polls(), [[60, 'j0'], [120, 'j1'], [180, 'j2'], [240, 'j3']]);
      await clock.advanceAsync(first - 300 * S + 1);
      // The watch's poll at 300 s (through j4) and every other job at its plan's first poll, just after.
      assert.deepEqual(polls().slice(4).map(([at]) => at), [300, ...Array.from({ length: 9 }, () => first / S)]);
    });

    it('meets a run of 429s that answers whatever comes next while the jobs wait, not at their plan', async () => {
      create();
      let forced = 0;
      gateway.onGet = (id) => {
        if (forced > 0) {
          forced--;
          return new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 20 * S });
        }
        return { id, status: clock.now() - start >= 300 * S ? 'completed' : 'in_progress' };
      };
      const seenAt = new Map<string, number>();
      scheduler?.onDidPoll((event) => {
        if (event.outcome.kind === 'status' && event.outcome.final) seenAt.set(event.target.id, (event.polledAt - start) / S);
      });
      const ids = waitTogether(10);
      clock.setTimeout(() => (forced = 3), 100 * S);
      await clock.advanceAsync(8 * MIN);
      // Met by the watch at 120 s and over at 180 s (3 × Retry-After: 20 s), long before the jobs finish at 300 s;
      // met at the plan instead, the three 429s would hide every completion until 360 s.
      assert.deepEqual(
        polls().filter(([at]) => at > 60 && at < 300),
        [[120, 'j1'], [140, 'j1'], [160, 'j1'], [180, 'j1'], [240, 'j2']],
      );
      const [first] = planned([300, 300, 300]);
      assert.ok(ids.every((id) => seenAt.get(id)! >= 300 && seenAt.get(id)! <= first / S), `seen at ${[...seenAt.values()].join(', ')}`);
    });

    it('does not poll early a job the gateway asked to wait', async () => {
      learn([400, 400, 400]);
      create();
      retryAfter.set('held', [20 * MIN]);
      track('held');
      scheduler.pollNow('held');
      await settle();
      await clock.advanceAsync(10 * S);
      for (const id of ['j1', 'j2', 'j3']) track(id);
      await clock.advanceAsync(10 * MIN - 10 * S);
      // 10 min / 4 jobs: the origin is polled 150 s after it last answered, through j1 (tracked at 10 s), not
      // through "held" (waiting since 0 s, but asked to wait 20 min), whose next poll stays at its Retry-After.
      assert.deepEqual(pollTimes('held'), [0]);
      assert.equal(pollTimes('j1')[0], 150 * S);
    });

    it('is slowed while unfocused, as every cadence is', async () => {
      create();
      scheduler.setFocused(false);
      waitTogether(10);
      await clock.advanceAsync(300 * S - 1);
      // A minute, unfocused: 4 minutes.
      assert.deepEqual(polls(), [[240, 'j0']]);
    });

    it('is off with neither history nor hints (the bench baseline)', async () => {
      create({ gatewayHints: false, history: undefined });
      for (let i = 0; i < 40; i++) scheduler.track({ key: `j${i}`, origin: A, id: `j${i}` }, { nextPollAt: start + 5 * MIN });
      await clock.advanceAsync(5 * MIN - 1);
      assert.equal(gateway.gets().length, 0);
    });
  });

  describe('what the gateway says', () => {
    it('waits for a Retry-After that comes with a 200', async () => {
      create();
      retryAfter.set('j1', [45 * S, 0]);
      track('j1');
      await clock.advanceAsync(2 * MIN);
      assert.deepEqual(pollTimes('j1').slice(0, 3), [2 * S, 47 * S, 55 * S], 'then the backoff goes on (step 2: 8 s)');
    });

    it('caps a Retry-After on a 200 at one hour', async () => {
      create();
      retryAfter.set('j1', [3 * 24 * 60 * MIN]);
      track('j1');
      await clock.advanceAsync(3 * 60 * MIN);
      assert.equal(pollTimes('j1')[1], 2 * S + 60 * MIN);
    });

    it('is ignored with gatewayHints off (the bench baseline)', async () => {
      create({ gatewayHints: false });
      retryAfter.set('j1', [45 * S]);
      gateway.script('j1', { id: 'j1', status: 'in_progress', eta: 100, progress: 5 }, { id: 'j1', status: 'in_progress', eta: 100, progress: 10 });
      track('j1');
      await clock.advanceAsync(MIN);
      assert.deepEqual(pollTimes('j1'), [2, 6, 14, 30, 60].map((s) => s * S));
    });

    it('polls at the eta, then backs off from the minimum while the job overruns it', async () => {
      create();
      gateway.script('j1', { id: 'j1', status: 'in_progress', eta: 50 }, { id: 'j1', status: 'in_progress', eta: 0 });
      track('j1');
      await clock.advanceAsync(3 * MIN);
      // 2 s, then the eta (50 s later), then 2, 4, 8, 16, 30 s: an eta of 0 cannot make a hot loop.
      assert.deepEqual(pollTimes('j1').slice(0, 8), [2, 52, 54, 58, 66, 82, 112, 142].map((s) => s * S));
    });

    it('does not aim at one reading alone while it cannot tell when progress began', async () => {
      create();
      const job = (status: string, progress: number) => ({ id: 'j1', status, progress });
      gateway.script('j1', job('queued', 0), job('queued', 0), job('in_progress', 10), job('in_progress', 26));
      track('j1');
      await clock.advanceAsync(MIN);
      // 10 % at 14 s may have begun at 6 s or at 13 s: done by 86 s, but maybe by 23 s.
      assert.deepEqual(pollTimes('j1').slice(0, 4), [2, 6, 14, 30].map((s) => s * S));
    });

    it('forecasts the completion from one progress reading where earlier jobs tell when progress begins, then from two', async () => {
      history.record({ origin: A, model: MODEL, resolution: '720p', duration: 4 }, { ms: 100 * S, at: clock.now(), id: 'earlier', startMs: 6 * S });
      create();
      const job = (status: string, progress: number) => ({ id: 'j1', status, progress });
      gateway.script('j1', job('in_progress', 10), job('in_progress', 90), job('completed', 100));
      track('j1');
      await clock.advanceAsync(5 * MIN);
      const times = pollTimes('j1');
      // Progress begins at 6 s, as in the earlier job: a poll before then could only read 0 %, so the first waits
      // until it has had 10 s to show.
      assert.equal(times[0], 16 * S);
      // 10 % 10 s after progress began: no sooner than 6 + 10/0.11 s (no later than 6 + 10/0.1 s).
      assert.ok(Math.abs(times[1] - (6 * S + (10 * S) / 0.11)) < 1, `${times[1]}`);
      // Then (16 s, 10 %) and (96.9 s, 90 %) leave a narrow window: one poll at its end sees the job done.
      assert.equal(times.length, 3);
      assert.ok(times[2] - times[1] >= 9 * S && times[2] - times[1] <= 11 * S, `${times[2] - times[1]}`);
    });

    it('learns when progress begins from a job still running, and first polls a later one of its kind once it can show some', async () => {
      create();
      const job = (id: string, status: string, progress: number) => ({ id, status, progress });
      gateway.script('j1', job('j1', 'queued', 0), job('j1', 'queued', 0), job('j1', 'in_progress', 10), job('j1', 'in_progress', 30));
      gateway.script('j2', job('j2', 'in_progress', 12));
      track('j1');
      await clock.advanceAsync(31 * S);
      // No history: the plain backoff until two marks, (14 s, 10 %) and (30 s, 30 %), tell the rate and so the start:
      // 30.5 % at 1.25 % a second, 24.4 s before 30 s.
      assert.deepEqual(pollTimes('j1'), [2, 6, 14, 30].map((s) => s * S));
      const submitted = clock.now() - start;
      track('j2');
      await clock.advanceAsync(2 * MIN);
      const times = pollTimes('j2');
      assert.ok(Math.abs(times[0] - (submitted + 5.6 * S + 10 * S)) < 1, `first poll ${times[0]} (submitted at ${submitted})`);
      // Its one reading, 12 % 10 s after its own start, is aimed at: no sooner than 10/0.13 s after that start.
      assert.ok(Math.abs(times[1] - (submitted + 5.6 * S + (10 * S) / 0.13)) < 1, `second poll ${times[1]}`);
    });

    it('prefers a forecast from progress over the learned plan', async () => {
      learn([300, 300, 300]);
      create();
      const job = (progress: number) => ({ id: 'j1', status: 'in_progress', progress });
      gateway.script('j1', job(10), job(20), job(50));
      track('j1'); // first poll planned just after 300 s
      for (const at of [10 * S, 12 * S]) {
        await clock.advanceAsync(start + at - clock.now());
        scheduler.pollNow('j1');
        await settle();
      }
      await clock.advanceAsync(MIN);
      // Marks (10 s, 10 %) and (12 s, 20 %): done between 12 + 79 × 2/11 s and 12 + 80 × 2/9 s, long before the
      // plan; a window that narrow is polled once, at its end.
      const times = pollTimes('j1');
      assert.deepEqual(times.slice(0, 2), [10 * S, 12 * S]);
      assert.ok(Math.abs(times[2] - (12 * S + (80 * 2 * S) / 9)) < 1, `${times[2]}`);
    });

    it('polls a job of a kind known to be short when the shortest one was done, not 10 s after progress began', async () => {
      history.record({ origin: A, model: MODEL, resolution: '720p', duration: 4 }, { ms: 2.7 * S, at: clock.now(), id: 'earlier', startMs: 1.2 * S });
      create();
      gateway.script('j1', { id: 'j1', status: 'completed', progress: 100 });
      track('j1');
      await clock.advanceAsync(MIN);
      // One earlier job is no plan (three are), but it says progress begins at 1.2 s and the job is done by 2.7 s.
      assert.deepEqual(pollTimes('j1'), [2.7 * S]);
    });

    it('keeps to openai-poll-after-ms (a wait on the answer) when a forecast would poll sooner', async () => {
      history.record({ origin: A, model: MODEL, resolution: '720p', duration: 4 }, { ms: 100 * S, at: clock.now(), id: 'earlier', startMs: 6 * S });
      create();
      retryAfter.set('j1', [20 * S]);
      gateway.script('j1', { id: 'j1', status: 'in_progress', progress: 50 }, { id: 'j1', status: 'completed', progress: 100 });
      track('j1');
      await clock.advanceAsync(5 * MIN);
      // 50 % 10 s after progress began (6 s, as in the earlier job): done by 6 + 10/0.5 = 26 s, where it would poll;
      // the answer asked for 20 s.
      assert.deepEqual(pollTimes('j1'), [16 * S, 36 * S]);
    });

    it('also waits for a Retry-After on a failed poll (a 503)', async () => {
      create();
      gateway.script('j1', new FakeGatewayError(503, 'service_unavailable', { retryAfterMs: 40 * S }), 'queued');
      track('j1');
      await clock.advanceAsync(MIN);
      assert.deepEqual(pollTimes('j1').slice(0, 2), [2 * S, 42 * S]);
    });
  });
});
