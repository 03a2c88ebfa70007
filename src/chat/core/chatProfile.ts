// A chat's profile in its settings: the profile decides which key the chat's requests carry, so it changes only
// through Change Chat Profile… (chat/vscode/chatProfile.ts), never from the chat page, nor when the window switches.
import type { ChatSettings } from '../../chatProtocol/session';
import type { GatewayConnections } from '../../gateway/connections';
import { DEFAULT_PROFILE_ID, isDefaultProfile, type Profile } from '../../settings/profile';

export type ChatProfileConnection = Pick<GatewayConnections, 'profile' | 'profiles'>;

/** The name the chat's header shows: '' while Default is the only profile (nothing to tell apart). */
/** The profile a chat runs under: its own, or Default for a chat saved before profiles. */
export function chatProfileId(settings: Pick<ChatSettings, 'profile'>): string {
  return settings.profile ?? DEFAULT_PROFILE_ID;
}

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

/** The chat's settings under another profile: its key and gateway, and its default chat model when it names one. */
export function settingsUnder(settings: ChatSettings, profile: Profile): ChatSettings {
  const { profile: _old, ...rest } = settings;
  return { ...rest, ...(profile.models.chat && { model: profile.models.chat }), ...(!isDefaultProfile(profile) && { profile: profile.id }) };
}
