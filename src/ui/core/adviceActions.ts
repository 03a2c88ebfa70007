// The allow-list of advice's actions, apart from errorAdvice.ts so that only the surfaces that check actions (the chat
// card) load it, not activation.
import { BILLING_ACTIONS, PROFILE_SETTINGS } from './refusalAdvice';
import { CHANGE_CHAT_PROFILE, LIST_MODELS, OPEN_LOGS, OPEN_MEDIA_LIMIT_SETTING, REPLACE_API_KEY, SET_API_KEY, SET_BASE_URL, TEST_CONNECTION, type AdviceAction } from './errorAdvice';

/**
 * Every action advice offers: the allow-list of a surface that shows advice from data it cannot vouch for (the
 * chat card, whose errors live in session files and whose clicks come from the webview). Such a surface runs an
 * action only when it is one of these, with the same arguments.
 */
export const ADVICE_ACTIONS: readonly AdviceAction[] = [SET_API_KEY, TEST_CONNECTION, OPEN_LOGS, SET_BASE_URL, REPLACE_API_KEY, CHANGE_CHAT_PROFILE, LIST_MODELS, OPEN_MEDIA_LIMIT_SETTING, PROFILE_SETTINGS, ...BILLING_ACTIONS];

/** The listed action (ADVICE_ACTIONS, or the surface's own `extra`) with the same command and arguments, else undefined. */
export function listedAction(action: { command: string; args?: readonly unknown[] }, extra: readonly AdviceAction[] = []): AdviceAction | undefined {
  const args = JSON.stringify(action.args ?? []);
  return [...ADVICE_ACTIONS, ...extra].find((listed) => listed.command === action.command && JSON.stringify(listed.args ?? []) === args);
}
