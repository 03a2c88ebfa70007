// The words for the refusals no wait cures (a budget reached, no credits left, a moderation refusal), part of the one
// error vocabulary (errorAdvice.ts asks here), loaded with the first such refusal rather than at activation.
import { readError } from '../../gateway/errors';
import { budgetFigures, moderationReasonsOf } from '../../gateway/failureClassifier';
import { SHARED_COMMANDS } from './commandIds';
import type { AdviceAction } from './adviceTypes';

/** Where a profile's own budget and settings are changed (Edit Profile lives in this menu). */
export const PROFILE_SETTINGS: AdviceAction = { title: 'Profile Settings…', command: SHARED_COMMANDS.profilesMenu };
/** The billing pages of the gateways whose page is known, by host. */
const BILLING_PAGES: Readonly<Record<string, string>> = { 'openrouter.ai': 'https://openrouter.ai/settings/credits' };
/** The gateway's billing page, as an action (vscode.open takes an http(s) string). */
export function billingAction(origin: string | undefined): AdviceAction | undefined {
  let host: string;
  try {
    host = new URL(origin ?? '').hostname;
  } catch {
    return undefined;
  }
  const page = BILLING_PAGES[host];
  return page === undefined ? undefined : { title: 'Open Billing Page', command: 'vscode.open', args: [page] };
}
/** Every billing page action advice can offer: the chat card's allow-list holds them all. */
export const BILLING_ACTIONS: readonly AdviceAction[] = Object.keys(BILLING_PAGES).map((host) => billingAction(`https://${host}`)!);

/** Dollars as a gateway's figures are read: cents, or more digits for amounts under a cent. */
function usd(amount: number): string {
  return amount > 0 && amount < 0.01 ? `$${Number(amount.toPrecision(2))}` : `$${amount.toFixed(2)}`;
}

/**
 * The message and actions of a refusal no wait cures: `where` is whose it is (the profile's name, else the gateway),
 * `server` the gateway's own words, `ref` its request id. No countdown: waiting never helps.
 */
export function refusalAdvice(kind: 'budget' | 'credits' | 'moderation', error: unknown, { where, origin, server, ref }: { where: string; origin?: string; server: string; ref: string }): { message: string; actions: AdviceAction[] } {
  const billing = billingAction(origin);
  const actions = billing ? [billing, PROFILE_SETTINGS] : [PROFILE_SETTINGS];
  if (kind === 'budget') {
    const { spent, limit } = budgetFigures(readError(error).message);
    const figures = spent !== undefined && limit !== undefined ? `: ${usd(spent)} of ${usd(limit)}` : spent !== undefined ? `: ${usd(spent)} spent` : '';
    return { message: `Budget reached on ${where}${figures}. Waiting will not help: the budget must be raised on the gateway or reset. ${server}${ref}`.trim(), actions };
  }
  if (kind === 'credits') return { message: `No credits left on ${where}. Waiting will not help: add credits to the gateway's account. ${server}${ref}`.trim(), actions };
  const reasons = (moderationReasonsOf(error) ?? []).join(', ');
  return { message: `The gateway's moderation refused the request${reasons ? ` (${reasons})` : ''}. ${server}${ref}`.trim(), actions: [] };
}
