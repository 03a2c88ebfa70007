// UI adapter: the Branch with a Summary command. Asks the chat model for a summary of a chat that no longer fits its
// context window (with progress, cancellable), then opens a new chat with the same settings whose input holds the
// summary and the message that was held back. Nothing is sent in the new chat until the user sends it.
import type { GatewayAccess } from '../../gateway/connection';
import { accessAdvice, AdvisedError, adviceFor } from '../../ui/core/errorAdvice';
import type { ChatSession, ChatSettings } from '../../chatProtocol/session';
import { vscodeUserInterface, type UserInterface } from '../../ui/vscode/userInterface';
import { summaryDraft, summaryRequest } from '../core/historySummary';
import { chatProfileId } from '../core/chatProfile';

export interface SummaryBranchDeps {
  /** The gateway of a profile (the chat's own: the summary goes with its key); undefined: Default. */
  gateway(profile: string): Promise<GatewayAccess>;
  /** The chat model of a chat of that profile without one, and a model's context window there. */
  defaultModel(profile: string): Promise<string | undefined>;
  windowFor(model: string, profile: string): number;
  /** Opens a new chat with these settings and `draft` in its input. */
  openChat(settings: ChatSettings, draft: string): Promise<void>;
  /** How it talks to the user (host tests answer through a recorder). */
  ui?: UserInterface;
}

export async function branchFromSummary(session: Readonly<ChatSession>, pending: string, deps: SummaryBranchDeps): Promise<void> {
  const ui = deps.ui ?? vscodeUserInterface;
  let origin: string | undefined;
  const profile = chatProfileId(session.settings);
  try {
    const model = session.settings.model || (await deps.defaultModel(profile));
    if (!model) throw Object.assign(new Error('No chat model is available to write the summary. Choose a model at the top of the chat.'), { code: 'no_model' });
    const asked = summaryRequest(session, model, deps.windowFor(model, profile));
    const summary = await ui.withProgress(
      `Summarizing “${session.title}” for a new chat…`,
      async (_report, signal) => {
        const access = await deps.gateway(profile);
        if (!access.ok) throw new AdvisedError(accessAdvice(access));
        origin = access.origin;
        return (await access.api.chat(asked.request, { signal, surface: 'summary' })).content ?? '';
      },
      { cancellable: true },
    );
    if (summary.trim() === '') {
      void ui.notify('warning', 'The model returned no summary, so no chat was branched. Try again, or send only the newest turns.');
      return;
    }
    await deps.openChat({ ...session.settings, model, stop: [...session.settings.stop] }, summaryDraft(session.title, model, summary, asked.omittedTurns, pending));
  } catch (error) {
    const advice = adviceFor(error, { origin });
    if (advice.kind === 'aborted') return;
    ui.advise({ ...advice, message: `No summary was made: ${advice.message}` });
  }
}
