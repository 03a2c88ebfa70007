// Reading the gateway's rate-limit headers: every form the issue names, and nonsense that must stay unknown.
import * as assert from 'node:assert/strict';
import { parseCount, parseDuration, parseReset, readRateLimitHeaders } from '../../../../src/gateway/rateLimitHeaders';

const NOW = 1_732_600_000_000;

describe('gateway pacing: rate-limit headers', () => {
  it('reads Go-style durations, bare seconds and epoch seconds as milliseconds from now', () => {
    assert.equal(parseReset('6m0s', NOW), 360_000);
    assert.equal(parseReset('20s', NOW), 20_000);
    assert.equal(parseReset('1.5s', NOW), 1500);
    assert.equal(parseReset('100ms', NOW), 100);
    assert.equal(parseReset('1h2m3.5s', NOW), 3_723_500);
    assert.equal(parseReset(' 20 ', NOW), 20_000, 'bare seconds');
    assert.equal(parseReset('0.5', NOW), 500);
    assert.equal(parseReset(String(NOW / 1000 + 40), NOW), 40_000, 'epoch seconds');
    assert.equal(parseReset(String(NOW / 1000 + 40.25), NOW), 40_250, 'fractional epoch seconds');
    assert.equal(parseReset(String(NOW / 1000 - 5), NOW), 0, 'an epoch in the past: refilled already');
    assert.equal(parseDuration('250us'), 0.25);
  });

  it('keeps nonsense resets unknown rather than wrong', () => {
    for (const bad of ['', '   ', 's', '20x', '-20s', '20s-', '1e3', '1e3s', '0x10', 'NaN', 'Infinity', '1..5s', '1.5.s', '20 s', 'm20', '25h', '999999999999s', String(NOW / 1000 + 2 * 86_400), '9'.repeat(41), '1'.repeat(25) + 's']) {
      assert.equal(parseReset(bad, NOW), undefined, JSON.stringify(bad));
    }
    assert.equal(parseReset(undefined, NOW), undefined);
  });

  it('reads counts only when they are plain integers', () => {
    assert.equal(parseCount('60'), 60);
    assert.equal(parseCount(' 0 '), 0);
    for (const bad of ['-1', '1.5', '1e3', '0x1f', '', 'ten', '12 3', '99999999999999', 'Infinity', '+5']) assert.equal(parseCount(bad), undefined, bad);
  });

  it('reads both budgets and the server wait from one answer', () => {
    const reading = readRateLimitHeaders(
      {
        'x-ratelimit-limit-requests': '60',
        'x-ratelimit-remaining-requests': '3',
        'x-ratelimit-reset-requests': '40s',
        'x-ratelimit-limit-tokens': '150000',
        'x-ratelimit-remaining-tokens': '149000',
        'x-ratelimit-reset-tokens': '6m0s',
        'retry-after-ms': '1500',
      },
      NOW,
    );
    assert.deepEqual(reading, { requests: { limit: 60, remaining: 3, resetMs: 40_000 }, tokens: { limit: 150_000, remaining: 149_000, resetMs: 360_000 }, retryAfterMs: 1500 });
  });

  it('reads Retry-After as seconds or an HTTP date, and refuses absurd waits', () => {
    assert.deepEqual(readRateLimitHeaders({ 'retry-after': '20' }, NOW), { retryAfterMs: 20_000 });
    assert.deepEqual(readRateLimitHeaders({ 'retry-after': new Date(NOW + 30_000).toUTCString() }, NOW), { retryAfterMs: 30_000 });
    assert.deepEqual(readRateLimitHeaders({ 'retry-after': '9999999' }, NOW), {}, 'over a day: not believed');
    assert.deepEqual(readRateLimitHeaders({ 'retry-after': 'soon' }, NOW), {});
  });

  it('drops a remaining figure above its limit and a header that is not a figure', () => {
    assert.deepEqual(readRateLimitHeaders({ 'x-ratelimit-limit-requests': '10', 'x-ratelimit-remaining-requests': '11' }, NOW), { requests: { limit: 10 } });
    assert.deepEqual(readRateLimitHeaders({ 'x-ratelimit-remaining-requests': 'lots', 'x-ratelimit-reset-requests': 'later' }, NOW), {});
    assert.deepEqual(readRateLimitHeaders({ 'x-ratelimit-remaining-requests': ['2', '9'] }, NOW), { requests: { remaining: 2 } }, 'a repeated header: the first');
  });

  it('refuses a long value before scanning it', () => {
    assert.equal(parseReset('1'.repeat(20) + '.'.repeat(100_000), NOW), undefined);
    assert.equal(parseDuration('1s'.repeat(21)), undefined);
  });
});
