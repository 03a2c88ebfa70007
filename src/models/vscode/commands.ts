// The models feature's commands: a name for the code → the id package.json declares. Their handlers
// (modelCommands.ts) load on the first run of any of them.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

export const MODEL_COMMANDS = {
  listModels: SHARED_COMMANDS.listModels,
  refreshModels: 'modelGateway.refreshModels',
  diagnoseModels: 'modelGateway.diagnoseModels',
} as const;
