// Reading, writing and checking profiles (the profile store and the profile commands use these; activation does
// not, so they load with the store, after activation).
import { isRecord } from '../util/records';
import { isDefaultProfile, type DialectName, type DialectSetting, type ModelKind, type Profile, type ProfileInput } from './profile';
import { parseBaseUrl, readHeaders } from './settings';

// Here rather than beside the types in profile.ts: activation loads profile.ts, and these are read only with the store.
export const DIALECT_NAMES: readonly DialectName[] = ['spec', 'openai', 'openrouter', 'xai', 'dashscope'];
export const DIALECT_SETTINGS: readonly DialectSetting[] = ['auto', ...DIALECT_NAMES];

export function isDialectSetting(value: unknown): value is DialectSetting {
  return typeof value === 'string' && (DIALECT_SETTINGS as readonly string[]).includes(value);
}

const KNOWN = new Set(['id', 'name', 'baseUrl', 'headers', 'models', 'monthlyBudget', 'retired']);
const MAX_NAME = 60;
const MAX_URL = 2048;
const MAX_HEADERS = 32;
const MAX_HEADER_VALUE = 8192;
const MAX_BUDGET = 1_000_000;
/** What an imported profile may carry of fields this version does not know: as stored (indented), and how deep. */
export const MAX_UNKNOWN_CHARS = 4096;
const MAX_UNKNOWN_DEPTH = 8;
const MODEL_KINDS: readonly ModelKind[] = ['chat', 'image', 'video', 'speech'];

/** A stored profile, read leniently (bad fields dropped), or undefined when it has no usable id and name. */
export function readProfile(raw: unknown): Profile | undefined {
  if (!isRecord(raw) || typeof raw.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(raw.id) || typeof raw.name !== 'string' || !raw.name.trim()) return undefined;
  // A dialect this version does not know (a newer one's) stays in `unknown`, written back as it was.
  const dialect = isDialectSetting(raw.dialect) ? raw.dialect : undefined;
  const unknown = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN.has(key) && !(key === 'dialect' && dialect !== undefined)));
  const models = readModels(raw.models);
  const budget = typeof raw.monthlyBudget === 'number' && Number.isFinite(raw.monthlyBudget) && raw.monthlyBudget >= 0 ? raw.monthlyBudget : undefined;
  return {
    id: raw.id,
    name: raw.name.trim().slice(0, MAX_NAME),
    baseUrl: typeof raw.baseUrl === 'string' ? raw.baseUrl : '',
    headers: readHeaders(raw.headers, []),
    models,
    ...(budget !== undefined && { monthlyBudget: budget }),
    ...(dialect !== undefined && { dialect }),
    ...(raw.retired === true && { retired: true }),
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
  const clash = others.find((p) => p.id !== id && !p.retired && p.name.toLowerCase() === name.toLowerCase());
  if (clash) return { ok: false, problem: `A profile named "${clash.name}" exists already; choose another name.` };
  let baseUrl = '';
  if (typeof input.baseUrl === 'string' && input.baseUrl.length > MAX_URL) return { ok: false, problem: `A profile's URL has at most ${MAX_URL} characters.` };
  if (!isDefaultProfile(id ?? '-')) {
    const parsed = parseBaseUrl(input.baseUrl, 'The profile\'s URL');
    if (!parsed) return { ok: false, problem: 'A profile needs the gateway\'s URL, such as https://gateway.example.com/v1.' };
    if ('problem' in parsed) return { ok: false, problem: parsed.problem };
    baseUrl = parsed.baseUrl;
  }
  const problems: string[] = [];
  const headers = readHeaders(input.headers ?? {}, problems, `the headers of profile "${name}"`);
  if (problems.length > 0) return { ok: false, problem: problems[0].replace(/; ignored\.$/, '.') };
  if (Object.keys(headers).length > MAX_HEADERS) return { ok: false, problem: `A profile has at most ${MAX_HEADERS} headers.` };
  if (Object.values(headers).some((value) => value.length > MAX_HEADER_VALUE)) return { ok: false, problem: `A header value has at most ${MAX_HEADER_VALUE} characters.` };
  const budget = input.monthlyBudget;
  if (budget !== undefined && budget !== null && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0 || budget > MAX_BUDGET)) return { ok: false, problem: 'A monthly budget is a number from 0 to 1,000,000.' };
  const dialect = input.dialect;
  if (dialect !== undefined && dialect !== null && !isDialectSetting(dialect)) return { ok: false, problem: `A profile's dialect is one of ${DIALECT_SETTINGS.join(', ')}${typeof dialect === 'string' ? `, not ${JSON.stringify(dialect.slice(0, 40))}` : ''}; leave it out for auto.` };
  return {
    ok: true,
    fields: { name, baseUrl, headers, models: readModels(input.models), ...(typeof budget === 'number' && { monthlyBudget: budget }), ...(isDialectSetting(dialect) && { dialect }) },
  };
}

/** A name not yet taken: "Work", "Work (2)", "Work (3)"… */
export function freeName(wanted: string, others: readonly Profile[]): string {
  const taken = new Set(others.map((p) => p.name.toLowerCase()));
  const base = wanted.trim().slice(0, MAX_NAME - 5) || 'Profile';
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`.toLowerCase())) return `${base} (${n})`;
}

/**
 * The fields of an imported profile this version does not know (a newer version's), kept only within a bound: the
 * fields in order while, written as the list stores them, they fit in MAX_UNKNOWN_CHARS and nest at most
 * MAX_UNKNOWN_DEPTH deep; the names of the fields left out. The profile's own fields (id, retired…) are never among them.
 */
export function boundedUnknown(fields: Readonly<Record<string, unknown>>): { kept: Record<string, unknown>; dropped: string[] } {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  let used = 0;
  for (const [key, value] of Object.entries(fields)) {
    if (KNOWN.has(key) || key === 'unknown' || key === 'apiKey' || !withinDepth(value, MAX_UNKNOWN_DEPTH)) {
      dropped.push(key);
      continue;
    }
    // Indented as in the list file, where a profile's fields sit three levels deep.
    const size = JSON.stringify([[{ [key]: value }]], undefined, 2).length;
    if (used + size > MAX_UNKNOWN_CHARS) dropped.push(key);
    else {
      kept[key] = value;
      used += size;
    }
  }
  return { kept, dropped };
}

/** True when the value nests no deeper than `depth` (checked before anything recurses through it unbounded). */
function withinDepth(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth === 0) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.every((item) => withinDepth(item, depth - 1));
}
