// The context budget: what a message with its attachments would cost against the model's context window, and
// how to make it fit by trimming the largest attachment. Nothing is ever trimmed without the user asking.
import { attachmentTokens, CHARS_PER_TOKEN, estimateTextTokens, type Attachment, type TextAttachment } from '../../../chatProtocol/attachments';

export interface Budget {
  /** Estimated tokens of the whole request: conversation, attachments, the draft, and the reply reserved. */
  total: number;
  window: number;
  /** Tokens over the window; 0 when it fits. */
  overBy: number;
}

export function budgetOf(baseTokens: number, attachments: readonly Attachment[], window: number, draftTokens = 0): Budget {
  const total = baseTokens + draftTokens + attachments.reduce((sum, a) => sum + attachmentTokens(a), 0);
  return { total, window, overBy: Math.max(0, total - window) };
}

export type TrimPlan =
  | { kind: 'none' }
  /** Keep the first `keepLines` lines of the attachment. */
  | { kind: 'trim'; id: string; keepLines: number; savedTokens: number }
  /** Even one line is too much: remove it (and the message may still overflow). */
  | { kind: 'remove'; id: string; savedTokens: number };

function largest(attachments: readonly Attachment[]): Attachment | undefined {
  let best: Attachment | undefined;
  for (const a of attachments) if (!best || attachmentTokens(a) > attachmentTokens(best)) best = a;
  return best;
}

/** How to save `overBy` tokens by cutting the largest attachment from the end, keeping whole lines. */
export function planTrim(attachments: readonly Attachment[], overBy: number): TrimPlan {
  const target = largest(attachments);
  if (overBy <= 0 || !target) return { kind: 'none' };
  const cost = attachmentTokens(target);
  if (target.kind !== 'text') return { kind: 'remove', id: target.id, savedTokens: cost };
  const lines = target.text.split('\n');
  const framing = cost - estimateTextTokens(target.text);
  const allowedChars = (cost - overBy - framing) * CHARS_PER_TOKEN;
  // Whole lines from the start while they fit; a cut text keeps its last newline.
  let keep = 0;
  let chars = 0;
  while (keep < lines.length - 1 && chars + lines[keep].length + 1 <= allowedChars) chars += lines[keep++].length + 1;
  if (keep === 0) return { kind: 'remove', id: target.id, savedTokens: cost };
  const kept = trimmedText(target, keep);
  return { kind: 'trim', id: target.id, keepLines: keep, savedTokens: cost - attachmentTokens(kept) };
}

/** The attachment cut to its first `keepLines` lines, with its line range following. */
export function trimmedText(attachment: TextAttachment, keepLines: number): TextAttachment {
  const lines = attachment.text.split('\n');
  const text = lines.slice(0, keepLines).join('\n');
  return { ...attachment, text: keepLines < lines.length ? `${text}\n` : text, endLine: attachment.startLine + keepLines - 1 };
}

/** Applies a plan to a list of attachments (a new list; the others untouched). */
export function applyTrim(attachments: readonly Attachment[], plan: TrimPlan): Attachment[] {
  if (plan.kind === 'none') return [...attachments];
  if (plan.kind === 'remove') return attachments.filter((a) => a.id !== plan.id);
  return attachments.map((a) => (a.id === plan.id && a.kind === 'text' ? trimmedText(a, plan.keepLines) : a));
}
