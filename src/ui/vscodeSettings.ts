// UI adapter: VS Code's configuration as the SettingsSource the pure settings reader expects.
import * as vscode from 'vscode';
import type { SettingsSource } from '../settings/settings';

export const vscodeSettingsSource: SettingsSource = {
  userValue<T>(key: string): T | undefined {
    const inspected = vscode.workspace.getConfiguration().inspect<T>(key);
    return inspected?.globalValue ?? inspected?.defaultValue;
  },
  value<T>(key: string): T | undefined {
    return vscode.workspace.getConfiguration().get<T>(key);
  },
};

/** VS Code's own proxy setting, passed to our client explicitly (we never touch the global dispatcher). */
export function vscodeProxySetting(): string | undefined {
  const proxy = vscode.workspace.getConfiguration('http').get<string>('proxy');
  return proxy && proxy.trim() ? proxy.trim() : undefined;
}
