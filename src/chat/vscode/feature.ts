// UI adapter: the chat feature. The Chats view is built at activation; the session store (sessionStoreReporter.ts,
// with the chat protocol's session code) loads when the view first lists the chats or a panel needs it, and the
// panels, their manager and the commands (chatCommands.ts) on first use: the first chat command, or a chat panel
// VS Code restores after a reload (the serializer below).
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE } from '../../chatProtocol/viewType';
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import { registerPageSerializer } from '../../ui/vscode/pageSerializer';
import { CHATS_VIEW_ID, ChatHistoryView } from './chatHistoryView';
import type { ChatPanelManagerOptions } from './chatPanelManager';
import type { ChatSessionStore } from '../core/sessionStore';
import { Emitter } from '../../util/events';
import { CHAT_COMMANDS } from './commands';
import type { MediaApi } from '../../media/core/api';
import type { VideoApi } from '../../videos/core/api';

// The panels, their manager and the commands, on first use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chatCommands = lazy(() => require('./chatCommands') as typeof import('./chatCommands'));
// The session store, when the Chats view first lists the chats or a panel opens.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storeModule = lazy(() => require('./sessionStoreReporter') as typeof import('./sessionStoreReporter'));
import type { UsageApi } from '../../usage/core/api';

export type ChatNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing' | 'ui'> & {
  models: ModelCatalogs;
  /** The usage feature: the chat shows what each reply cost, as the ledger records it. */
  usage?: Pick<UsageApi, 'costOf'>;
  /** What /image, /speak and /video ask: the media and video features' services (built at activation). */
  media: MediaApi;
  videos: VideoApi;
};

export const chatFeature = defineFeature({
  name: 'chat',
  commands: CHAT_COMMANDS,
  views: [CHATS_VIEW_ID],
  activate({ context, log, connection, models, usage, clock, settings, media, videos, register, testing, ui }: ChatNeeds): { flush(): Promise<void> } {
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
      ui: ui(),
      usage,
    });
    const chatFolder = vscode.Uri.joinPath(context.globalStorageUri, 'chat').fsPath;
    // The view hears of the store's changes once the store is built (before that, nothing in this window changed it).
    const storeChanged = new Emitter<void>();
    const store = lazy((): ChatSessionStore => {
      const built = storeModule().createChatStore(chatFolder, clock, log, ui);
      built.onDidChange(() => storeChanged.fire());
      return built;
    });
    const history = new ChatHistoryView({ store: { list: () => store().list(), peek: (id) => store().peek(id), onDidChange: storeChanged.event }, folder: chatFolder, clock });
    const chat = lazy(() =>
      chatCommands().createChatFeature({ manager: { ...managerOptions(chatFolder), store: store() }, history, gateway: (profile) => connection.access(profile), clock }),
    );
    context.subscriptions.push(
      history,
      storeChanged,
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
    return { flush: async () => (chat.peek()?.manager ?? store.peek())?.flush() };
  },
});
