// The monthly budget's alerts: at 80% and 95% of a profile's budget, each once per month and profile across every
// window. The budget is the profile's own, else the `modelGateway.usage.monthlyBudget` setting. Pure: which alerts
// were given is kept by the caller (budgetMarks.ts, a file shared by the windows).

export const BUDGET_THRESHOLDS = [0.8, 0.95] as const;

/** What the usage ledger knows of a profile. */
export interface ProfileRef {
  id: string;
  name: string;
  /** The profile's own monthly budget (USD); 0 turns alerts off for it; absent: the setting's. */
  monthlyBudget?: number;
}

/** The budget that applies to a profile: its own when set (0: none), else the setting's (undefined: none). */
export function budgetFor(profile: Pick<ProfileRef, 'monthlyBudget'>, setting: number | undefined): number | undefined {
  const own = profile.monthlyBudget;
  if (own === undefined) return setting;
  return Number.isFinite(own) && own > 0 ? own : undefined;
}

/** The budget period holding `now`: the local calendar month, `YYYY-MM`. */
export function budgetPeriod(now: number): string {
  const local = new Date(now);
  return `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}`;
}

/** The key an alert is remembered under: one per profile (by id), period and threshold. */
export function alertKey(profileId: string, period: string, threshold: number): string {
  return `${profileId}\u0000${period}\u0000${threshold}`;
}

/**
 * The highest threshold newly passed by `spent` of `budget`, or undefined. Passing both at once gives only the
 * higher alert (and marks both as given), so a single costly request does not raise two notifications.
 */
export function budgetAlert(spent: number, budget: number | undefined, given: (threshold: number) => boolean): { threshold: number; passed: number[] } | undefined {
  if (budget === undefined || !(budget > 0)) return undefined;
  const passed = BUDGET_THRESHOLDS.filter((t) => spent >= budget * t && !given(t));
  if (passed.length === 0) return undefined;
  return { threshold: passed[passed.length - 1]!, passed };
}
