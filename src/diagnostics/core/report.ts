// The connection report for people: a Markdown document, a one-line summary, and the command that fixes the first
// failed step. Pure; the command shows these.
import { REPLACE_API_KEY, SET_API_KEY, SET_BASE_URL, type AdviceAction } from '../../ui/core/errorAdvice';
import type { DiagnosticReport, StepFix } from './diagnostics';
import { escapeMarkdown, markdownCode } from '../../util/html';

/**
 * The report as a Markdown document. A step's message and advice are text, not Markdown: they carry the gateway's own
 * words (its error message, its certificate's names), which must not draw a heading, a link or an image of their own.
 */
export function renderReport(report: DiagnosticReport): string {
  const problems = report.steps.filter((s) => s.status === 'failed').length;
  const warnings = report.steps.filter((s) => s.status === 'warning').length;
  const verdict = problems > 0 ? `${problems} problem${problems === 1 ? '' : 's'} found` : warnings > 0 ? `Working, with ${warnings} warning${warnings === 1 ? '' : 's'}` : 'Everything works';
  const lines = [
    '# Model Gateway: connection test',
    '',
    `- Gateway: ${report.baseUrl ? markdownCode(report.baseUrl) : 'not set'}`,
    ...(report.proxy ? [`- Proxy: ${markdownCode(report.proxy)}`] : []),
    `- Tested: ${new Date(report.startedAt).toISOString()}`,
    `- Result: **${verdict}**`,
    '',
  ];
  for (const step of report.steps) {
    const time = step.durationMs !== undefined ? ` (${step.durationMs} ms)` : '';
    // Words, not emoji: a system without an emoji font shows empty boxes, and the status says it already.
    lines.push(`## ${step.title}: ${step.status}${time}`, '', escapeMarkdown(step.message), '');
    if (step.suggestion) lines.push(`**What to do:** ${escapeMarkdown(step.suggestion)}`, '');
  }
  return lines.join('\n');
}

/** One line for a notification: the verdict and the first problem, if any. */
export function summarizeReport(report: DiagnosticReport): string {
  const failed = report.steps.find((s) => s.status === 'failed');
  if (failed) return `Connection test: ${failed.title} failed. ${failed.message}`;
  const warning = report.steps.find((s) => s.status === 'warning');
  const count = report.modelCount !== undefined ? ` ${report.modelCount} model${report.modelCount === 1 ? '' : 's'} listed.` : '';
  return warning ? `Connection test passed with a warning: ${warning.message}` : `Connection test passed.${count}`;
}

const FIXES: Record<StepFix, AdviceAction> = {
  setBaseUrl: SET_BASE_URL,
  setApiKey: SET_API_KEY,
  rotateApiKey: REPLACE_API_KEY,
};

/** The command that fixes the first failed step, when there is one. */
export function fixesFor(report: DiagnosticReport): AdviceAction[] {
  const fix = report.steps.find((s) => s.status === 'failed')?.fix;
  return fix ? [FIXES[fix]] : [];
}
