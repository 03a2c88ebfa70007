// The monthly budget's alerts: at 80% and 95% of the budget, each once per month and profile. Pure: the caller
// keeps which alerts were given (in global state, so a second window does not repeat them).

export const BUDGET_THRESHOLDS = [0.8, 0.95] as const;

/** The key an alert is remembered under: one per profile, month and threshold. */
export function alertKey(profile: string, month: string, threshold: number): string {
  return `${profile}\u0000${month}\u0000${threshold}`;
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
