// Profiles: several gateways and keys side by side. A profile names a base URL, extra headers, default models per
// kind and an optional monthly budget; its key lives in SecretStorage under a slot of its own (keySlot), so a key
// goes only to its profile's origin and two profiles on one origin keep different keys. Profiles are kept at user
// level (a file in the global storage folder), never in anything a cloned repository can change.
//
// The "Default" profile is what the user settings `modelGateway.baseUrl` and `modelGateway.requestHeaders`
// describe, and its key keeps the slot keys had before profiles (one per origin): the update moves nothing, asks
// nothing, and chats, jobs and media without a profile field belong to it.
import { parseBaseUrl, type GatewaySettings, type Settings } from './settings';

export const DEFAULT_PROFILE_ID = 'default';

/** The video dialects a gateway may speak (videos/core/dialects has an adapter for each; the list is profileCheck's). */
export type DialectName = 'spec' | 'openai' | 'openrouter' | 'xai' | 'dashscope';
/** A profile's setting: a dialect, or `auto` (decided from what is known about the gateway). */
export type DialectSetting = 'auto' | DialectName;
export type ModelKind = 'chat' | 'image' | 'video' | 'speech';

export interface Profile {
  readonly id: string;
  readonly name: string;
  /** Empty for the Default profile, whose URL is the `modelGateway.baseUrl` setting. */
  readonly baseUrl: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Default model per kind; absent: the user settings' default. */
  readonly models: Readonly<Partial<Record<ModelKind, string>>>;
  /** In the account's currency; read by the usage ledger. */
  readonly monthlyBudget?: number;
  /** The video dialect its gateway speaks; absent: `auto`. */
  readonly dialect?: DialectSetting;
  /**
   * Deleted while its video jobs still ran: hidden from every list and picker at once, but its key stays until
   * those jobs have finished (they are polled with it), and then the profile and its key are removed.
   */
  readonly retired?: boolean;
  /** Fields a newer version wrote: kept and written back as they were. */
  readonly unknown?: Readonly<Record<string, unknown>>;
}

/** What a user (or a script) gives to create or edit a profile. */
export interface ProfileInput {
  name: unknown;
  baseUrl?: unknown;
  headers?: unknown;
  models?: unknown;
  monthlyBudget?: unknown;
  dialect?: unknown;
  /** An imported profile's fields this version does not know, kept. */
  unknown?: Readonly<Record<string, unknown>>;
}

export function isDefaultProfile(profile: Pick<Profile, 'id'> | string | undefined): boolean {
  const id = typeof profile === 'string' ? profile : profile?.id;
  return id === undefined || id === DEFAULT_PROFILE_ID;
}

/** The Default profile as the update creates it: its URL and headers are the user settings'. */
export function defaultProfile(): Profile {
  return { id: DEFAULT_PROFILE_ID, name: 'Default', baseUrl: '', headers: {}, models: {} };
}

/**
 * The SecretStorage slot of a profile's key on an origin. The Default profile keeps the slot of the keys saved
 * before profiles (the origin alone); any other profile's slot names its id and the origin, so a key follows
 * neither a renamed URL to another host nor another profile on the same host.
 */
export function keySlot(profileId: string, origin: string): string {
  return isDefaultProfile(profileId) ? origin : `profile/${profileId}/${origin}`;
}

/** The origin a slot's key belongs to (for messages). */
export function slotOrigin(slot: string): string {
  // Ids have no '/', so the origin starts after the second one.
  return slot.startsWith('profile/') ? slot.slice(slot.indexOf('/', 8) + 1) : slot;
}

/** The gateway a profile reaches: its URL and headers, with the user settings' timeouts and paths. */
export function profileGateway(profile: Profile | undefined, gateway: GatewaySettings): GatewaySettings {
  if (!profile || isDefaultProfile(profile)) return gateway;
  const parsed = parseBaseUrl(profile.baseUrl);
  const url = parsed && !('problem' in parsed) ? parsed : undefined;
  return { ...gateway, baseUrl: url?.baseUrl, origin: url?.origin, headers: { ...profile.headers } };
}

/** The settings as the profile sees them: its gateway and its default models over the user settings. */
export function settingsForProfile(settings: Settings, profile: Profile): Settings {
  const { chat, image, video, speech } = profile.models;
  return {
    ...settings,
    gateway: profileGateway(profile, settings.gateway),
    chat: { ...settings.chat, model: chat ?? settings.chat.model },
    video: { ...settings.video, model: video ?? settings.video.model },
    media: { ...settings.media, imageModel: image ?? settings.media.imageModel, speechModel: speech ?? settings.media.speechModel },
  };
}

/** Finds a profile by id, else by name (case-insensitive), as scripts may give either. */
export function findProfile(profiles: readonly Profile[], idOrName: unknown): Profile | undefined {
  if (typeof idOrName !== 'string' || !idOrName.trim()) return undefined;
  const wanted = idOrName.trim();
  return profiles.find((p) => p.id === wanted) ?? profiles.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
}
