// Removing a profile, and the profiles deleted while their video jobs still ran. Such a profile is retired (hidden
// from every list and picker at once) rather than removed, because its jobs are polled with its key: removing the
// key would orphan them. Once none of its jobs is pending any more, any window removes the profile and its key.
import type { GatewayConnections } from '../../gateway/connections';
import { keySlot, type Profile } from '../../settings/profile';
import type { ApiKeyStore } from './apiKeyStore';
import { clearHeaderValues, headerSlots } from './headerSecrets';
import type { ProfileResult, ProfileStore } from './profileStore';

export interface ProfileRemoval {
  store: Pick<ProfileStore, 'delete' | 'all'>;
  keys: ApiKeyStore;
  /** The origin a profile reaches now (undefined: none). */
  originOf(profileId: string): string | undefined;
  /** A profile's video jobs still pending (queued or in progress), by its id, on whichever origin they run. */
  runningJobs(profileId: string): number;
}

/** The removal over this window's connections: a profile's origin and key slot are its connection's. */
export function removalVia(connections: Pick<GatewayConnections, 'connectionFor'>, parts: Pick<ProfileRemoval, 'store' | 'keys' | 'runningJobs'>): ProfileRemoval {
  return { ...parts, originOf: (id) => connections.connectionFor(id)?.origin };
}

/**
 * Removes a profile from the list, and its keys and header values from SecretStorage: on its origin now and any
 * earlier one.
 */
export async function removeProfile(profile: Profile, deps: Omit<ProfileRemoval, 'runningJobs'>): Promise<ProfileResult> {
  const origin = deps.originOf(profile.id) ?? safeOrigin(profile.baseUrl);
  const result = await deps.store.delete(profile.id);
  if (!result.ok) return result;
  const mine = (slot: string) => slot.startsWith(`profile/${profile.id}/`);
  if (origin) await deps.keys.clear(keySlot(profile.id, origin));
  for (const stored of deps.keys.storedOrigins()) if (mine(stored)) await deps.keys.clear(stored);
  if (origin) await clearHeaderValues(deps.keys, keySlot(profile.id, origin));
  for (const slot of headerSlots(deps.keys)) if (mine(slot)) await clearHeaderValues(deps.keys, slot);
  return result;
}

/**
 * The pending jobs that keep a profile's keys needed: they belong to it by its id, never by matching hosts (a job
 * started before its URL changed runs on the old host, with its key there).
 */
export function pendingJobsOf(profile: Profile, deps: Pick<ProfileRemoval, 'runningJobs'>): number {
  return deps.runningJobs(profile.id);
}

/**
 * Removes each retired profile none of whose jobs is pending any more; returns their names. Run when the list or the
 * jobs change. Two windows may both try: the second finds the profile gone, which is no failure.
 */
export async function finishRetired(deps: ProfileRemoval): Promise<string[]> {
  const done: string[] = [];
  for (const profile of deps.store.all.filter((p) => p.retired)) {
    if (pendingJobsOf(profile, deps) > 0) continue;
    if ((await removeProfile(profile, deps)).ok) done.push(profile.name);
  }
  return done;
}

export function safeOrigin(url: string): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
