// When a job whose answers carry `progress` will finish, from the readings so far. Progress is read as linear in time
// and possibly rounded down to a whole percent. Pure: times are whatever one clock the caller uses.

export interface ProgressMark {
  at: number;
  percent: number;
}

export interface Forecast {
  earliest: number;
  latest?: number;
}

/**
 * From the first and the last progress seen while the job ran: `earliest` assumes the fastest rate the two marks
 * allow and `latest` the slowest (none when the marks are too close to bound it).
 */
export function progressForecast(first: ProgressMark, last: ProgressMark): Forecast | undefined {
  const elapsed = last.at - first.at;
  const gained = last.percent - first.percent;
  if (!(elapsed > 0 && gained > 0)) return undefined;
  const fastest = (gained + 1) / elapsed;
  const forecast: Forecast = { earliest: last.at + Math.max(0, 99 - last.percent) / fastest };
  const slowest = (gained - 1) / elapsed;
  if (slowest > 0) forecast.latest = last.at + (100 - last.percent) / slowest;
  return forecast;
}

/**
 * Below this fraction one reading says little: a rounded-down 1 % may be 1.99 %, and a queue before progress began
 * (unseen, between two polls) weighs (1 − p)/p times in the forecast. Such a job waits for a second reading.
 */
const MIN_READING = 0.05;

/**
 * From one reading. Progress began no earlier than `startedBy` (the submission, the last answer that still said 0 %, or
 * when earlier jobs of the kind began theirs), and the reading may be rounded down, so the job is done by
 * `startedBy + t / p` (t = time since then, p the fraction): remaining ≤ t·(1 − p)/p. A queue before progress began
 * only makes it earlier, so that is the latest; the earliest is the same count read one percent higher.
 */
export function readingForecast(startedBy: number, mark: ProgressMark): Forecast | undefined {
  const t = mark.at - startedBy;
  const p = mark.percent / 100;
  if (!(t > 0 && p >= MIN_READING && p < 1)) return undefined;
  return { earliest: startedBy + t / Math.min(1, p + 0.01), latest: startedBy + t / p };
}

/**
 * When progress began, in ms after submission, for a job that took `durationMs` and read `mark` (its time in ms
 * after submission) on the way: the start from which that reading extrapolates to that end. Undefined when the
 * reading says too little.
 */
export function progressStartMs(mark: ProgressMark, durationMs: number): number | undefined {
  // The middle of what a rounded-down reading may stand for.
  const p = Math.min(0.999, (mark.percent + 0.5) / 100);
  if (!(mark.percent / 100 >= MIN_READING && mark.at > 0 && durationMs > mark.at)) return undefined;
  const start = (mark.at - p * durationMs) / (1 - p);
  return Math.min(mark.at, Math.max(0, start));
}

/** When a job's progress began and when it will end, in ms on one clock (or after its submission, as kept). */
export interface ProgressSpan {
  start: number;
  end: number;
}

/**
 * When progress began and will end, as two marks of a job still running tell: the rate between them (rounding cancels
 * out in a difference of rounded-down readings, to one percent), extrapolated from the later. Undefined while they
 * lie too close to tell it within a few percent of the job.
 */
export function spanFromMarks(first: ProgressMark, last: ProgressMark): ProgressSpan | undefined {
  const elapsed = last.at - first.at;
  const gained = last.percent - first.percent;
  if (!(elapsed > 0 && gained >= MIN_GAIN_FOR_SPAN)) return undefined;
  // From the middle of what the later rounded-down reading may stand for. The start lies before the first mark (the
  // first read more than 0), and may lie before the submission when progress is not linear: the caller keeps it after.
  const msPerPoint = elapsed / gained;
  const read = last.percent + 0.5;
  return { start: last.at - read * msPerPoint, end: last.at + (100 - read) * msPerPoint };
}

/** Points gained between two marks before they tell the span (one point of rounding in ten). */
const MIN_GAIN_FOR_SPAN = 10;

/**
 * When progress began and will end in recent jobs, per kind of job, as their marks told (`spanFromMarks`, in ms after
 * each one's submission). A job submitted while earlier ones of its kind run plans its first poll and reads its first
 * progress against them, before any has finished and joined the history. A finished job's span stays beside its
 * history sample: the marks' estimate, not read back from a duration, which keeps the forecasts aimed (the progress
 * scenario of bench:poll sees completion 1.14 s late on average with it, 3.59 s without). In memory only, the newest
 * few per kind, for a few kinds.
 */
export class RecentSpans {
  private readonly byKind = new Map<string, Map<object, ProgressSpan>>();

  note(kind: string, job: object, span: ProgressSpan): void {
    let spans = this.byKind.get(kind);
    if (!spans) {
      spans = new Map();
      this.byKind.set(kind, spans);
      if (this.byKind.size > RECENT_KINDS_KEPT) this.byKind.delete(this.byKind.keys().next().value!);
    }
    spans.delete(job);
    spans.set(job, span);
    if (spans.size > RECENT_SPANS_KEPT) spans.delete(spans.keys().next().value!);
  }

  /** The spans of `kind`'s recent jobs but `except`, whose own marks say more about it than its span does. */
  spans(kind: string, except?: object): ProgressSpan[] {
    return [...(this.byKind.get(kind) ?? [])].filter(([job]) => job !== except).map(([, span]) => span);
  }
}

const RECENT_SPANS_KEPT = 20;
const RECENT_KINDS_KEPT = 20;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Two marks and one reading together: the rate between two marks does not depend on when progress began, so their
 * earliest stands; the one reading's latest is a bound too, and the sooner latest wins.
 */
export function combinedForecast(twoMarks: Forecast | undefined, oneReading: Forecast | undefined): Forecast | undefined {
  if (!twoMarks || !oneReading) return twoMarks ?? oneReading;
  const latest = Math.min(twoMarks.latest ?? Number.POSITIVE_INFINITY, oneReading.latest ?? Number.POSITIVE_INFINITY);
  return Number.isFinite(latest) ? { earliest: Math.min(twoMarks.earliest, latest), latest } : { earliest: twoMarks.earliest };
}
