import * as assert from 'node:assert/strict';
import { FakeClock } from '../../util/fakeClock';
import { FinishAnnouncer } from '../../../src/videos/core/finishAnnouncer';

describe('FinishAnnouncer', () => {
  let clock: FakeClock;
  let claimed: Set<string>;
  let announced: string[];
  let attached: boolean;
  let announcer: FinishAnnouncer;

  beforeEach(() => {
    clock = new FakeClock();
    claimed = new Set();
    announced = [];
    attached = true;
    announcer = new FinishAnnouncer({
      clock,
      claim: (key) => !claimed.has(key) && !!claimed.add(key),
      announce: (key) => announced.push(key),
      unfocusedDelayMs: 1_500,
      attached: () => attached,
    });
  });

  afterEach(() => {
    announcer.dispose();
    assert.equal(clock.pendingTimers, 0);
  });

  it('claims at once when focused, after the delay when not, and at once on gaining focus', () => {
    announcer.finished('a');
    assert.deepEqual(announced, ['a']);
    announcer.setFocused(false);
    announcer.finished('b');
    clock.advance(1_499);
    assert.deepEqual(announced, ['a']);
    clock.advance(1);
    assert.deepEqual(announced, ['a', 'b']);
    announcer.finished('c');
    announcer.setFocused(true);
    assert.deepEqual(announced, ['a', 'b', 'c']);
  });

  it('announces nothing another window claimed first', () => {
    claimed.add('a');
    announcer.finished('a');
    assert.deepEqual(announced, []);
  });

  it('keeps what ends while the window is gone, and claims it when the window is back', () => {
    attached = false;
    announcer.finished('a');
    clock.advance(60_000);
    assert.deepEqual(announced, []);
    assert.equal(claimed.has('a'), false, 'no claim is spent where nobody sees it');
    attached = true;
    announcer.reattached();
    assert.deepEqual(announced, ['a']);
  });

  it('forgets a job that went away before it was announced', () => {
    announcer.setFocused(false);
    announcer.finished('a');
    announcer.cancel('a');
    clock.advance(5_000);
    assert.deepEqual(announced, []);
  });
});
