// A new chat's model and settings, from the user's settings and the models the gateway lists.
import type { ChatSettings } from '../../chatProtocol/session';
import { cleanSettings } from '../../chatProtocol/sessionData';
import type { ChatDefaults } from '../../settings/settings';

/** The model for a new chat: the configured default, else the first chat model listed. */
export function pickDefaultModel(configured: string | undefined, listed: readonly string[]): string | undefined {
  return configured || listed[0];
}

/** A new chat's settings from the user's settings, cut to what a chat holds (so no odd value blanks the panel). */
export function settingsFromDefaults(defaults: ChatDefaults): ChatSettings {
  const sampling = defaults.temperature !== undefined ? { mode: 'temperature', value: defaults.temperature } : defaults.topP !== undefined ? { mode: 'top_p', value: defaults.topP } : { mode: 'default' };
  return cleanSettings({ model: defaults.model ?? '', systemPrompt: defaults.systemPrompt, sampling, maxTokens: defaults.maxTokens ?? null, stop: [], jsonMode: false });
}
