// The usage feature's commands: a name for the code → the id package.json declares. Their handlers
// (usageCommands.ts) load on the first run of any of them.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

export const USAGE_COMMANDS = {
  showUsage: SHARED_COMMANDS.showUsage,
  exportUsage: 'modelGateway.usage.export',
  clearUsage: 'modelGateway.clearUsage',
} as const;
