// UI adapter: the shape of a feature definition. Each feature folder has one (`feature.ts`): its commands (name →
// id; the handlers load on first use), its views, and what it needs from the shared services (the `activate`
// parameter's type). extension.ts builds the shared services and activates each definition, and nothing more.
import type { CommandIds } from './commands';

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

/** What a definition's `activate` needs from the shared services, and what it builds. */
export type NeedsOf<F> = F extends FeatureDefinition<infer Needs, unknown> ? Needs : never;
