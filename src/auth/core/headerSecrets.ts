// Header values are credentials unless proven otherwise (api-key, Helicone-Auth, CF-Access-Client-Secret…), and
// nothing proves a header harmless, so every value is kept in SecretStorage beside the key, in the profile's slot on
// its origin, and sent only there. The profile list and the modelGateway.requestHeaders setting keep the names with
// empty values. Values written there before (or by an older version, or by hand in settings.json) are moved: stored
// first, read back, and only then blanked, and only where the value is still the one moved, so no header is lost.
// Until then the connection reads both (gateway/headerValues.ts).
import { DEFAULT_PROFILE_ID, keySlot, type Profile } from '../../settings/profile';
import { parseBaseUrl, readHeaders } from '../../settings/settings';
import { isRecord } from '../../util/records';
import { HEADER_SLOTS, HEADERS_PREFIX, type ApiKeyStore } from './apiKeyStore';

export type HeaderVault = ApiKeyStore;

/** Keeps these header values for a slot, replacing what it held; empty values are not kept. */
export async function setHeaderValues(keys: ApiKeyStore, slot: string, values: Readonly<Record<string, string>>): Promise<void> {
  const kept = filledValues(values);
  if (Object.keys(kept).length === 0) return clearHeaderValues(keys, slot);
  await keys.secrets.store(HEADERS_PREFIX + slot, JSON.stringify(kept));
  await keys.remember(HEADER_SLOTS, slot, true);
  // Announced as any change is (the connection of that slot makes its client again), echo or not.
  await keys.notifyExternalChange(HEADERS_PREFIX + slot);
}

export async function clearHeaderValues(keys: ApiKeyStore, slot: string): Promise<void> {
  await keys.secrets.delete(HEADERS_PREFIX + slot);
  await keys.remember(HEADER_SLOTS, slot, false);
  await keys.notifyExternalChange(HEADERS_PREFIX + slot);
}

/** Slots for which header values were saved and not cleared. */
export function headerSlots(keys: ApiKeyStore): string[] {
  return keys.memento.get<string[]>(HEADER_SLOTS) ?? [];
}

/** The headers with every value emptied: what the profile list, the setting and an export keep. */
export function headerNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, '']));
}

/** The headers that have a value. */
export function filledValues(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
}

/** The named headers with their values: the one written beside the name, else the stored one, else empty. */
export function withValues(named: Readonly<Record<string, string>>, stored: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(named).map(([name, value]) => [name, value || (Object.hasOwn(stored, name) ? stored[name] : '')]));
}

/** The origin a profile's requests go to (undefined: no usable URL). */
export function profileOrigin(profile: Pick<Profile, 'baseUrl'>): string | undefined {
  const parsed = parseBaseUrl(profile.baseUrl);
  return parsed && !('problem' in parsed) ? parsed.origin : undefined;
}

/** Adds `values` to the slot's stored ones; true once they read back as stored (only then may a caller blank them). */
export async function keepHeaderValues(vault: HeaderVault, slot: string, values: Readonly<Record<string, string>>): Promise<boolean> {
  if (Object.keys(values).length === 0) return true;
  await setHeaderValues(vault, slot, { ...(await vault.headerValues(slot)), ...values });
  const stored = await vault.headerValues(slot);
  return Object.entries(values).every(([name, value]) => stored[name] === value);
}

/** The profile list's part: each profile's values into its slot, then blanked in the list. */
export interface ProfileHeaderSource {
  readonly all: readonly Profile[];
  /** Empties these headers' values where they still are these values (under the list's lock). */
  blankHeaderValues(id: string, moved: Readonly<Record<string, string>>): Promise<unknown>;
}

/** Moves every profile's header values out of the profile list; returns how many profiles had some. */
export async function moveProfileHeaders(store: ProfileHeaderSource, vault: HeaderVault): Promise<number> {
  let moved = 0;
  for (const profile of store.all) {
    // Default's headers are the setting's (moveSettingHeaders).
    if (profile.id === DEFAULT_PROFILE_ID) continue;
    const values = filledValues(profile.headers);
    const origin = profileOrigin(profile);
    if (Object.keys(values).length === 0 || !origin) continue;
    if (!(await keepHeaderValues(vault, keySlot(profile.id, origin), values))) continue;
    await store.blankHeaderValues(profile.id, values);
    moved++;
  }
  return moved;
}

/** The user-level modelGateway.requestHeaders setting (the Default profile's headers). */
export interface HeaderSetting {
  read(): unknown;
  write(value: Record<string, unknown>): PromiseLike<void>;
}

/**
 * Moves the setting's header values into the Default profile's slot on its origin (none without a URL: they stay
 * where they are, and are sent as before). Entries the setting refuses (reserved names, bad values) are left as
 * they are. Returns the names moved.
 */
export async function moveSettingHeaders(setting: HeaderSetting, origin: string | undefined, vault: HeaderVault): Promise<string[]> {
  const values = filledValues(readHeaders(setting.read(), []));
  if (!origin || Object.keys(values).length === 0) return [];
  if (!(await keepHeaderValues(vault, keySlot(DEFAULT_PROFILE_ID, origin), values))) return [];
  // Read again: the user may have changed the setting meanwhile; only a value still the one stored is blanked.
  const now = setting.read();
  if (!isRecord(now)) return [];
  const moved = Object.keys(values).filter((name) => now[name] === values[name]);
  if (moved.length === 0) return [];
  await setting.write({ ...now, ...Object.fromEntries(moved.map((name) => [name, ''])) });
  return moved;
}
