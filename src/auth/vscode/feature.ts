// UI adapter: the auth feature: API keys per origin in SecretStorage and the gateway URL. Its commands load
// keyCommands.ts on first use; a seeded key (npm start) and keys lost with the keyring are handled at activation.
import * as vscode from 'vscode';
import { lazyCommands } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import type { ApiKeyStore } from '../core/apiKeyStore';
import { applySeededKey } from '../core/seedKey';

export const AUTH_COMMANDS = {
  setApiKey: SHARED_COMMANDS.setApiKey,
  rotateApiKey: SHARED_COMMANDS.rotateApiKey,
  clearApiKey: SHARED_COMMANDS.clearApiKey,
  setBaseUrl: SHARED_COMMANDS.setBaseUrl,
} as const;

export type AuthNeeds = Pick<SharedServices, 'connection' | 'register'> & {
  keys: ApiKeyStore;
};

export const authFeature = defineFeature({
  name: 'auth',
  commands: AUTH_COMMANDS,
  views: [],
  activate({ keys, connection, register }: AuthNeeds): void {
    register(
      lazyCommands(AUTH_COMMANDS, () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { KeyCommands } = require('./keyCommands') as typeof import('./keyCommands');
        return new KeyCommands(keys, connection).handlers();
      }),
    );
    void connection.refreshKeyState();
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
    `The API key for ${lost.join(', ')} did not survive the restart: VS Code could not reach a system keyring, so it kept secrets in memory only. Set the key again, and install or unlock a keyring (for example gnome-keyring) to keep it.`,
    setKey,
    learnMore,
  );
  if (choice === setKey) await vscode.commands.executeCommand(AUTH_COMMANDS.setApiKey);
  if (choice === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues'));
}
