import * as assert from 'node:assert/strict';
import { clockOn, MAX_TIMER_MS, realClock, sleeperFor, type PlatformTimers } from '../../../src/util/clock';
import { FakeClock } from '../../util/fakeClock';

const DAY = 24 * 60 * 60_000;

/** Node's timers in miniature: a delay over 2^31 − 1 ms fires after 1 ms; every delay asked for is recorded. */
class OverflowingTimers implements PlatformTimers {
  time = 0;
  readonly asked: number[] = [];
  private readonly pending = new Map<number, { at: number; run: () => void }>();
  private next = 1;

  setTimeout(callback: () => void, ms: number): number {
    this.asked.push(ms);
    const id = this.next++;
    this.pending.set(id, { at: this.time + (ms > MAX_TIMER_MS ? 1 : Math.max(0, ms)), run: callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get armed(): number {
    return this.pending.size;
  }

  /** Runs every timer due by `until`, in order; returns how many fired. */
  runUntil(until: number): number {
    let fired = 0;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.time = due[1].at;
      fired++;
      due[1].run();
    }
    this.time = until;
    return fired;
  }
}

describe('Clock timers beyond the platform maximum (2^31 − 1 ms)', () => {
  it('the platform model really overflows: a raw 30-day timer fires after 1 ms', () => {
    const platform = new OverflowingTimers();
    let fired = 0;
    platform.setTimeout(() => fired++, 30 * DAY);
    platform.runUntil(1);
    assert.equal(fired, 1);
  });

  it('a 30-day wait fires once, at its time, re-armed in pieces the platform accepts', () => {
    const platform = new OverflowingTimers();
    const clock = clockOn(() => platform.time, platform);
    let firedAt: number | undefined;
    clock.setTimeout(() => (firedAt = platform.time), 30 * DAY);
    assert.equal(platform.runUntil(60_000), 0, 'nothing fires after 1 ms or a minute');
    assert.equal(firedAt, undefined);
    platform.runUntil(30 * DAY - 1);
    assert.equal(firedAt, undefined);
    platform.runUntil(30 * DAY);
    assert.equal(firedAt, 30 * DAY);
    assert.ok(platform.asked.every((ms) => ms <= MAX_TIMER_MS), `delays asked: ${platform.asked.join(', ')}`);
    assert.equal(platform.asked.length, 2, 'one re-arm for a wait under twice the maximum');
    assert.equal(platform.armed, 0);
  });

  it('clearTimeout cancels a long wait whichever piece is armed', () => {
    const platform = new OverflowingTimers();
    const clock = clockOn(() => platform.time, platform);
    let fired = 0;
    const handle = clock.setTimeout(() => fired++, 60 * DAY);
    platform.runUntil(26 * DAY); // past the first piece: the second one is armed now
    clock.clearTimeout(handle);
    platform.runUntil(90 * DAY);
    assert.equal(fired, 0);
    assert.equal(platform.armed, 0);
  });

  it('short waits pass through unchanged', () => {
    const platform = new OverflowingTimers();
    const clock = clockOn(() => platform.time, platform);
    clock.setTimeout(() => undefined, 1_500);
    clock.setTimeout(() => undefined, -5);
    clock.setTimeout(() => undefined, Number.NaN);
    assert.deepEqual(platform.asked, [1_500, 0, 0]);
  });

  it('FakeClock models the overflow underneath and guards it like the real clock', () => {
    const clock = new FakeClock();
    const start = clock.now();
    let raw = 0;
    clock.platform.setTimeout(() => raw++, 40 * DAY);
    clock.advance(1);
    assert.equal(raw, 1, 'the raw timer overflowed as Node’s does');

    let firedAt: number | undefined;
    clock.setTimeout(() => (firedAt = clock.now()), 40 * DAY);
    clock.advance(DAY);
    assert.equal(firedAt, undefined);
    clock.advance(39 * DAY);
    assert.equal(firedAt, start + 1 + 40 * DAY);
    assert.equal(clock.pendingTimers, 0);
  });

  it('a sleep of 30 days on the fake clock does not end early', async () => {
    const clock = new FakeClock();
    let done = false;
    const sleeping = sleeperFor(clock)(30 * DAY).then(() => (done = true));
    await clock.advanceAsync(25 * DAY);
    assert.equal(done, false);
    await clock.advanceAsync(5 * DAY);
    await sleeping;
    assert.equal(done, true);
  });

  it('the real clock never hands Node a delay it would overflow (no TimeoutOverflowWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'TimeoutOverflowWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const handle = realClock.setTimeout(() => assert.fail('must not fire'), 30 * DAY);
      realClock.clearTimeout(handle);
      await new Promise<void>((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
  });
});
