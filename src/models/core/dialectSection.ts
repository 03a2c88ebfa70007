// Diagnose Models' section on video: the dialect video jobs use with this profile's gateway, and why. Pure.
import { escapeMarkdown, markdownCode } from '../../util/html';

/**
 * What the video feature decided (its VideoApi.dialect), as this report reads it: written here rather than imported,
 * as the video feature uses this one (its model catalogs) and two features never import each other.
 */
export interface DialectNews {
  dialect: string;
  reason: string;
  evidence: readonly string[];
  settled: boolean;
}

/** Markdown lines: the dialect, the reason, and what each probe of the gateway said. */
export function dialectSection(decision: DialectNews | undefined, failure?: string): string {
  const lines = ['', '## Video dialect', ''];
  if (!decision) {
    lines.push(escapeMarkdown(failure ?? 'Not decided: the gateway could not be asked.'), '');
    return lines.join('\n');
  }
  lines.push(`Video jobs use the ${markdownCode(decision.dialect)} dialect: ${escapeMarkdown(decision.reason)}.`, '');
  for (const said of decision.evidence) lines.push(`- ${escapeMarkdown(said)}`);
  if (!decision.settled) lines.push('', 'Not everything could be asked, so this is decided again on the next need. "Edit Profile" sets the dialect for good.');
  lines.push('');
  return lines.join('\n');
}
