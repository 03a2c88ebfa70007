// UI adapter: the commands that set, replace and clear the API key for the configured gateway origin, and
// set the gateway URL. Keys go only to SecretStorage, keyed by origin (see ApiKeyStore).
import * as vscode from 'vscode';
import { vscodeUserInterface } from '../../ui/vscode/userInterface';
import type { ApiKeyStore } from '../core/apiKeyStore';
import type { GatewayConnection } from '../../gateway/connection';
import { adviceFor } from '../../ui/core/errorAdvice';
import { parseBaseUrl, readSettings, SECTION } from '../../settings/settings';
import { vscodeSettingsSource } from '../../ui/vscode/vscodeSettings';
import { showAdvice } from '../../ui/vscode/notify';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { AUTH_COMMANDS } from './feature';

export class KeyCommands {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly connection: GatewayConnection,
  ) {}

  handlers(): HandlersFor<typeof AUTH_COMMANDS> {
    return {
      setApiKey: (key?: unknown) => this.setApiKey(key, 'set'),
      rotateApiKey: (key?: unknown) => this.setApiKey(key, 'rotate'),
      clearApiKey: (options?: { confirm?: boolean }) => this.clearApiKey(options),
      setBaseUrl: (url?: unknown) => this.setBaseUrl(url),
    };
  }

  /**
   * With a string argument the key is stored for the current origin without any prompt, so keybindings,
   * scripts and tests can drive it. Returns true when a key was stored.
   */
  async setApiKey(argument: unknown, mode: 'set' | 'rotate'): Promise<boolean> {
    const origin = await this.requireOrigin();
    if (!origin) return false;
    if (typeof argument === 'string') {
      const result = await this.keys.set(origin, argument);
      if (!result.ok) void vscode.window.showErrorMessage(result.reason);
      else if (result.warning) void vscode.window.showWarningMessage(result.warning);
      return result.ok;
    }
    const had = await this.keys.has(origin);
    const rotating = mode === 'rotate' || had;
    const input = await vscode.window.showInputBox({
      title: rotating ? `Replace the API key for ${origin}` : `API key for ${origin}`,
      prompt: rotating ? 'The new key replaces the stored one. It is kept in VS Code secret storage, for this gateway only.' : 'Kept in VS Code secret storage and sent only to this gateway.',
      placeHolder: 'sk-…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter a key, or press Escape to cancel.' : /\s/.test(value.trim()) ? 'A key has no spaces or line breaks.' : undefined),
    });
    if (input === undefined) return false;
    const result = await this.keys.set(origin, input);
    if (!result.ok) {
      void vscode.window.showErrorMessage(result.reason);
      return false;
    }
    const verify = 'Verify Key';
    const saved = `${rotating ? 'Replaced the' : 'Saved the'} API key for ${origin}.${result.warning ? ` ${result.warning}` : ''}`;
    const choice = await (result.warning ? vscode.window.showWarningMessage(saved, verify) : vscode.window.showInformationMessage(saved, verify));
    if (choice === verify) await this.verify(origin);
    return true;
  }

  /** Checks the key with GET /v1/models and says what happened. */
  async verify(origin: string): Promise<boolean> {
    const api = await this.connection.api();
    if (!api) return false;
    try {
      const models = await vscodeUserInterface.withProgress(`Checking the key with ${origin}…`, () => api.listModels());
      void vscode.window.showInformationMessage(`The key works: ${origin} lists ${models.length} model${models.length === 1 ? '' : 's'}.`);
      return true;
    } catch (error) {
      showAdvice(adviceFor(error, { origin }));
      return false;
    }
  }

  async clearApiKey(options?: { confirm?: boolean }): Promise<boolean> {
    const origin = this.currentOrigin();
    if (!origin || !(await this.keys.has(origin))) {
      void vscode.window.showInformationMessage(origin ? `No API key is stored for ${origin}.` : 'No gateway URL is set, so no key is in use.');
      return false;
    }
    if (options?.confirm !== false) {
      const clear = 'Clear Key';
      const choice = await vscode.window.showWarningMessage(`Remove the API key for ${origin} from this machine?`, { modal: true, detail: 'Chats and video jobs stay; requests stop until a key is set again.' }, clear);
      if (choice !== clear) return false;
    }
    await this.keys.clear(origin);
    void vscode.window.showInformationMessage(`Cleared the API key for ${origin}.`);
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
    await vscode.workspace.getConfiguration(SECTION).update('baseUrl', parsed.baseUrl, vscode.ConfigurationTarget.Global);
    return true;
  }

  /** Read from settings, not the connection, so a URL saved a moment ago is already the one that counts. */
  private currentOrigin(): string | undefined {
    return readSettings(vscodeSettingsSource()).gateway.origin;
  }

  private async requireOrigin(): Promise<string | undefined> {
    const origin = this.currentOrigin();
    if (origin) return origin;
    const set = 'Set Gateway URL';
    const choice = await vscode.window.showWarningMessage('Set the gateway URL first: each key belongs to one gateway.', set);
    if (choice === set && (await this.setBaseUrl(undefined))) return this.currentOrigin();
    return undefined;
  }
}
