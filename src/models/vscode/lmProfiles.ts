// UI adapter: VS Code's own chat with several profiles (loaded only when there are several). Every profile with a
// key contributes its chat models; when more than one has a key, each model's name ends with its profile's name,
// "model-k3 (Personal)". Each model carries its profile, and a request goes with that profile's key to that
// profile's origin only, whichever profile the window uses.
import type { GatewayConnections } from '../../gateway/connections';
import { isDefaultProfile, type Profile } from '../../settings/profile';
import type { Logger } from '../../util/logger';
import { toChatInformation, type LmChatInformation } from '../core/lmMapping';
import type { CatalogSnapshot } from '../core/modelCatalog';
import type { ModelCatalogs } from '../core/modelCatalogs';

/** A model as handed to VS Code: which profile serves it and its id on that gateway. */
export type ProfiledInformation = LmChatInformation & { readonly profile: string; readonly model: string };

export interface LmProfilesDeps {
  connections: GatewayConnections;
  /** Each profile's model list (the same cache its chats read). */
  catalogs: Pick<ModelCatalogs, 'for'>;
  log: Logger;
  /** `modelGateway.reasoningEffortLevels`, read at each listing as the active profile's models are. */
  effortLevels(): readonly string[];
}

/**
 * The full list for VS Code: the active profile's chat models (`active`, already loaded by the provider), then
 * those of every other profile with a key. A model of a profile other than Default has the id
 * `<profile id>/<model>` so that ids stay unique and stable across switches.
 */
export async function profileModels(active: readonly LmChatInformation[], deps: LmProfilesDeps): Promise<ProfiledInformation[]> {
  const { connections } = deps;
  const withKeys: Profile[] = [];
  for (const profile of connections.profiles) {
    // Reading whether a key is stored sends nothing.
    const state = await connections.connectionFor(profile.id)?.refreshKeyState();
    if (state && state.kind !== 'no-key' && state.kind !== 'no-url') withKeys.push(profile);
  }
  const label = withKeys.length > 1;
  const tag = (infos: readonly LmChatInformation[], profile: Profile): ProfiledInformation[] =>
    infos.map((info) => ({
      ...info,
      id: isDefaultProfile(profile) ? info.id : `${profile.id}/${info.id}`,
      name: label ? `${info.name} (${profile.name})` : info.name,
      detail: `Model Gateway · ${profile.name}`,
      profile: profile.id,
      model: info.id,
    }));
  const result = tag(active, connections.active);
  const levels = deps.effortLevels();
  for (const profile of withKeys) {
    if (profile.id === connections.active.id) continue;
    const catalog = deps.catalogs.for(profile.id);
    let snapshot: CatalogSnapshot | undefined;
    try {
      // Nothing is sent for a profile not used yet in this session when its list is remembered.
      const connection = connections.connectionFor(profile.id);
      snapshot = catalog.known()?.remembered && connection?.state.kind === 'unknown' ? catalog.known() : await catalog.load();
    } catch (error) {
      deps.log.warn(`Could not list the models of profile ${profile.name} for VS Code chat: ${error instanceof Error ? error.message : String(error)}`);
      snapshot = catalog.known();
    }
    result.push(...tag((snapshot?.models ?? []).filter((m) => m.kind === 'chat').map((m) => toChatInformation(m, levels)), profile));
  }
  return result;
}
