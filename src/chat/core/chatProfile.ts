// A chat's profile in its settings: the profile decides which key the chat's requests carry, so it changes only
// through Change Chat Profile… (chat/vscode/chatProfile.ts), never from the chat page, nor when the window switches.
import type { ChatSettings } from '../../chatProtocol/session';
import { isDefaultProfile, type Profile } from '../../settings/profile';

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
