// UI adapter: the shape of a feature definition. Each feature folder has one (`feature.ts`): its commands (its
// table of name → id, vscode/commands.ts; the handlers load on first use), its views, and what it needs from the
// shared services (the `activate` parameter's type). extension.ts builds the shared services and activates each
// definition, and nothing more.
import type * as vscode from 'vscode';
import type { KeySource } from '../../gateway/connection';
import type { GatewayConnections } from '../../gateway/connections';
import type { Settings } from '../../settings/settings';
import type { Clock } from '../../util/clock';
import type { CommandHandlers, CommandIds } from './commands';

/** What extension.ts builds for every feature; each definition's `activate` names the part it needs (a Pick). */
export interface SharedServices {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  keys: KeySource;
  /** Every profile's connection; `access(profile?)` is the way to the gateway. */
  connection: GatewayConnections;
  clock: Clock;
  /**
   * The user settings as a profile (by id or name) sees them, its gateway and default models: the active profile's
   * when none is given.
   */
  settings(profile?: string): Settings;
  onDidChangeSettings: vscode.Event<void>;
  /** Registers commands by id (each run is logged at debug level). */
  register(handlers: CommandHandlers): void;
  /** The extension-host tests' hooks; undefined in the packaged extension. */
  testing: Record<string, unknown> | undefined;
}

export interface FeatureDefinition<Needs, Built> {
  readonly name: string;
  /** Every command the feature implements; package.json declares the same ids (a host test checks both ways). */
  readonly commands: CommandIds;
  /** The views it contributes (their package.json ids). */
  readonly views: readonly string[];
  /** Builds what lives from activation and registers the commands; returns what other features use. */
  activate(needs: Needs): Built;
}

export function defineFeature<Needs, Built>(definition: FeatureDefinition<Needs, Built>): FeatureDefinition<Needs, Built> {
  return definition;
}
