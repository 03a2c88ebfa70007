// UI adapter: the profile a chat runs under. A chat keeps the profile it started with, whichever profile the window
// switches to later; its header names it, and Change Chat Profile… (the header's button, or the command with
// arguments for scripts) is the one way to move a chat to another profile, and so to another key.
import type { Profile } from '../../settings/profile';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { chatProfileId, chatProfileName, settingsUnder, type ChatProfileConnection, type ProfileModels } from '../core/chatProfile';
import type { ChatPanel } from './chatPanel';

export interface ChangeChatProfileDeps {
  connection: ChatProfileConnection;
  ui: Pick<UserInterface, 'pickItem' | 'notify'>;
  /** The chat a session id names (open in this window), else the focused or last used chat. */
  panelFor(sessionId: string | undefined): ChatPanel | undefined;
  /** The profile's default chat model and the chat models its gateway lists (loaded unless known). */
  modelsOf(profile: string): Promise<ProfileModels>;
  /** Tells the chat's header and its model picker. */
  show(panel: ChatPanel): void;
}

/**
 * Change Chat Profile…: moves one chat to another profile. With `(profileIdOrName, sessionId?)` it asks nothing
 * (scripts, keybindings); without a profile it offers the profiles in a quick pick. Returns the profile's id, or
 * undefined when nothing changed. The window's active profile does not change.
 */
export async function changeChatProfile(deps: ChangeChatProfileDeps, idOrName: unknown, sessionId: unknown): Promise<string | undefined> {
  const panel = deps.panelFor(typeof sessionId === 'string' ? sessionId : undefined);
  if (!panel) {
    void deps.ui.notify('info', typeof sessionId === 'string' ? 'That chat is not open in this window.' : 'Open a chat first, then change its profile.');
    return undefined;
  }
  const settings = panel.controller.session.settings;
  const current = chatProfileId(settings);
  let profile: Profile | undefined;
  if (idOrName === undefined || idOrName === null || idOrName === '') {
    const items = deps.connection.profiles.map((p) => ({ id: p.id, label: p.name, description: p.id === current ? '(this chat)' : undefined }));
    const picked = await deps.ui.pickItem(items, { title: 'Change Chat Profile', placeHolder: `This chat runs under "${chatProfileName(deps.connection, settings) || 'Default'}". Its next requests go with the chosen profile's key.` });
    if (picked === undefined) return undefined;
    profile = deps.connection.profile(picked);
  } else {
    profile = deps.connection.profile(String(idOrName));
    if (!profile || profile.retired) {
      void deps.ui.notify('error', `There is no profile "${String(idOrName)}". Profiles: ${deps.connection.profiles.map((p) => p.name).join(', ')}.`);
      return undefined;
    }
  }
  if (!profile || profile.id === current) return profile?.id;
  // Asked before the busy check: a send started while the list loads would otherwise go under the old profile
  // and then be moved mid-reply.
  const offered = await deps.modelsOf(profile.id);
  if (panel.controller.busy) {
    void deps.ui.notify('info', 'Wait for the reply to finish (or stop it), then change the chat\'s profile.');
    return undefined;
  }
  await panel.controller.updateSettings(settingsUnder(panel.controller.session.settings, profile, offered));
  deps.show(panel);
  return profile.id;
}
