// A chat's profile in its settings: the profile decides which key the chat's requests carry, so it changes only
// through Change Chat Profile… (chat/vscode/chatProfile.ts), never from the chat page, nor when the window switches.
import type { ChatSettings } from '../../chatProtocol/session';
import type { GatewayConnections } from '../../gateway/connections';
import { pickDefaultModel } from './chatModels';
import { DEFAULT_PROFILE_ID, isDefaultProfile, type Profile } from '../../settings/profile';

export type ChatProfileConnection = Pick<GatewayConnections, 'profile' | 'profiles'>;

/** The profile a chat runs under: its own, or Default for a chat saved before profiles. */
export function chatProfileId(settings: Pick<ChatSettings, 'profile'>): string {
  return settings.profile ?? DEFAULT_PROFILE_ID;
}

/** The name the chat's header shows: '' while Default is the only profile (nothing to tell apart). */
export function chatProfileName(connection: ChatProfileConnection, settings: Pick<ChatSettings, 'profile'>): string {
  const profile = connection.profile(chatProfileId(settings));
  if (!profile) return 'Deleted profile';
  if (profile.retired) return `${profile.name} (deleted)`;
  return connection.profiles.length > 1 || !isDefaultProfile(profile) ? profile.name : '';
}

/** Settings from the chat page, with the chat's profile kept as it is (the page cannot move a chat to another key). */
export function keepingProfile(next: ChatSettings, current: Pick<ChatSettings, 'profile'>): ChatSettings {
  const { profile: _ignored, ...rest } = next;
  return current.profile === undefined ? rest : { ...rest, profile: current.profile };
}

/** What a profile offers a chat moved to it: its default chat model, and the chat models its gateway lists. */
export interface ProfileModels {
  /** The profile's default chat model (`settings(profile).chat.model`), if it names one. */
  configured: string | undefined;
  /** The chat models its catalog lists; undefined when the list could not be loaded (offline, no key). */
  listed: readonly string[] | undefined;
}

/**
 * The chat's model under another profile: its own while that profile's gateway lists it, else the profile's
 * default, else the first chat model it lists. Without a list (offline) the profile's default when it names one,
 * which the user chose for that gateway, else the chat's own: guessing would hide the gateway's answer, and the
 * send's error advises what to do.
 */
export function modelUnder(model: string, offered: ProfileModels): string {
  const { configured, listed } = offered;
  if (listed === undefined) return configured || model;
  if (listed.includes(model)) return model;
  return pickDefaultModel(configured, listed) ?? model;
}

/** The chat's settings under another profile: its key and gateway, and a model that profile offers (modelUnder). */
export function settingsUnder(settings: ChatSettings, profile: Profile, offered: ProfileModels): ChatSettings {
  const { profile: _old, ...rest } = settings;
  return { ...rest, model: modelUnder(settings.model, offered), ...(!isDefaultProfile(profile) && { profile: profile.id }) };
}
