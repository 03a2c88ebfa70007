// UI adapter: the Chats view's commands. Each takes a session node from the view, or a session id (palette,
// tests). The work is done by ChatHistoryActions; this file asks the user and reports.
import * as vscode from 'vscode';
import type { GatewayAccess } from '../../gateway/connection';
import { accessAdvice, adviceFor, type ErrorAdvice } from '../../ui/core/errorAdvice';
import { vscodeUserInterface, type UserInterface } from '../../ui/vscode/userInterface';
import type { ChatRequest } from '../../gateway/types';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { CHAT_HISTORY_COMMANDS } from './commands';
import { isId } from '../../chatProtocol/validate';
import type { ChatHistoryView } from './chatHistoryView';
import type { ChatHistoryActions } from '../core/historyActions';
import { cleanTitle, TITLE_INSTRUCTION, titlePromptText, turnLabel } from '../core/historyModel';
import { chatProfileId } from '../core/chatProfile';
import type { ChatSession } from '../../chatProtocol/session';

export interface ChatHistoryCommandDeps {
  view: ChatHistoryView;
  actions: ChatHistoryActions;
  openSession(id: string): Promise<unknown>;
  exportSession(session: Readonly<ChatSession>, target?: vscode.Uri): Promise<vscode.Uri | undefined>;
  /** The access of the chat's own profile: a chat's messages go only to its gateway, with its key. */
  gateway(profile: string): Promise<GatewayAccess>;
  /** The model a chat without one uses. */
  /** The chat model of a chat of the profile without one. */
  defaultModel(profile: string): Promise<string | undefined>;
}

/** A node of the Chats view, or a session id. */
function idOf(target: unknown): string | undefined {
  if (isId(target)) return target;
  const summary = (target as { summary?: { id?: unknown } } | undefined)?.summary;
  return isId(summary?.id) ? summary.id : undefined;
}

export class ChatHistoryCommands {
  /** Replaceable, so host tests answer the prompts. */
  ui: UserInterface = vscodeUserInterface;

  constructor(private readonly deps: ChatHistoryCommandDeps) {}

  handlers(): HandlersFor<typeof CHAT_HISTORY_COMMANDS> {
    return {
      openSaved: (target?: unknown) => this.open(target),
      rename: (target?: unknown, title?: unknown) => this.rename(target, title),
      delete: (target?: unknown) => this.delete(target),
      exportSaved: (target?: unknown, uri?: unknown) => this.export(target, uri),
      branch: (target?: unknown) => this.branch(target),
      generateTitle: (target?: unknown) => this.generateTitle(target),
      filter: () => this.filter(),
      clearFilter: () => this.deps.view.setFilter(''),
    };
  }

  private async target(target: unknown): Promise<{ id: string; session: Readonly<ChatSession> } | undefined> {
    const id = idOf(target);
    const session = id ? await this.deps.actions.session(id) : undefined;
    if (!id || !session) {
      void this.ui.notify('warning', 'That chat is no longer saved (another window may have deleted it).');
      void this.deps.view.refresh();
      return undefined;
    }
    return { id, session };
  }

  private async open(target: unknown): Promise<void> {
    const id = idOf(target);
    if (id && (await this.deps.openSession(id))) return;
    void this.ui.notify('warning', 'That chat could not be opened: it is no longer saved, or its file could not be read (see Open Logs).');
    void this.deps.view.refresh();
  }

  private async rename(target: unknown, given?: unknown): Promise<void> {
    const chat = await this.target(target);
    if (!chat) return;
    const text = typeof given === 'string' ? given : await this.ui.input({ title: 'Rename Chat', prompt: 'A new title for the chat', value: chat.session.title });
    if (text === undefined) return;
    const result = await this.deps.actions.rename(chat.id, text);
    if (result === 'empty') void this.ui.notify('warning', 'A chat title needs at least one visible character; the title was kept.');
    await this.deps.view.refresh();
  }

  private async delete(target: unknown): Promise<void> {
    const chat = await this.target(target);
    if (!chat) return;
    const title = chat.session.title;
    if ((await this.ui.ask('warning', `Delete the chat “${title}”?`, 'Its messages are removed from disk. You can undo this from the notification for 30 seconds.', 'Delete')) !== 'Delete') return;
    const token = await this.deps.actions.delete(chat.id);
    this.deps.view.search.forget(chat.id);
    await this.deps.view.refresh();
    if (token === undefined) {
      void this.ui.notify('error', `The chat “${title}” could not be deleted; see Open Logs for why.`);
      return;
    }
    const choice = await this.ui.notify('info', `Deleted the chat “${title}”.`, 'Undo');
    if (choice !== 'Undo') return;
    const result = await this.deps.actions.undo(token);
    await this.deps.view.refresh();
    if (result === 'expired') void this.ui.notify('warning', `Too late to undo: “${title}” was deleted more than 30 seconds ago.`);
    else if (result === 'exists') void this.ui.notify('warning', `“${title}” was not restored: a chat with its id exists again, or its files could not be written (see Open Logs).`);
  }

  private async export(target: unknown, uri?: unknown): Promise<void> {
    const chat = await this.target(target);
    if (chat) await this.deps.exportSession(chat.session, uri instanceof vscode.Uri ? uri : undefined);
  }

  private async branch(target: unknown): Promise<void> {
    const chat = await this.target(target);
    if (!chat) return;
    const turns = chat.session.turns;
    if (turns.length === 0) {
      void this.ui.notify('info', 'This chat has no messages to branch from yet.');
      return;
    }
    const items = turns.map((turn, index) => ({ label: turnLabel(turn, index), id: turn.id })).reverse();
    const turnId = await this.ui.pickItem(items, { placeHolder: 'Branch Here: the new chat keeps the messages up to the one you pick' });
    if (!turnId) return;
    const copy = await this.deps.actions.branch(chat.id, turnId);
    await this.deps.view.refresh();
    if (copy) await this.deps.openSession(copy.id);
  }

  /** Costs tokens, so it runs only when the user asks for it. */
  private async generateTitle(target: unknown): Promise<void> {
    const chat = await this.target(target);
    if (!chat) return;
    const conversation = titlePromptText(chat.session.turns);
    if (conversation === '') {
      void this.ui.notify('info', 'This chat has no messages to make a title from yet.');
      return;
    }
    let origin: string | undefined;
    try {
      const title = await this.ui.withProgress('Generating a chat title…', async (_report, signal) => {
        const model = chat.session.settings.model || (await this.deps.defaultModel(chatProfileId(chat.session.settings)));
        if (!model) throw Object.assign(new Error('No chat model is available to write the title.'), { code: 'no_model' });
        const access = await this.deps.gateway(chatProfileId(chat.session.settings));
        if (!access.ok) throw new AccessError(accessAdvice(access));
        origin = access.origin;
        const request: ChatRequest = { model, messages: [{ role: 'system', content: TITLE_INSTRUCTION }, { role: 'user', content: conversation }], stream: true, max_tokens: 32 };
        return cleanTitle((await access.api.chat(request, { signal, surface: 'title' })).content);
      });
      if (!title) {
        void this.ui.notify('warning', 'The model did not propose a title; the title was kept. Try again, or use Rename.');
        return;
      }
      await this.deps.actions.rename(chat.id, title);
      await this.deps.view.refresh();
    } catch (error) {
      if (error instanceof AccessError) return this.ui.advise(error.advice);
      const advice = adviceFor(error, { origin });
      if (advice.kind === 'aborted') return;
      this.ui.advise({ ...advice, message: `No title was generated: ${advice.message}` });
    }
  }

  private async filter(): Promise<void> {
    const text = await this.ui.input({ title: 'Filter Chats', prompt: 'Words to find in chat titles and messages (all of them must appear). Empty shows every chat.', value: this.deps.view.filter });
    if (text !== undefined) await this.deps.view.setFilter(text);
  }
}

/** The gateway is not set up (no URL or key): its advice says what to do. */
class AccessError extends Error {
  constructor(readonly advice: ErrorAdvice) {
    super(advice.message);
  }
}
