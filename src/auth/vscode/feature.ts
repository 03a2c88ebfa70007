// UI adapter: the auth feature: profiles (several gateways and keys side by side), API keys per profile and origin
// in SecretStorage, and the gateway URL. Its commands load keyCommands.ts on first use; the profile list is read
// (and, on the first start after the update, written with the Default profile) right after activation, and a
// seeded key (npm start) and keys lost with the keyring are handled then too.
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { ApiKeyStore } from '../core/apiKeyStore';
import type { ProfileStore } from '../core/profileStore';
import type { PendingJobs } from './profileStartup';
import { applySeededKey } from '../core/seedKey';
import { lazy } from '../../util/lazy';
import { AUTH_COMMANDS } from './commands';

// The profile list is read right after activation, the commands' handlers on their first run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const profileStartup = lazy(() => require('./profileStartup') as typeof import('./profileStartup'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const keyCommands = lazy(() => require('./keyCommands') as typeof import('./keyCommands'));

export type AuthNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'register' | 'testing'> & {
  keys: ApiKeyStore;
  /** The video jobs (running ones in a lane, a profile's key slot, and when they change); asked only after activation. */
  jobs(): PendingJobs;
};

/**
 * The key source every feature shares (auth/core/api.ts names its type): built by the composition root before the
 * connections, which read it, so before any feature activates.
 */
export function createKeyStore(context: Pick<SharedServices['context'], 'secrets' | 'globalState'>): ApiKeyStore {
  return new ApiKeyStore(context.secrets, context.globalState);
}

export const authFeature = defineFeature({
  name: 'auth',
  commands: AUTH_COMMANDS,
  views: [],
  activate({ context, log, keys, connection, clock, register, testing, jobs }: AuthNeeds): void {
    // The profile list is read right after activation (profileStartup.js): until then Default, which the settings
    // describe, is the only profile. startProfiles does not reject: a list it cannot read leaves Default.
    const loaded: Promise<ProfileStore> = Promise.resolve().then(() => profileStartup().startProfiles(context, clock, connection, log, keys, jobs()));
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
      lazyCommands(AUTH_COMMANDS, () => keyCommands().authHandlers(context, { profiles: loaded, connection, keys, runningJobs: (slot) => jobs().runningJobs(slot) })),
    );
    void connection.refreshKeyState();
    // Keys lost with the keyring are rare: their warning loads with the key commands, only then.
    void applySeededKey(keys)
      .then(() => keys.lostOrigins())
      .then((lost) => {
        if (lost.length > 0) void keyCommands().warnAboutLostKeys(keys, lost);
      });
  },
});
