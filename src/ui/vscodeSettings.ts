// UI adapter: VS Code's configuration as the SettingsSource the pure settings reader expects.
import * as vscode from 'vscode';
import type { SettingsSource } from '../settings/settings';

/**
 * VS Code's configuration, read through one snapshot per call: building a configuration object is the costly
 * part (it was most of activate()'s time when made once per key).
 */
export function vscodeSettingsSource(): SettingsSource {
  const sections = new Map<string, vscode.WorkspaceConfiguration>();
  const read = (key: string) => {
    const dot = key.indexOf('.');
    const section = key.slice(0, dot);
    let configuration = sections.get(section);
    if (!configuration) sections.set(section, (configuration = vscode.workspace.getConfiguration(section)));
    return { configuration, name: key.slice(dot + 1) };
  };
  return {
    userValue<T>(key: string): T | undefined {
      const { configuration, name } = read(key);
      const inspected = configuration.inspect<T>(name);
      return inspected?.globalValue ?? inspected?.defaultValue;
    },
    value<T>(key: string): T | undefined {
      const { configuration, name } = read(key);
      return configuration.get<T>(name);
    },
  };
}

/** VS Code's own proxy setting, passed to our client explicitly (we never touch the global dispatcher). */
export function vscodeProxySetting(): string | undefined {
  const proxy = vscode.workspace.getConfiguration('http').get<string>('proxy');
  return proxy && proxy.trim() ? proxy.trim() : undefined;
}
