// UI adapter: the chat feature. The Chats view and the session store are built at activation; the panels, their
// manager and the commands (chatCommands.ts) load on first use: the first chat command, or a chat panel VS Code
// restores after a reload (the serializer below).
import * as vscode from 'vscode';
import { CHAT_VIEW_TYPE } from '../../chatProtocol/viewType';
import type { ModelCatalogs } from '../../models/core/modelCatalogs';
import { lazyCommands } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import { CHATS_VIEW_ID, ChatHistoryView } from './chatHistoryView';
import type { ChatPanelManagerOptions } from './chatPanelManager';
import { createChatStore } from './sessionStoreReporter';
import type { ChatMediaPorts } from '../core/hub/ports';

/** The Chats view's commands (chatHistoryCommands.ts). */
export const CHAT_HISTORY_COMMANDS = {
  openSaved: 'modelGateway.chats.open',
  rename: 'modelGateway.chats.rename',
  delete: 'modelGateway.chats.delete',
  exportSaved: 'modelGateway.chats.export',
  branch: 'modelGateway.chats.branch',
  generateTitle: 'modelGateway.chats.generateTitle',
  filter: 'modelGateway.chats.filter',
  clearFilter: 'modelGateway.chats.clearFilter',
} as const;

export const CHAT_COMMANDS = {
  newChat: SHARED_COMMANDS.newChat,
  askAboutSelection: 'modelGateway.askAboutSelection',
  exportChat: 'modelGateway.exportChat',
  compareModels: 'modelGateway.compareModels',
  changeChatProfile: SHARED_COMMANDS.changeChatProfile,
  ...CHAT_HISTORY_COMMANDS,
} as const;

export type ChatNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing' | 'ui'> & {
  models: ModelCatalogs;
  /** The /image, /speak and /video ports, from the media and video features (built on first use). */
  chatMedia(): ChatMediaPorts;
};

export const chatFeature = defineFeature({
  name: 'chat',
  commands: CHAT_COMMANDS,
  views: [CHATS_VIEW_ID],
  activate({ context, log, connection, models, clock, settings, chatMedia, register, testing, ui }: ChatNeeds): { flush(): Promise<void> } {
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
      ui: ui(),
    });
    const chatFolder = vscode.Uri.joinPath(context.globalStorageUri, 'chat').fsPath;
    const store = createChatStore(chatFolder, clock, log, ui);
    const history = new ChatHistoryView({ store, folder: chatFolder, clock });
    const chat = lazy(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createChatFeature } = require('./chatCommands') as typeof import('./chatCommands');
      return createChatFeature({ manager: { ...managerOptions(chatFolder), store }, history, gateway: (profile) => connection.access(profile), clock });
    });
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
        createManager: (storageFolder: string) => {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const { ChatPanelManager } = require('./chatCommands') as typeof import('./chatCommands');
          return new ChatPanelManager(managerOptions(storageFolder));
        },
        history,
      };
    }
    return { flush: () => (chat.peek()?.manager ?? store).flush() };
  },
});
