// Profiles to and from JSON, for setting up a team. An export holds names, URLs, headers, default models, budgets
// and video dialects, never a key (keys stay in SecretStorage). An import never replaces a profile: a name already
// taken is either skipped or imported as a copy under a free name, as the user chooses.
import { isRecord } from '../../util/records';
import { isDefaultProfile, type Profile, type ProfileInput } from '../../settings/profile';
import { boundedUnknown, freeName, writeProfile } from '../../settings/profileCheck';
import { headerNames } from './headerSecrets';

export const EXPORT_FORMAT = 'modelGateway.profiles';
const MAX_IMPORT_BYTES = 1024 * 1024;
const MAX_IMPORT_PROFILES = 200;

export const EXPORT_NOTE = 'Keys and header values are not exported: a header value may be a credential (api-key, x-api-key, Helicone-Auth, CF-Access-Client-Secret…). After importing, set each profile\'s key with "Set API Key", and fill in the value of each header listed with an empty value through "Edit Profile".';

/**
 * The export's text. The Default profile's URL and headers are the settings' (given by the caller). Header values
 * are secrets unless proven otherwise: only their names go out, each with an empty value to fill in.
 */
export function exportProfiles(profiles: readonly Profile[], defaultGateway: { baseUrl: string | undefined; headers: Record<string, string> }): string {
  const entries = profiles.map((profile) => {
    const { id: _id, ...rest } = writeProfile(profile);
    const headers = isDefaultProfile(profile) ? defaultGateway.headers : profile.headers;
    const names = headerNames(headers);
    return isDefaultProfile(profile) ? { ...rest, baseUrl: defaultGateway.baseUrl ?? '', headers: names } : { ...rest, headers: names };
  });
  return `${JSON.stringify({ format: EXPORT_FORMAT, version: 1, note: EXPORT_NOTE, profiles: entries }, undefined, 2)}\n`;
}

/** `left`: fields not taken, per profile ("Work: retired, colour"). */
export type ImportPlan = { ok: true; incoming: ProfileInput[]; clashes: string[]; left: string[] } | { ok: false; problem: string };

/** Reads an export; says which names are taken already. Nothing is written here. */
export function planImport(text: string, existing: readonly Profile[]): ImportPlan {
  if (text.length > MAX_IMPORT_BYTES) return { ok: false, problem: 'That file is larger than 1 MB; a profile export is much smaller.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'That file is not JSON; choose a file made by "Export Profiles".' };
  }
  if (!isRecord(value) || value.format !== EXPORT_FORMAT || !Array.isArray(value.profiles)) return { ok: false, problem: 'That file is not a profile export; choose a file made by "Export Profiles".' };
  if (value.profiles.length > MAX_IMPORT_PROFILES) return { ok: false, problem: `That file lists more than ${MAX_IMPORT_PROFILES} profiles.` };
  const incoming: ProfileInput[] = [];
  const left: string[] = [];
  for (const raw of value.profiles) {
    if (!isRecord(raw)) continue;
    // Only the fields an export holds, each checked when added (checkProfileInput); never an id, a key or the
    // retired flag. A newer version's fields are kept within a bound, so no import can grow the list past what
    // the store reads back.
    const { name, baseUrl, headers, models, monthlyBudget, dialect, ...rest } = raw;
    const { kept, dropped } = boundedUnknown(rest);
    const label = typeof name === 'string' && name.trim() ? name.trim().slice(0, 60) : 'A profile';
    const ignored = dropped.filter((field) => field !== 'id');
    if (ignored.length > 0) left.push(`${label}: ${ignored.slice(0, 5).join(', ')}${ignored.length > 5 ? '…' : ''}`);
    // Header values never enter the profile list (they belong in SecretStorage): an imported profile keeps the names,
    // empty, until the user fills them in; a file with values (hand-written, or an older export) keeps them there.
    const names = isRecord(headers) ? headerNames(headers as Record<string, string>) : headers;
    // The dialect is checked with the rest (checkProfileInput): a value this version does not know refuses the profile, saying so.
    incoming.push({ name, baseUrl, headers: names, models, monthlyBudget, dialect, ...(Object.keys(kept).length > 0 && { unknown: kept }) });
  }
  const taken = new Set(existing.map((p) => p.name.toLowerCase()));
  const clashes = incoming.map((p) => (typeof p.name === 'string' ? p.name.trim() : '')).filter((name) => name && taken.has(name.toLowerCase()));
  return { ok: true, incoming, clashes, left };
}

/** What to add: clashing names skipped, or renamed to a free name ("Work (2)"). */
export function resolveImport(incoming: readonly ProfileInput[], existing: readonly Profile[], onClash: 'skip' | 'copy'): ProfileInput[] {
  const names: Profile[] = [...existing];
  const result: ProfileInput[] = [];
  for (const input of incoming) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    const clash = names.some((p) => p.name.toLowerCase() === name.toLowerCase());
    if (clash && onClash === 'skip') continue;
    const finalName = clash ? freeName(name, names) : name;
    result.push({ ...input, name: finalName });
    names.push({ id: `import-${result.length}`, name: finalName, baseUrl: '', headers: {}, models: {} });
  }
  return result;
}
