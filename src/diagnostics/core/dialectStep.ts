// Test Connection's last step: the video dialect the profile's gateway is spoken to in, and why (its setting, or what
// the gateway said about itself). Pure; the command asks the video feature for the decision.
import type { DialectDecision } from '../../videos/core/api';
import type { DiagnosticReport, DiagnosticStep } from './diagnostics';
import { TITLES } from './wording';

/** The step for a decision; skipped while the gateway could not be reached, or when the decision failed. */
export function dialectStep(decision: DialectDecision | undefined, failure?: string): DiagnosticStep {
  const base = { id: 'dialect' as const, title: TITLES.dialect };
  if (!decision) return { ...base, status: 'skipped', message: failure ?? 'Not decided: the gateway could not be reached.' };
  const evidence = decision.evidence.length > 0 ? ` What the gateway said: ${decision.evidence.join('; ')}.` : '';
  const message = `Video jobs use the ${decision.dialect} dialect: ${decision.reason}.${evidence}`;
  if (decision.settled) return { ...base, status: 'ok', message };
  return { ...base, status: 'warning', message, suggestion: 'Choose the dialect with "Edit Profile", or test again once the gateway answers.' };
}

/** The report with the dialect step added at the end. */
export function withDialectStep(report: DiagnosticReport, step: DiagnosticStep): DiagnosticReport {
  return { ...report, steps: [...report.steps, step] };
}
