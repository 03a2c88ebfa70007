import * as assert from 'node:assert/strict';
import { combinedForecast, progressStartMs, readingForecast, RecentSpans, spanFromMarks } from '../../../src/videos/core/progressForecast';
import { DurationHistory, MemoryJsonStore } from '../../../src/videos/core/durationHistory';

const S = 1_000;
const near = (actual: number | undefined, expected: number) => assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-6, `${actual} ≠ ${expected}`);

describe('progressForecast', () => {
  describe('readingForecast (one reading)', () => {
    it('is done by t / p after progress could begin, and no sooner than the count read one percent higher', () => {
      // 40 % at 60 s: remaining ≤ 60 × 0.6/0.4 = 90 s.
      const forecast = readingForecast(0, { at: 60 * S, percent: 40 })!;
      near(forecast.latest, 150 * S);
      near(forecast.earliest, (60 * S) / 0.41);
    });

    it('counts from when progress could begin, not before', () => {
      const forecast = readingForecast(10 * S, { at: 60 * S, percent: 50 })!;
      near(forecast.latest, 110 * S);
    });

    it('says nothing from a reading too small to tell the rate, from 0 or 100 %, or before it could begin', () => {
      assert.equal(readingForecast(0, { at: 60 * S, percent: 1 }), undefined);
      assert.equal(readingForecast(0, { at: 60 * S, percent: 0 }), undefined);
      assert.equal(readingForecast(0, { at: 60 * S, percent: 100 }), undefined);
      assert.equal(readingForecast(60 * S, { at: 60 * S, percent: 50 }), undefined);
    });
  });

  describe('combinedForecast', () => {
    it('keeps the two marks\' earliest and the sooner latest', () => {
      assert.deepEqual(combinedForecast({ earliest: 100, latest: 130 }, { earliest: 120, latest: 125 }), { earliest: 100, latest: 125 });
      assert.deepEqual(combinedForecast({ earliest: 100 }, { earliest: 90, latest: 140 }), { earliest: 100, latest: 140 });
      assert.deepEqual(combinedForecast({ earliest: 100 }, undefined), { earliest: 100 });
      assert.deepEqual(combinedForecast(undefined, { earliest: 90, latest: 95 }), { earliest: 90, latest: 95 });
      // A latest before the earliest: the window closes at the latest.
      assert.deepEqual(combinedForecast({ earliest: 100, latest: 130 }, { earliest: 80, latest: 90 }), { earliest: 90, latest: 90 });
    });
  });

  describe('progressStartMs', () => {
    it('finds when progress began from a reading and the duration', () => {
      // Began at 5 s, 100 s to go: at 55 s it read 50 % (the middle of [50, 51) is 50.5 %).
      const start = progressStartMs({ at: 55 * S, percent: 50 }, 105 * S)!;
      assert.ok(Math.abs(start - 5 * S) < 1.2 * S, `${start}`);
    });

    it('is never before the submission, and says nothing from a small reading', () => {
      assert.equal(progressStartMs({ at: 10 * S, percent: 50 }, 30 * S), 0);
      assert.equal(progressStartMs({ at: 50 * S, percent: 2 }, 100 * S), undefined);
      assert.equal(progressStartMs({ at: 50 * S, percent: 50 }, 50 * S), undefined);
    });
  });

  describe('spanFromMarks (a job still running)', () => {
    it('extrapolates the rate between two marks back to the start and on to the end', () => {
      // 10 % at 14 s and 30 % at 30 s: 0.8 s a point; 30.5 % (the middle of [30, 31)) took 24.4 s, 69.5 % are to go.
      const span = spanFromMarks({ at: 14 * S, percent: 10 }, { at: 30 * S, percent: 30 })!;
      near(span.start, 5.6 * S);
      near(span.end, 85.6 * S);
    });

    it('says nothing while the marks gained under ten points or are out of order', () => {
      assert.equal(spanFromMarks({ at: 14 * S, percent: 10 }, { at: 30 * S, percent: 19 }), undefined);
      assert.equal(spanFromMarks({ at: 30 * S, percent: 10 }, { at: 14 * S, percent: 30 }), undefined);
    });
  });

  describe('RecentSpans', () => {
    it('keeps one span per job and kind, the newest few, and leaves out the asking job', () => {
      const spans = new RecentSpans();
      const [a, b] = [{}, {}];
      const span = (start: number) => ({ start, end: start + 100 });
      spans.note('k', a, span(5));
      spans.note('k', b, span(7));
      spans.note('k', a, span(6));
      spans.note('other', a, span(60));
      assert.deepEqual(spans.spans('k'), [span(7), span(6)]);
      assert.deepEqual(spans.spans('k', a), [span(7)]);
      assert.deepEqual(spans.spans('none'), []);
      for (let i = 0; i < 50; i++) spans.note('k', {}, span(i));
      assert.equal(spans.spans('k').length, 20);
      assert.deepEqual(spans.spans('k')[19], span(49));
      for (let i = 0; i < 50; i++) spans.note(`kind ${i}`, a, span(i));
      assert.deepEqual(spans.spans('k'), [], 'the oldest kinds go first');
      assert.deepEqual(spans.spans('kind 49'), [span(49)]);
    });
  });

  describe('the learned start in the duration history', () => {
    it('is kept per kind, survives a save, and is dropped when it cannot be', async () => {
      const store = new MemoryJsonStore();
      const history = new DurationHistory({ store });
      const shape = { origin: 'https://a.example', model: 'm', resolution: '720p', duration: 4 };
      history.record(shape, { ms: 100 * S, at: 1, id: 'a', startMs: 5 * S });
      history.record(shape, { ms: 90 * S, at: 2, id: 'b' });
      history.record(shape, { ms: 90 * S, at: 3, id: 'c', startMs: 95 * S });
      await history.flush();
      const reread = new DurationHistory({ store });
      await reread.load();
      assert.deepEqual(reread.startsMs(shape), [5 * S]);
      assert.deepEqual(reread.durationsMs(shape), [100 * S, 90 * S, 90 * S]);
    });
  });
});
