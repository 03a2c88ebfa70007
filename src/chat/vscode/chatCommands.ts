// UI adapter (commands): what the chat loads on first use (the build bundles it into dist/chatCommands.js, apart
// from the activation bundle): the chat panels and their manager, and the Chats view's commands. The Chats view and
// the session store are apart (feature.ts; sessionStoreReporter.ts, in dist/chatStore.js); the first chat command or restored panel loads the rest.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import type { GatewayAccess } from '../../gateway/connection';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { CHAT_COMMANDS } from './commands';
import type { Clock } from '../../util/clock';
import { ChatHistoryCommands } from './chatHistoryCommands';
import type { ChatHistoryView } from './chatHistoryView';
import { ChatPanelManager, type ChatPanelManagerOptions } from './chatPanelManager';
import { compareModels } from './compareCommand';
import { addToChat } from './addToChat';
import { ChatHistoryActions } from '../core/historyActions';

export { ChatPanelManager } from './chatPanelManager';

export interface ChatFeatureDeps {
  manager: ChatPanelManagerOptions;
  history: ChatHistoryView;
  gateway(profile: string): Promise<GatewayAccess>;
  clock: Clock;
}

export interface ChatFeature extends vscode.Disposable {
  manager: ChatPanelManager;
  historyCommands: ChatHistoryCommands;
  handlers(): HandlersFor<typeof CHAT_COMMANDS>;
}

export function createChatFeature(deps: ChatFeatureDeps): ChatFeature {
  const chat = new ChatPanelManager(deps.manager);
  const actions = new ChatHistoryActions(chat.store, { find: (id) => chat.openChat(id), close: (id) => chat.closeSession(id) }, deps.clock, randomUUID);
  const historyCommands = new ChatHistoryCommands({
    view: deps.history,
    actions,
    openSession: (id) => chat.openSession(id),
    exportSession: (session, target) => chat.exporter.exportSession(session, target),
    gateway: deps.gateway,
    defaultModel: (profile) => chat.defaultModel(profile),
  });
  historyCommands.ui = deps.manager.ui;
  const addTarget = { targetContext: () => chat.targetContext(), notify: (message: string) => void deps.manager.ui.notify('error', message) };
  return {
    manager: chat,
    historyCommands,
    // The handlers return nothing: a command's result may be sent across processes, and panels do not serialize.
    handlers: () => ({
      ...historyCommands.handlers(),
      newChat: async (options?: unknown) => void (await chat.newChat({ model: modelOption(options) })),
      askAboutSelection: async () => void (await chat.askAboutSelection()),
      addToChat: (first?: unknown, selected?: unknown) => addToChat(addTarget, first, selected),
      addSelectionToChat: () => addToChat(addTarget, { selection: true }),
      exportChat: async (target?: unknown) => void (await chat.exporter.exportChat(chat.activePanel, target)),
      compareModels: (options?: unknown) => compareModels(chat, deps.manager.ui, options),
      changeChatProfile: (profile?: unknown, sessionId?: unknown) => chat.changeProfile(profile, sessionId),
    }),
    dispose: () => {
      actions.dispose();
      chat.dispose();
    },
  };
}

/** `{ model }` from List Models' "start a chat with it"; anything else means the default model. */
function modelOption(options: unknown): string | undefined {
  const model = typeof options === 'object' && options !== null ? (options as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}
