// UI adapter: VS Code's configuration as the SettingsSource the pure settings reader expects.
import * as vscode from 'vscode';
import type { SettingsSource } from '../settings/settings';

/**
 * VS Code's configuration, read through one snapshot per call and section. Both halves were once most of
 * activate()'s time: building a configuration object per key, and then `inspect()` per key (about 0.8 ms each, for
 * some 30 user-level settings), so each section is inspected once and its keys looked up in the result.
 */
export function vscodeSettingsSource(): SettingsSource {
  const sections = new Map<string, { configuration: vscode.WorkspaceConfiguration; levels?: SectionLevels }>();
  const read = (key: string) => {
    const dot = key.indexOf('.');
    const name = key.slice(dot + 1);
    const sectionName = key.slice(0, dot);
    let section = sections.get(sectionName);
    if (!section) sections.set(sectionName, (section = { configuration: vscode.workspace.getConfiguration(sectionName) }));
    return { section, sectionName, name };
  };
  return {
    userValue<T>(key: string): T | undefined {
      const { section, sectionName, name } = read(key);
      section.levels ??= inspectSection(sectionName);
      return (valueAt(section.levels.user, name) ?? valueAt(section.levels.defaults, name)) as T | undefined;
    },
    value<T>(key: string): T | undefined {
      const { section, name } = read(key);
      return section.configuration.get<T>(name);
    },
  };
}

interface SectionLevels {
  user: unknown;
  defaults: unknown;
}

/** The whole section at user level and as declared, each as the nested object VS Code keeps it in. */
function inspectSection(section: string): SectionLevels {
  const inspected = vscode.workspace.getConfiguration().inspect<unknown>(section);
  return { user: inspected?.globalValue, defaults: inspected?.defaultValue };
}

/** The value at a dotted path such as `chat.temperature`, or undefined. */
function valueAt(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** VS Code's own proxy setting, passed to our client explicitly (we never touch the global dispatcher). */
export function vscodeProxySetting(): string | undefined {
  const proxy = vscode.workspace.getConfiguration('http').get<string>('proxy');
  return proxy && proxy.trim() ? proxy.trim() : undefined;
}
