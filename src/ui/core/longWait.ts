// The notice for a request the gateway's rate limit holds over a minute while a command waits on it
// (Generate Image, a model list, a comparison's column): it goes by itself at the reset, or now if the user sends it
// anyway; the pacing only foresees the limit, and the gateway's own answer (a 429) decides.
import type { LongPaceWait } from '../../gateway/connection';
import { waitText } from '../../util/waitText';

export const SEND_ANYWAY = 'Send anyway';

/** `ui`: the one UI seam's notify (ui/vscode/userInterface.ts). */
export async function offerSendAnyway(ui: { notify(kind: 'warning', message: string, ...actions: string[]): PromiseLike<string | undefined> }, wait: LongPaceWait): Promise<void> {
  const host = new URL(wait.origin).host;
  const message = `The rate limit of ${host} holds this request for ${waitText(Math.ceil(wait.waitMs / 1000))}; it goes by itself then. Send it now if you think the limit allows it: the gateway will say if not.`;
  if ((await ui.notify('warning', message, SEND_ANYWAY)) === SEND_ANYWAY) wait.sendAnyway();
}
