// UI adapter: the chat feature. The Chats view and the session store are built at activation; the panels, their
// manager and the commands (chatCommands.ts) load on first use: the first chat command, or a chat panel VS Code
// restores after a reload (the serializer below).
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE } from '../../chatProtocol/viewType';
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import { CHATS_VIEW_ID, ChatHistoryView } from './chatHistoryView';
import type { ChatPanelManagerOptions } from './chatPanelManager';
import { createChatStore } from './sessionStoreReporter';
import { CHAT_COMMANDS } from './commands';

// The panels, their manager and the commands, on first use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chatCommands = lazy(() => require('./chatCommands') as typeof import('./chatCommands'));
import type { ChatMediaPorts } from '../core/hub/ports';
import type { UsageApi } from '../../usage/core/api';

export type ChatNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing'> & {
  models: ModelCatalogs;
  /** The usage feature: the chat shows what each reply cost, as the ledger records it. */
  usage?: Pick<UsageApi, 'costOf'>;
  /** The /image, /speak and /video ports, from the media and video features (built on first use). */
  chatMedia(): ChatMediaPorts;
};

export const chatFeature = defineFeature({
  name: 'chat',
  commands: CHAT_COMMANDS,
  views: [CHATS_VIEW_ID],
  activate({ context, log, connection, models, usage, clock, settings, chatMedia, register, testing }: ChatNeeds): { flush(): Promise<void> } {
    const managerOptions = (storageFolder: string): ChatPanelManagerOptions => ({
      extensionUri: context.extensionUri,
      storageFolder,
      connection,
      models,
      // A chat's defaults (its default model) are its own profile's.
      chatDefaults: (profile) => settings(profile).chat,
      contextSettings: () => settings().chatContext,
      reasoning: () => settings().reasoning,
      log,
      clock,
      media: chatMedia(),
      usage,
    });
    const chatFolder = vscode.Uri.joinPath(context.globalStorageUri, 'chat').fsPath;
    const store = createChatStore(chatFolder, clock, log);
    const history = new ChatHistoryView({ store, folder: chatFolder, clock });
    const chat = lazy(() =>
      chatCommands().createChatFeature({ manager: { ...managerOptions(chatFolder), store }, history, gateway: (profile) => connection.access(profile), clock }),
    );
    context.subscriptions.push(
      history,
      { dispose: () => chat.peek()?.dispose() },
      vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, { deserializeWebviewPanel: (panel, state) => chat().manager.deserializeWebviewPanel(panel, state) }),
    );
    register(lazyCommands(CHAT_COMMANDS, () => chat().handlers()));
    if (TEST_BUILD && testing) {
      testing.chat = {
        get manager() {
          return chat().manager;
        },
        get historyCommands() {
          return chat().historyCommands;
        },
        createManager: (storageFolder: string) => new (chatCommands().ChatPanelManager)(managerOptions(storageFolder)),
        history,
      };
    }
    return { flush: () => (chat.peek()?.manager ?? store).flush() };
  },
});
