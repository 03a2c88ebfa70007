// UI adapter: the auth feature: profiles (several gateways and keys side by side), API keys per profile and origin
// in SecretStorage, and the gateway URL. Its commands load keyCommands.ts on first use; the profile list is read
// (and, on the first start after the update, written with the Default profile) right after activation, and a
// seeded key (npm start) and keys lost with the keyring are handled then too.
import { lazyCommands } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import type { ApiKeyStore } from '../core/apiKeyStore';
import type { ProfileStore } from '../core/profileStore';
import type { PendingJobs } from './profileStartup';
import { applySeededKey } from '../core/seedKey';

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

export type AuthNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'register' | 'testing'> & {
  keys: ApiKeyStore;
  /** The video jobs (running ones in a lane, a profile's key slot, and when they change); asked only after activation. */
  jobs(): PendingJobs;
};

export const authFeature = defineFeature({
  name: 'auth',
  commands: AUTH_COMMANDS,
  views: [],
  activate({ context, log, keys, connection, clock, register, testing, jobs }: AuthNeeds): void {
    // The profile list is read right after activation (profileStartup.js): until then Default, which the settings
    // describe, is the only profile. startProfiles does not reject: a list it cannot read leaves Default.
    const loaded: Promise<ProfileStore> = Promise.resolve().then(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { startProfiles } = require('./profileStartup') as typeof import('./profileStartup');
      return startProfiles(context, clock, connection, log, keys, jobs());
    });
    // Every request, and whatever decides by the active profile, waits until this window's profile is known.
    connection.ready = loaded.then(
      () => undefined,
      () => undefined,
    );
    if (TEST_BUILD && testing) {
      testing.profiles = loaded;
      testing.keys = keys;
    }
    register(
      lazyCommands(AUTH_COMMANDS, () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { authHandlers } = require('./keyCommands') as typeof import('./keyCommands');
        return authHandlers(context, { profiles: loaded, connection, keys, runningJobs: (id) => jobs().runningJobs(id) });
      }),
    );
    void connection.refreshKeyState();
    // Keys lost with the keyring are rare: their warning loads with the key commands, only then.
    void applySeededKey(keys)
      .then(() => keys.lostOrigins())
      .then((lost) => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        if (lost.length > 0) void (require('./keyCommands') as typeof import('./keyCommands')).warnAboutLostKeys(keys, lost);
      });
  },
});
