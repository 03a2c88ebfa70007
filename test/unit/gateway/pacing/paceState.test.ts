// The pacing decisions on a fake clock: when nothing may go, when background work slows and extra Compare columns
// queue, what a 429 without budget headers teaches, and that figures expire when their reset comes.
import * as assert from 'node:assert/strict';
import { admit, decide, emptyPaceState, lowBudget, observeAnswer, settled, summarize, type PaceState } from '../../../../src/gateway/paceState';
import type { RateLimitReading } from '../../../../src/gateway/rateLimitHeaders';

const T = 5_000_000;
const requests = (limit: number, remaining: number, resetMs: number): RateLimitReading => ({ requests: { limit, remaining, resetMs } });

function sent(state: PaceState, priority: 'foreground' | 'background' | 'extra', now: number): void {
  assert.deepEqual(decide(state, priority, now), { go: true }, `${priority} at ${now - T}`);
  admit(state, priority, now);
}

describe('gateway pacing: decisions', () => {
  it('lets nothing go when no requests remain, until the reset', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(60, 0, 20_000), T);
    for (const priority of ['foreground', 'background', 'extra'] as const) assert.deepEqual(decide(state, priority, T), { go: false, until: T + 20_000, reason: 'empty' });
    assert.deepEqual(summarize(state, T + 1000), { kind: 'waiting', until: T + 20_000, reason: 'empty', unit: 'requests' });
    assert.deepEqual(decide(state, 'foreground', T + 19_999), { go: false, until: T + 20_000, reason: 'empty' });
    assert.deepEqual(decide(state, 'foreground', T + 20_000), { go: true }, 'the budget refilled');
    assert.equal(summarize(state, T + 20_000), undefined);
  });

  it('counts requests let through since the last figures, so a burst cannot overshoot the budget', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(60, 2, 30_000), T);
    sent(state, 'foreground', T);
    sent(state, 'foreground', T);
    assert.deepEqual(decide(state, 'foreground', T), { go: false, until: T + 30_000, reason: 'empty' });
    settled(state);
    observeAnswer(state, 200, requests(60, 1, 29_000), T + 1000);
    assert.deepEqual(decide(state, 'foreground', T + 1000), { go: true }, 'fresh figures replace the count');
  });

  it('waits for an empty token budget too', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, { requests: { limit: 60, remaining: 50, resetMs: 1000 }, tokens: { limit: 10_000, remaining: 0, resetMs: 6000 } }, T);
    assert.deepEqual(decide(state, 'foreground', T), { go: false, until: T + 6000, reason: 'empty' });
    assert.deepEqual(summarize(state, T), { kind: 'waiting', until: T + 6000, reason: 'empty', unit: 'tokens' });
  });

  it('below 10 % slows background work to spread what is left, and lets a person through', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(100, 5, 40_000), T);
    assert.deepEqual(summarize(state, T), { kind: 'slowing', unit: 'requests', left: 5, resetAt: T + 40_000 });
    sent(state, 'background', T);
    settled(state);
    // 4 left over the 39 s to the reset: one background request every 9.75 s.
    assert.deepEqual(decide(state, 'background', T + 1000), { go: false, until: T + 9750, reason: 'slowing' });
    sent(state, 'foreground', T + 1000);
    settled(state);
    sent(state, 'background', T + 13_334);
  });

  it('below 10 % queues extra Compare columns behind answers in flight', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(100, 9, 40_000), T);
    sent(state, 'foreground', T);
    assert.deepEqual(decide(state, 'extra', T), { go: false, until: undefined, reason: 'turn' });
    settled(state);
    sent(state, 'extra', T + 10);
    assert.deepEqual(decide(state, 'extra', T + 10), { go: false, until: undefined, reason: 'turn' });
  });

  it('at 10 % or more nothing is slowed', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(100, 10, 40_000), T);
    assert.equal(lowBudget(state, T), undefined);
    sent(state, 'extra', T);
    assert.equal(lowBudget(state, T)?.left, 9, 'one sent: 9 left, below 10 %');
    assert.deepEqual(decide(state, 'extra', T), { go: false, until: undefined, reason: 'turn' });
  });

  it('takes a 429\'s Retry-After as the whole lesson: no pace is learned from it', () => {
    const state = emptyPaceState();
    for (let i = 0; i < 5; i++) sent(state, 'foreground', T + i);
    observeAnswer(state, 429, { retryAfterMs: 1000 }, T + 10);
    assert.equal(state.learned, undefined);
    assert.deepEqual(decide(state, 'background', T + 1010), { go: true });
  });

  it('honours a 429\'s Retry-After for everyone, and not a Retry-After on a success', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, { retryAfterMs: 30_000 }, T);
    assert.deepEqual(decide(state, 'background', T), { go: true }, 'a video job saying when to ask again');
    observeAnswer(state, 429, { retryAfterMs: 5000 }, T);
    assert.deepEqual(decide(state, 'foreground', T + 4999), { go: false, until: T + 5000, reason: 'blocked' });
    assert.deepEqual(decide(state, 'foreground', T + 5000), { go: true });
  });

  it('learns the pace from 429s that bring no budget headers, and forgets it after a while', () => {
    const state = emptyPaceState();
    for (let i = 0; i < 6; i++) {
      sent(state, 'foreground', T + i * 1000);
      settled(state);
      observeAnswer(state, 200, {}, T + i * 1000);
    }
    observeAnswer(state, 429, {}, T + 5500);
    // Six sent in the minute, the sixth refused: five per minute, after a first pause of a second.
    assert.deepEqual(decide(state, 'foreground', T + 5500), { go: false, until: T + 6500, reason: 'blocked' });
    assert.deepEqual(decide(state, 'foreground', T + 6500), { go: false, until: T + 61_000, reason: 'learned' });
    assert.deepEqual(summarize(state, T + 6500), { kind: 'waiting', until: T + 61_000, reason: 'learned' });
    sent(state, 'foreground', T + 61_000);
    const later = T + 11 * 60_000;
    assert.deepEqual(decide(state, 'foreground', later), { go: true });
    assert.equal(state.learned, undefined, 'forgotten');
  });

  it('learns no pace from the refusal of the only request in the window', () => {
    const state = emptyPaceState();
    sent(state, 'foreground', T);
    settled(state);
    observeAnswer(state, 429, {}, T);
    assert.equal(state.learned, undefined);
    assert.deepEqual(decide(state, 'foreground', T + 1000), { go: true }, 'after the first pause');
  });

  it('pauses longer after each bare 429 in a row', () => {
    const state = emptyPaceState();
    observeAnswer(state, 429, {}, T);
    observeAnswer(state, 429, {}, T);
    observeAnswer(state, 429, {}, T);
    assert.deepEqual(decide(state, 'foreground', T), { go: false, until: T + 4000, reason: 'blocked' });
  });

  it('forgets figures a later answer is silent about, so silent requests cannot count a budget down to a stop', () => {
    const state = emptyPaceState();
    observeAnswer(state, 200, requests(100, 1, 60_000), T);
    assert.equal(lowBudget(state, T)?.left, 1);
    sent(state, 'foreground', T);
    settled(state);
    observeAnswer(state, 200, {}, T + 1000);
    assert.equal(lowBudget(state, T + 1000), undefined);
    sent(state, 'foreground', T + 1000);
    sent(state, 'foreground', T + 1000);
  });
});
