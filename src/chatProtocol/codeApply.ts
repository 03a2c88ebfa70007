// What became of a reply's code block the user chose to Apply: reviewed and applied to a file, or discarded in the
// review. Saved on the reply (so the chat says so after a reload, and exports it); pure and browser-safe.
import { cleanArray, cleanCount, cleanText, isRecord } from './validate';

export type ApplyOutcome = 'applied' | 'discarded';
export const APPLY_OUTCOMES: readonly ApplyOutcome[] = ['applied', 'discarded'];

export interface CodeApply {
  /** The file, as the user sees it (relative to the workspace when inside it). */
  path: string;
  outcome: ApplyOutcome;
  /** When (epoch ms, host clock). */
  at: number;
}

/** Records kept per reply: the newest. */
export const MAX_APPLIES = 100;
const MAX_PATH = 1000;

function cleanCodeApply(value: unknown): CodeApply | undefined {
  if (!isRecord(value) || !APPLY_OUTCOMES.includes(value.outcome as ApplyOutcome)) return undefined;
  const path = cleanText(value.path, MAX_PATH);
  return path === undefined ? undefined : { path, outcome: value.outcome as ApplyOutcome, at: cleanCount(value.at) ?? 0 };
}

export function cleanCodeApplies(value: unknown): CodeApply[] {
  return cleanArray(value, MAX_APPLIES, cleanCodeApply);
}

/** The records with one more, the oldest dropped past the limit. */
export function withApply(applies: readonly CodeApply[] | undefined, record: CodeApply): CodeApply[] {
  return [...(applies ?? []), record].slice(-MAX_APPLIES);
}
