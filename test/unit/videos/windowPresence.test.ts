import * as assert from 'node:assert/strict';
import { FakeClock } from '../../util/fakeClock';
import { WindowPresence } from '../../../src/videos/core/windowPresence';
import { deferred, type Deferred } from './fakes';

describe('WindowPresence', () => {
  let clock: FakeClock;
  let pings: Array<Deferred<void>>;
  let presence: WindowPresence;
  let changes: boolean[];

  beforeEach(() => {
    clock = new FakeClock();
    pings = [];
    presence = new WindowPresence({ clock, intervalMs: 2_000, timeoutMs: 2_000, ping: () => (pings.push(deferred<void>()), pings.at(-1)!.promise) });
    changes = [];
    presence.onDidChange((attached) => changes.push(attached));
  });

  afterEach(() => {
    presence.dispose();
    assert.equal(clock.pendingTimers, 0);
  });

  it('stays attached while the window answers', async () => {
    for (let i = 0; i < 5; i++) {
      await clock.advanceAsync(2_000);
      pings.at(-1)!.resolve();
      await clock.advanceAsync(0);
    }
    assert.equal(pings.length, 5);
    assert.equal(presence.attached, true);
    assert.deepEqual(changes, []);
  });

  it('is detached when a round trip hangs, and attached again when it comes back (a reconnection)', async () => {
    await clock.advanceAsync(2_000);
    await clock.advanceAsync(1_999);
    assert.equal(presence.attached, true);
    await clock.advanceAsync(1);
    assert.equal(presence.attached, false);
    await clock.advanceAsync(60_000);
    assert.equal(pings.length, 1, 'one round trip waits; no pile of them');
    pings[0].resolve();
    await clock.advanceAsync(0);
    assert.equal(presence.attached, true);
    assert.deepEqual(changes, [false, true]);
    await clock.advanceAsync(2_000);
    assert.equal(pings.length, 2, 'probing goes on');
  });

  it('counts a refused round trip as an answer: the window is there', async () => {
    await clock.advanceAsync(2_000);
    pings[0].reject(new Error('command failed'));
    await clock.advanceAsync(3_999); // the next round trip starts 2 s after the answer
    assert.equal(pings.length, 2);
    assert.equal(presence.attached, true);
    assert.deepEqual(changes, []);
  });
});
