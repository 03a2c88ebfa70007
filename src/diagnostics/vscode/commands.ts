// The diagnostics feature's commands: a name for the code → the id package.json declares. Test Connection's
// handlers (testConnectionCommand.ts) load on the first run of any of them.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

/** The commands TestConnectionCommand implements. */
export const REPORT_COMMANDS = {
  testConnection: SHARED_COMMANDS.testConnection,
  runConnectionTestAgain: 'modelGateway.runConnectionTestAgain',
  copyConnectionReport: 'modelGateway.copyConnectionReport',
} as const;

export const DIAGNOSTICS_COMMANDS = {
  ...REPORT_COMMANDS,
  showStatusMenu: SHARED_COMMANDS.showStatusMenu,
  openLogs: SHARED_COMMANDS.openLogs,
} as const;
