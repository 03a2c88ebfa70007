// UI adapter: VS Code's configuration as the SettingsSource the pure settings reader expects.
import * as vscode from 'vscode';
import type { ProxySetting } from '../../gateway/proxy';
import type { SettingsSource } from '../../settings/settings';
import { isRecord } from '../../util/records';

/**
 * VS Code's configuration, read through one snapshot per call and section. Both halves were once most of
 * activate()'s time: building a configuration object per key, and then `inspect()` per key (about 0.8 ms each, for
 * some 30 user-level settings), so each section is inspected once and its keys looked up in the result.
 */
export function vscodeSettingsSource(): SettingsSource {
  const sections = new Map<string, SectionSnapshot>();
  const read = (key: string) => {
    const dot = key.indexOf('.');
    const name = key.slice(0, dot);
    let section = sections.get(name);
    if (!section) sections.set(name, (section = new SectionSnapshot(name)));
    return { section, path: key.slice(dot + 1) };
  };
  return {
    userValue<T>(key: string): T | undefined {
      const { section, path } = read(key);
      return section.userValue(path) as T | undefined;
    },
    value<T>(key: string): T | undefined {
      const { section, path } = read(key);
      return section.value<T>(path);
    },
  };
}

/** One section, each half built on first use: the effective values, and the user and default levels. */
class SectionSnapshot {
  private configuration: vscode.WorkspaceConfiguration | undefined;
  private levels: { user: unknown; defaults: unknown } | undefined;

  constructor(private readonly name: string) {}

  value<T>(path: string): T | undefined {
    this.configuration ??= vscode.workspace.getConfiguration(this.name);
    return this.configuration.get<T>(path);
  }

  userValue(path: string): unknown {
    // The whole section at user level and as declared, each as the nested object VS Code keeps it in.
    if (!this.levels) {
      const inspected = vscode.workspace.getConfiguration().inspect<unknown>(this.name);
      this.levels = { user: inspected?.globalValue, defaults: inspected?.defaultValue };
    }
    return valueAt(this.levels.user, path) ?? valueAt(this.levels.defaults, path);
  }
}

/** The value at a dotted path such as `chat.temperature`, or undefined. */
function valueAt(tree: unknown, path: string): unknown {
  let node = tree;
  for (const part of path.split('.')) {
    if (!isRecord(node)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * VS Code's own proxy settings, passed to our client explicitly (we never touch the global dispatcher):
 * `http.proxy`, and `http.proxyStrictSSL` (false: certificates on the proxy path are not checked).
 */
export function vscodeProxySetting(): ProxySetting {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<string>('proxy');
  return { url: proxy && proxy.trim() ? proxy.trim() : undefined, strictSSL: http.get<boolean>('proxyStrictSSL') !== false };
}
