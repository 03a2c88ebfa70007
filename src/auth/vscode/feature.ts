// UI adapter: the auth feature: profiles (several gateways and keys side by side), API keys per profile and origin
// in SecretStorage, and the gateway URL. Its commands load keyCommands.ts on first use; the profile list is read
// (and, on the first start after the update, written with the Default profile) right after activation, and a
// seeded key (npm start) and keys lost with the keyring are handled then too.
import * as vscode from 'vscode';
import { lazyCommands } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { vscodeUserInterface } from '../../ui/vscode/userInterface';
import { slotOrigin } from '../../settings/profile';
import type { ApiKeyStore } from '../core/apiKeyStore';
import type { ProfileChoice } from '../core/profileChoice';
import type { ProfileStore } from '../core/profileStore';
import { applySeededKey } from '../core/seedKey';

export const KEY_COMMANDS = {
  setApiKey: SHARED_COMMANDS.setApiKey,
  rotateApiKey: SHARED_COMMANDS.rotateApiKey,
  clearApiKey: SHARED_COMMANDS.clearApiKey,
  setBaseUrl: SHARED_COMMANDS.setBaseUrl,
} as const;

export const PROFILE_COMMANDS = {
  profilesMenu: SHARED_COMMANDS.profilesMenu,
  profilesSwitch: SHARED_COMMANDS.profilesSwitch,
  profilesCreate: 'modelGateway.profiles.create',
  profilesEdit: 'modelGateway.profiles.edit',
  profilesRename: 'modelGateway.profiles.rename',
  profilesDuplicate: 'modelGateway.profiles.duplicate',
  profilesDelete: 'modelGateway.profiles.delete',
  profilesUseInWorkspace: 'modelGateway.profiles.useInWorkspace',
  profilesExport: 'modelGateway.profiles.export',
  profilesImport: 'modelGateway.profiles.import',
} as const;

export const AUTH_COMMANDS = { ...KEY_COMMANDS, ...PROFILE_COMMANDS } as const;

export type AuthNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'register'> & {
  keys: ApiKeyStore;
  profiles: ProfileStore;
  initialProfile: ProfileChoice;
  /** Running video jobs in a lane (a profile's key slot); filled once the videos feature is active. */
  runningJobs(slot: string): number;
  /** The user settings' gateway URL and headers: the Default profile's. */
  defaultGateway(): { baseUrl: string | undefined; headers: Record<string, string> };
};

export const authFeature = defineFeature({
  name: 'auth',
  commands: AUTH_COMMANDS,
  views: [],
  activate({ context, log, keys, profiles, connection, register, initialProfile, runningJobs, defaultGateway }: AuthNeeds): void {
    register(
      lazyCommands(AUTH_COMMANDS, () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { KeyCommands, ProfileCommands } = require('./keyCommands') as typeof import('./keyCommands');
        const profileCommands = new ProfileCommands({
          profiles,
          connection,
          keys,
          workspaceState: context.workspaceState,
          globalState: context.globalState,
          ui: vscodeUserInterface,
          runningJobs,
          defaultGateway,
        });
        return { ...new KeyCommands(keys, connection, profiles).handlers(), ...profileCommands.handlers() };
      }),
    );
    void connection.refreshKeyState();
    profiles.onDidSetAside((path) => {
      log.warn(`The profile list could not be read; it was kept as ${path} and a new list was started.`);
      void vscode.window.showWarningMessage(`Model Gateway: the profile list could not be read. It was kept as ${path}, and a new list with the Default profile was started; nothing was deleted.`);
    });
    // The first start after the update writes the list with Default (today's URL, headers and key); it asks nothing.
    void profiles
      .load()
      .then(() => {
        if (initialProfile.bound) connection.setWorkspaceBinding(initialProfile.id);
        connection.switchTo(initialProfile.id);
      })
      .catch((error: unknown) => log.warn(`Could not read the profile list: ${error instanceof Error ? error.message : String(error)}`));
    void applySeededKey(keys).then(() => warnAboutLostKeys(keys));
  },
});

/**
 * Keys saved earlier but gone now mean VS Code found no keyring and kept secrets in memory only. Say so once
 * per loss, plainly, and forget those origins so the warning does not repeat.
 */
async function warnAboutLostKeys(keys: ApiKeyStore): Promise<void> {
  const lost = await keys.lostOrigins();
  if (lost.length === 0) return;
  await keys.forget(lost);
  const setKey = 'Set API Key';
  const learnMore = 'Learn More';
  const choice = await vscode.window.showWarningMessage(
    `The API key for ${[...new Set(lost.map(slotOrigin))].join(', ')} did not survive the restart: VS Code could not reach a system keyring, so it kept secrets in memory only. Set the key again, and install or unlock a keyring (for example gnome-keyring) to keep it.`,
    setKey,
    learnMore,
  );
  if (choice === setKey) await vscode.commands.executeCommand(KEY_COMMANDS.setApiKey);
  if (choice === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues'));
}
