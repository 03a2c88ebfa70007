// An advice action as a stored turn keeps it (a reply's error, a failed media turn): its title, command and arguments.
// The webview is sent the titles only; a click names the turn and the index, and the host runs the turn's own action
// only when advice offers it (ui/core/adviceActions.ts's listedAction). Pure and browser-safe.
import { LIMITS, type TurnErrorAction } from './session';
import { cleanArray, cleanText, isRecord } from './validate';

function cleanErrorAction(value: unknown): TurnErrorAction | undefined {
  if (!isRecord(value) || typeof value.command !== 'string' || value.command.length > LIMITS.command) return undefined;
  const action: TurnErrorAction = { title: cleanText(value.title, LIMITS.actionTitle) || value.command, command: value.command };
  if (Array.isArray(value.args)) action.args = value.args;
  return action;
}

/** A stored list of actions, each usable, at most LIMITS.actions. */
export function cleanErrorActions(value: unknown): TurnErrorAction[] {
  return cleanArray(value, LIMITS.actions, cleanErrorAction);
}

/** The titles the webview shows as buttons, at most LIMITS.actions. */
export function cleanActionTitles(value: unknown): string[] {
  return cleanArray(value, LIMITS.actions, (title) => cleanText(title, LIMITS.actionTitle));
}
