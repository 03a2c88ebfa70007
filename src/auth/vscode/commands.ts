// The auth feature's commands: a name for the code → the id package.json declares. Their handlers (keyCommands.ts)
// load on the first run of any of them; this table is all activation loads.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

export const KEY_COMMANDS = {
  setApiKey: SHARED_COMMANDS.setApiKey,
  rotateApiKey: SHARED_COMMANDS.rotateApiKey,
  clearApiKey: SHARED_COMMANDS.clearApiKey,
  setBaseUrl: SHARED_COMMANDS.setBaseUrl,
} as const;

/** Edit, rename, duplicate, the workspace binding, export and import are in the Profiles… menu. */
export const PROFILE_COMMANDS = {
  profilesMenu: SHARED_COMMANDS.profilesMenu,
  profilesSwitch: SHARED_COMMANDS.profilesSwitch,
  profilesCreate: 'modelGateway.profiles.create',
  profilesDelete: 'modelGateway.profiles.delete',
} as const;

export const AUTH_COMMANDS = { ...KEY_COMMANDS, ...PROFILE_COMMANDS } as const;
