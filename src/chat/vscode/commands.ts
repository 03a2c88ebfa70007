// The chat feature's commands: a name for the code → the id package.json declares. Their handlers (chatCommands.ts)
// load on the first run of any of them; this table is all activation loads.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

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
  addToChat: 'modelGateway.addToChat',
  addSelectionToChat: 'modelGateway.addSelectionToChat',
  exportChat: 'modelGateway.exportChat',
  compareModels: 'modelGateway.compareModels',
  changeChatProfile: SHARED_COMMANDS.changeChatProfile,
  ...CHAT_HISTORY_COMMANDS,
} as const;
