// UI adapter: the commands that set, replace and clear the API key of a profile (the active one unless a script
// names another) for that profile's origin, and set the gateway URL. Keys go only to SecretStorage, in the profile's
// slot on that origin (see keySlot), so a key reaches no other origin and no other profile.
import * as vscode from 'vscode';
import { vscodeUserInterface } from '../../ui/vscode/userInterface';
import type { ApiKeyStore } from '../core/apiKeyStore';
import type { GatewayConnections } from '../../gateway/connections';
import { isDefaultProfile, keySlot, profileGateway, slotOrigin, type Profile } from '../../settings/profile';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import type { ProfileStore } from '../core/profileStore';
import { adviceFor } from '../../ui/core/errorAdvice';
import { parseBaseUrl, readSettings, SECTION } from '../../settings/settings';
import { vscodeSettingsSource } from '../../ui/vscode/vscodeSettings';
import { showAdvice } from '../../ui/vscode/notify';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { AUTH_COMMANDS, KEY_COMMANDS } from './commands';
import { ProfileCommands, type ProfileCommandDeps } from './profileCommands';

/**
 * Every auth command (this file is the feature's first-use file). Each waits for the profile list, read right
 * after activation, so a command run at startup sees the profiles.
 */
export function authHandlers(
  context: vscode.ExtensionContext,
  deps: Omit<ProfileCommandDeps, 'profiles' | 'ui' | 'keys' | 'workspaceState' | 'globalState' | 'defaultGateway'> & { profiles: Promise<ProfileStore>; keys: ApiKeyStore },
): HandlersFor<typeof AUTH_COMMANDS> {
  const ready = deps.profiles.then((profiles) => ({
    ...new KeyCommands(deps.keys, deps.connection, profiles).handlers(),
    ...new ProfileCommands({ ...deps, profiles, ui: vscodeUserInterface, workspaceState: context.workspaceState, globalState: context.globalState, defaultGateway: () => readSettings(vscodeSettingsSource()).gateway }).handlers(),
  }));
  const names = ['setApiKey', 'rotateApiKey', 'clearApiKey', 'setBaseUrl', 'profilesMenu', 'profilesSwitch', 'profilesCreate', 'profilesDelete'] as const;
  return Object.fromEntries(names.map((name) => [name, async (...args: unknown[]) => ((await ready)[name] as (...a: unknown[]) => unknown)(...args)])) as HandlersFor<typeof AUTH_COMMANDS>;
}

export class KeyCommands {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly connection: GatewayConnections,
    private readonly profiles: ProfileStore,
  ) {}

  handlers(): HandlersFor<typeof KEY_COMMANDS> {
    return {
      setApiKey: (key?: unknown, profile?: unknown) => this.setApiKey(key, 'set', profile),
      rotateApiKey: (key?: unknown, profile?: unknown) => this.setApiKey(key, 'rotate', profile),
      clearApiKey: (options?: { confirm?: boolean; profile?: string }) => this.clearApiKey(options),
      setBaseUrl: (url?: unknown) => this.setBaseUrl(url),
    };
  }

  /**
   * With a string argument the key is stored for the profile's origin without any prompt, so keybindings,
   * scripts and tests can drive it; `profile` (an id or a name) picks the profile, the active one by default.
   * Returns true when a key was stored.
   */
  async setApiKey(argument: unknown, mode: 'set' | 'rotate', profileArgument?: unknown): Promise<boolean> {
    const profile = this.profileOf(profileArgument);
    if (!profile) return false;
    const origin = await this.requireOrigin(profile);
    if (!origin) return false;
    const slot = keySlot(profile.id, origin);
    const where = this.describe(profile, origin);
    if (typeof argument === 'string') {
      const result = await this.keys.set(slot, argument);
      if (!result.ok) void vscode.window.showErrorMessage(result.reason);
      else if (result.warning) void vscode.window.showWarningMessage(result.warning);
      return result.ok;
    }
    const had = await this.keys.has(slot);
    const rotating = mode === 'rotate' || had;
    const input = await vscode.window.showInputBox({
      title: rotating ? `Replace the API key for ${where}` : `API key for ${where}`,
      prompt: rotating ? 'The new key replaces the stored one. It is kept in VS Code secret storage, for this gateway only.' : 'Kept in VS Code secret storage and sent only to this gateway.',
      placeHolder: 'sk-…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter a key, or press Escape to cancel.' : /\s/.test(value.trim()) ? 'A key has no spaces or line breaks.' : undefined),
    });
    if (input === undefined) return false;
    const result = await this.keys.set(slot, input);
    if (!result.ok) {
      void vscode.window.showErrorMessage(result.reason);
      return false;
    }
    const verify = 'Verify Key';
    const saved = `${rotating ? 'Replaced the' : 'Saved the'} API key for ${where}.${result.warning ? ` ${result.warning}` : ''}`;
    const choice = await (result.warning ? vscode.window.showWarningMessage(saved, verify) : vscode.window.showInformationMessage(saved, verify));
    if (choice === verify) await this.verify(profile, origin);
    return true;
  }

  /** Checks the profile's key with GET /v1/models and says what happened. */
  async verify(profile: Profile, origin: string): Promise<boolean> {
    const access = await this.connection.access(profile.id);
    if (!access.ok) return false;
    const api = access.api;
    try {
      const models = await vscodeUserInterface.withProgress(`Checking the key with ${origin}…`, () => api.listModels());
      void vscode.window.showInformationMessage(`The key works: ${origin} lists ${models.length} model${models.length === 1 ? '' : 's'}.`);
      return true;
    } catch (error) {
      showAdvice(adviceFor(error, { origin }));
      return false;
    }
  }

  async clearApiKey(options?: { confirm?: boolean; profile?: string }): Promise<boolean> {
    const profile = this.profileOf(options?.profile);
    if (!profile) return false;
    const origin = this.originOf(profile);
    const where = origin && this.describe(profile, origin);
    if (!origin || !(await this.keys.has(keySlot(profile.id, origin)))) {
      void vscode.window.showInformationMessage(origin ? `No API key is stored for ${where}.` : 'No gateway URL is set, so no key is in use.');
      return false;
    }
    if (options?.confirm !== false) {
      const clear = 'Clear Key';
      const choice = await vscode.window.showWarningMessage(`Remove the API key for ${where} from this machine?`, { modal: true, detail: 'Chats and video jobs stay; requests stop until a key is set again.' }, clear);
      if (choice !== clear) return false;
    }
    await this.keys.clear(keySlot(profile.id, origin));
    void vscode.window.showInformationMessage(`Cleared the API key for ${where}.`);
    return true;
  }

  async setBaseUrl(argument: unknown): Promise<boolean> {
    let raw = typeof argument === 'string' ? argument : undefined;
    if (raw === undefined) {
      raw = await vscode.window.showInputBox({
        title: 'Gateway URL',
        prompt: 'The base URL of the gateway API, ending in /v1. Stored in your user settings.',
        placeHolder: 'https://gateway.example.com/v1',
        value: this.connection.baseUrl ?? '',
        ignoreFocusOut: true,
        validateInput: (value) => {
          const parsed = parseBaseUrl(value);
          return !parsed ? 'Enter a URL.' : 'problem' in parsed ? parsed.problem : undefined;
        },
      });
      if (raw === undefined) return false;
    }
    const parsed = parseBaseUrl(raw);
    if (!parsed || 'problem' in parsed) {
      void vscode.window.showErrorMessage(parsed ? parsed.problem : 'Enter a URL.');
      return false;
    }
    const active = this.connection.active;
    if (!isDefaultProfile(active)) {
      // Another profile's URL lives in the profile list, not in settings.
      const edited = await this.profiles.edit(active.id, { baseUrl: parsed.baseUrl });
      if (!edited.ok) void vscode.window.showErrorMessage(edited.problem);
      return edited.ok;
    }
    await vscode.workspace.getConfiguration(SECTION).update('baseUrl', parsed.baseUrl, vscode.ConfigurationTarget.Global);
    return true;
  }

  /** The named profile (id or name), the active one when none is named; undefined (and said) when there is none such. */
  private profileOf(argument: unknown): Profile | undefined {
    if (argument === undefined || argument === null || argument === '') return this.connection.active;
    const profile = this.connection.profile(String(argument));
    if (!profile) void vscode.window.showErrorMessage(`There is no profile "${String(argument)}". Profiles: ${this.connection.profiles.map((p) => p.name).join(', ')}.`);
    return profile;
  }

  /**
   * The profile's origin. Default's is read from settings, not the connection, so a URL saved a moment ago is
   * already the one that counts.
   */
  private originOf(profile: Profile): string | undefined {
    const gateway = readSettings(vscodeSettingsSource()).gateway;
    return isDefaultProfile(profile) ? gateway.origin : profileGateway(profile, gateway).origin;
  }

  /** "https://gw.example" alone, or with the profile's name when there are several. */
  private describe(profile: Profile, origin: string): string {
    return this.connection.profiles.length > 1 ? `${origin} (profile ${profile.name})` : origin;
  }

  private async requireOrigin(profile: Profile): Promise<string | undefined> {
    const origin = this.originOf(profile);
    if (origin) return origin;
    const set = 'Set Gateway URL';
    const choice = await vscode.window.showWarningMessage('Set the gateway URL first: each key belongs to one gateway.', set);
    if (choice === set && isDefaultProfile(profile) && (await this.setBaseUrl(undefined))) return this.originOf(profile);
    return undefined;
  }
}

/**
 * Keys saved earlier but gone now mean VS Code found no keyring and kept secrets in memory only. Say so once
 * per loss, plainly, and forget those origins so the warning does not repeat.
 */
export async function warnAboutLostKeys(keys: ApiKeyStore, lost: string[]): Promise<void> {
  await keys.forget(lost);
  const setKey = 'Set API Key';
  const learnMore = 'Learn More';
  const choice = await vscode.window.showWarningMessage(
    `The API key for ${[...new Set(lost.map(slotOrigin))].join(', ')} did not survive the restart: VS Code could not reach a system keyring, so it kept secrets in memory only. Set the key again, and install or unlock a keyring (for example gnome-keyring) to keep it.`,
    setKey,
    learnMore,
  );
  if (choice === setKey) await vscode.commands.executeCommand(SHARED_COMMANDS.setApiKey);
  if (choice === learnMore) await vscode.env.openExternal(vscode.Uri.parse('https://code.visualstudio.com/docs/configure/settings-sync#_troubleshooting-keychain-issues'));
}
