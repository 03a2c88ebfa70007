// Models retire within months (several image models shut down in 2026), and the lists say when: OpenAI's /models
// carries `shutdown_date`, OpenRouter's `expiration_date`. A model retiring within 30 days (or already retired) is
// marked wherever models are picked or listed, so nobody sets one as a default the week it goes. Pure; the time is
// the caller's clock.
import { isRecord } from '../../util/records';

export const RETIRING_WITHIN_DAYS = 30;
const DAY_MS = 86_400_000;

export interface Retirement {
  /** The shutdown day, YYYY-MM-DD (UTC). */
  readonly date: string;
  /** Whole days from now until that day; 0 or less: retired already. */
  readonly days: number;
  /** Which field said so. */
  readonly field: 'shutdown_date' | 'expiration_date';
}

/** The date a list entry gives: an ISO date (or date-time) text, or Unix seconds (milliseconds when that large). */
function dateOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? (value > 1e11 ? value : value * 1000) : undefined;
  // Only a bounded, date-shaped text is parsed: the value is the gateway's.
  if (typeof value !== 'string' || value.length > 40 || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** When the model retires, if its entry says so and that is within `RETIRING_WITHIN_DAYS` of `now` (or past). */
export function retirementOf(raw: unknown, now: number): Retirement | undefined {
  if (!isRecord(raw)) return undefined;
  for (const field of ['shutdown_date', 'expiration_date'] as const) {
    const at = dateOf(raw[field]);
    if (at === undefined) continue;
    const days = Math.ceil((at - now) / DAY_MS);
    if (days > RETIRING_WITHIN_DAYS) return undefined;
    return { date: new Date(at).toISOString().slice(0, 10), days, field };
  }
  return undefined;
}

/** "retires 2026-12-01 (in 3 days)", "retired 2026-11-01": the mark next to a model's id. */
export function retirementText(retirement: Retirement): string {
  if (retirement.days <= 0) return `retired ${retirement.date}`;
  return `retires ${retirement.date} (in ${retirement.days} day${retirement.days === 1 ? '' : 's'})`;
}

/** The marks of the retiring models among `models`, by id (for the pickers). */
export function retiringMarks(models: ReadonlyArray<{ id: string; raw: unknown }>, now: number): Record<string, string> {
  const marks: Record<string, string> = {};
  for (const model of models) {
    const retirement = retirementOf(model.raw, now);
    if (retirement) marks[model.id] = retirementText(retirement);
  }
  return marks;
}
