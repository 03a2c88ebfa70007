// Profiles: several gateways and keys side by side. A profile names a base URL, extra headers, default models per
// kind and an optional monthly budget; its key lives in SecretStorage under a slot of its own (keySlot), so a key
// goes only to its profile's origin and two profiles on one origin keep different keys. Profiles are kept at user
// level (a file in the global storage folder), never in anything a cloned repository can change.
//
// The "Default" profile is what the user settings `modelGateway.baseUrl` and `modelGateway.requestHeaders`
// describe, and its key keeps the slot keys had before profiles (one per origin): the update moves nothing, asks
// nothing, and chats, jobs and media without a profile field belong to it.
import { isRecord } from '../util/records';
import { parseBaseUrl, readHeaders, type GatewaySettings, type Settings } from './settings';

export const DEFAULT_PROFILE_ID = 'default';
export const DEFAULT_PROFILE_NAME = 'Default';
export const MODEL_KINDS = ['chat', 'image', 'video', 'speech'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

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
  /** An imported profile's fields this version does not know, kept. */
  unknown?: Readonly<Record<string, unknown>>;
}

const KNOWN = new Set(['id', 'name', 'baseUrl', 'headers', 'models', 'monthlyBudget']);
const MAX_NAME = 60;

export function isDefaultProfile(profile: Pick<Profile, 'id'> | string | undefined): boolean {
  const id = typeof profile === 'string' ? profile : profile?.id;
  return id === undefined || id === DEFAULT_PROFILE_ID;
}

/** The Default profile as the update creates it: its URL and headers are the user settings'. */
export function defaultProfile(): Profile {
  return { id: DEFAULT_PROFILE_ID, name: DEFAULT_PROFILE_NAME, baseUrl: '', headers: {}, models: {} };
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
  const match = /^profile\/[A-Za-z0-9_-]{1,64}\/(.{1,2048})$/.exec(slot);
  return match ? match[1] : slot;
}

/** The gateway a profile reaches: its URL and headers, with the user settings' timeouts and paths. */
export function profileGateway(profile: Profile | undefined, gateway: GatewaySettings): GatewaySettings {
  if (!profile || isDefaultProfile(profile)) return gateway;
  const parsed = parseBaseUrl(profile.baseUrl);
  const url = parsed && !('problem' in parsed) ? parsed : undefined;
  return { ...gateway, baseUrl: url?.baseUrl, origin: url?.origin, headers: { ...profile.headers } };
}

/** The settings as the profile sees them: its gateway and its default models over the user settings. */
export function settingsForProfile(settings: Settings, profile: Profile | undefined): Settings {
  if (!profile) return settings;
  const { chat, image, video, speech } = profile.models;
  return {
    ...settings,
    gateway: profileGateway(profile, settings.gateway),
    chat: chat ? { ...settings.chat, model: chat } : settings.chat,
    video: video ? { ...settings.video, model: video } : settings.video,
    media: image || speech ? { ...settings.media, imageModel: image ?? settings.media.imageModel, speechModel: speech ?? settings.media.speechModel } : settings.media,
  };
}

/** A stored profile, read leniently (bad fields dropped), or undefined when it has no usable id and name. */
export function readProfile(raw: unknown): Profile | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(raw.id) || typeof raw.name !== 'string' || !raw.name.trim()) return undefined;
  const unknown = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN.has(key)));
  const models = readModels(raw.models);
  const budget = typeof raw.monthlyBudget === 'number' && Number.isFinite(raw.monthlyBudget) && raw.monthlyBudget >= 0 ? raw.monthlyBudget : undefined;
  return {
    id: raw.id,
    name: raw.name.trim().slice(0, MAX_NAME),
    baseUrl: typeof raw.baseUrl === 'string' ? raw.baseUrl : '',
    headers: readHeaders(raw.headers, []),
    models,
    ...(budget !== undefined && { monthlyBudget: budget }),
    ...(Object.keys(unknown).length > 0 && { unknown }),
  };
}

/** The profile as stored: known fields, then what a newer version added, untouched. */
export function writeProfile(profile: Profile): Record<string, unknown> {
  const { unknown, ...known } = profile;
  return { ...unknown, ...known };
}

function readModels(raw: unknown): Partial<Record<ModelKind, string>> {
  const models: Partial<Record<ModelKind, string>> = {};
  if (!isRecord(raw)) return models;
  for (const kind of MODEL_KINDS) {
    const value = raw[kind];
    if (typeof value === 'string' && value.trim() && value.length <= 200) models[kind] = value.trim();
  }
  return models;
}

export type ProfileCheck = { ok: true; fields: Omit<Profile, 'id' | 'unknown'> } | { ok: false; problem: string };

/**
 * Checks what a user or script gave for a profile, with a message that says what to change: a name no other
 * profile has (case-insensitive), an http(s) URL (the Default profile's lives in settings), headers that do not
 * set what the extension sends itself (Authorization, Host, Cookie…).
 */
export function checkProfileInput(input: ProfileInput, others: readonly Profile[], id?: string): ProfileCheck {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) return { ok: false, problem: 'A profile needs a name.' };
  if (name.length > MAX_NAME) return { ok: false, problem: `A profile name has at most ${MAX_NAME} characters.` };
  if (/[\x00-\x1f]/.test(name)) return { ok: false, problem: 'A profile name cannot contain line breaks or control characters.' };
  const clash = others.find((p) => p.id !== id && p.name.toLowerCase() === name.toLowerCase());
  if (clash) return { ok: false, problem: `A profile named "${clash.name}" exists already; choose another name.` };
  let baseUrl = '';
  if (!isDefaultProfile(id ?? '-')) {
    const parsed = parseBaseUrl(input.baseUrl, 'The profile\'s URL');
    if (!parsed) return { ok: false, problem: 'A profile needs the gateway\'s URL, such as https://gateway.example.com/v1.' };
    if ('problem' in parsed) return { ok: false, problem: parsed.problem };
    baseUrl = parsed.baseUrl;
  }
  const problems: string[] = [];
  const headers = readHeaders(input.headers ?? {}, problems, `the headers of profile "${name}"`);
  if (problems.length > 0) return { ok: false, problem: problems[0].replace(/; ignored\.$/, '.') };
  const budget = input.monthlyBudget;
  if (budget !== undefined && budget !== null && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) return { ok: false, problem: 'A monthly budget is a number of 0 or more.' };
  return { ok: true, fields: { name, baseUrl, headers, models: readModels(input.models), ...(typeof budget === 'number' && { monthlyBudget: budget }) } };
}

/** A name not yet taken: "Work", "Work (2)", "Work (3)"… */
export function freeName(wanted: string, others: readonly Profile[]): string {
  const taken = new Set(others.map((p) => p.name.toLowerCase()));
  const base = wanted.trim().slice(0, MAX_NAME - 5) || 'Profile';
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`.toLowerCase())) return `${base} (${n})`;
}

/** Finds a profile by id, else by name (case-insensitive), as scripts may give either. */
export function findProfile(profiles: readonly Profile[], idOrName: unknown): Profile | undefined {
  if (typeof idOrName !== 'string' || !idOrName.trim()) return undefined;
  const wanted = idOrName.trim();
  return profiles.find((p) => p.id === wanted) ?? profiles.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
}
