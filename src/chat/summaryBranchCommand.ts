// UI adapter: the Branch with a Summary command. Asks the chat model for a summary of a chat that no longer fits its
// context window (with progress, cancellable), then opens a new chat with the same settings whose input holds the
// summary and the message that was held back. Nothing is sent in the new chat until the user sends it.
import * as vscode from 'vscode';
import type { GatewayAccess } from '../gateway/connection';
import { adviceFor } from '../gateway/errorAdvice';
import type { ChatSession, ChatSettings } from '../chatProtocol/session';
import { showAdvice } from '../ui/notify';
import { summaryDraft, summaryRequest } from './historySummary';

export interface SummaryBranchDeps {
  gateway(): Promise<GatewayAccess>;
  defaultModel(): Promise<string | undefined>;
  windowFor(model: string): number;
  /** Opens a new chat with these settings and `draft` in its input. */
  openChat(settings: ChatSettings, draft: string): Promise<void>;
}

export async function branchFromSummary(session: Readonly<ChatSession>, pending: string, deps: SummaryBranchDeps): Promise<void> {
  let origin: string | undefined;
  try {
    const model = session.settings.model || (await deps.defaultModel());
    if (!model) throw Object.assign(new Error('No chat model is available to write the summary. Choose a model at the top of the chat.'), { code: 'no_model' });
    const asked = summaryRequest(session, model, deps.windowFor(model));
    const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Summarizing “${session.title}” for a new chat…`, cancellable: true }, async (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const access = await deps.gateway();
      if (!access.ok) throw Object.assign(new Error(access.advice.message), { advice: access.advice });
      origin = access.origin;
      return (await access.api.chat(asked.request, { signal: abort.signal })).content ?? '';
    });
    if (summary.trim() === '') {
      void vscode.window.showWarningMessage('The model returned no summary, so no chat was branched. Try again, or send only the newest turns.');
      return;
    }
    await deps.openChat({ ...session.settings, model, stop: [...session.settings.stop] }, summaryDraft(session.title, model, summary, asked.omittedTurns, pending));
  } catch (error) {
    const advice = (error as { advice?: ReturnType<typeof adviceFor> }).advice ?? adviceFor(error, { origin });
    if (advice.kind === 'aborted') return;
    void showAdvice({ ...advice, message: `No summary was made: ${advice.message}` });
  }
}
