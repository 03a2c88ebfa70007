// UI adapter: the chat feature. The Chats view and the session store are built at activation; the panels, their
// manager and the commands (chatCommands.ts) load on first use: the first chat command, or a chat panel VS Code
// restores after a reload (the serializer below).
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE } from '../../chatProtocol/viewType';
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import { registerPageSerializer } from '../../ui/vscode/pageSerializer';
import { CHATS_VIEW_ID, ChatHistoryView } from './chatHistoryView';
import type { ChatPanelManagerOptions } from './chatPanelManager';
import { createChatStore } from './sessionStoreReporter';
import { CHAT_COMMANDS } from './commands';
import type { MediaApi } from '../../media/core/api';
import type { VideoApi } from '../../videos/core/api';

// The panels, their manager and the commands, on first use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chatCommands = lazy(() => require('./chatCommands') as typeof import('./chatCommands'));

export type ChatNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing'> & {
  models: ModelCatalogs;
  /** What /image, /speak and /video ask: the media and video features' services (built at activation). */
  media: MediaApi;
  videos: VideoApi;
};

export const chatFeature = defineFeature({
  name: 'chat',
  commands: CHAT_COMMANDS,
  views: [CHATS_VIEW_ID],
  activate({ context, log, connection, models, clock, settings, media, videos, register, testing }: ChatNeeds): { flush(): Promise<void> } {
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
      media: { media, videos },
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
      registerPageSerializer({ viewType: CHAT_VIEW_TYPE }, () => chat().manager),
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
