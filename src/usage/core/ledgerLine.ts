// One record as one line of a ledger file: a JSON object with short keys (200,000 records stay well under 50 MB),
// absent fields left out. A line that does not read back as a whole record is damage, reported, never
// guessed at. Keys this version does not know are kept and written back (a newer version's fields round-trip), and
// so is a value it does not know of a field it knows (a newer modality, outcome or cost source): not damage.
import { isRecord } from '../../util/records';
import { amountOf, countOf, MAX_REPORTED_COST } from './numbers';
import { MODALITIES, type CostSource, type NewerValue, type UsageRecord } from './recordTypes';

const OUTCOMES = ['ok', 'error', 'cancelled'] as const;
const COST_SOURCES: readonly CostSource[] = ['reported', 'estimated', 'unknown'];

type CountField = 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'reasoningTokens' | 'images' | 'imageBytes' | 'speechChars';
const COUNTS: ReadonlyArray<[string, CountField]> = [
  ['i', 'inputTokens'],
  ['o', 'outputTokens'],
  ['c', 'cachedTokens'],
  ['r', 'reasoningTokens'],
  ['n', 'images'],
  ['b', 'imageBytes'],
  ['h', 'speechChars'],
];
const KNOWN = new Set(['id', 't', 'p', 'pi', 'w', 's', 'm', 'k', 'z', 'v', 'a', 'x', '$', 'cs', ...COUNTS.map(([key]) => key)]);
const MAX_TEXT = 512;
/** Longest line the reader takes: anything longer is damage. */
export const MAX_LINE_CHARS = 16 * 1024;

export function encodeRecord(record: UsageRecord): string {
  const line: Record<string, unknown> = { t: record.time, p: record.profile, w: record.workspace, s: record.surface, m: record.model, k: stored(MODALITIES, record.modality) };
  if (record.profileId !== undefined) line.pi = record.profileId;
  if (record.id !== undefined) line.id = record.id;
  for (const [key, field] of COUNTS) if (record[field] !== undefined) line[key] = record[field];
  if (record.imageSize) line.z = record.imageSize;
  if (record.videoSeconds !== undefined) line.v = record.videoSeconds;
  if (record.audioSeconds !== undefined) line.a = record.audioSeconds;
  line.x = stored(OUTCOMES, record.outcome);
  if (record.costSource !== 'unknown' && record.cost !== undefined) line.$ = Number(record.cost.toPrecision(12));
  line.cs = stored(COST_SOURCES, record.costSource);
  if (record.unknown) for (const [key, value] of Object.entries(record.unknown)) if (!KNOWN.has(key)) line[key] = value;
  return JSON.stringify(line);
}

/** Ours by initial; a newer version's value as it was read. */
const stored = (values: readonly string[], value: string): string => (values.includes(value) ? value[0]! : value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= MAX_TEXT ? value : undefined);
/** Longest value of a known field a newer version may have written (they are stored as one letter). */
const MAX_NEWER_VALUE = 16;
/** One of ours by its initial, else a newer version's value as stored: newer records are not damage. */
const byInitial = <T extends string>(values: readonly T[], value: unknown): T | NewerValue | undefined =>
  values.find((v) => v[0] === value) ?? (typeof value === 'string' && value.length > 0 && value.length <= MAX_NEWER_VALUE ? value : undefined);

/** The record a line holds, or undefined when the line is damaged (not JSON, a field missing or out of range). */
export function decodeRecord(line: string): UsageRecord | undefined {
  if (line.length > MAX_LINE_CHARS) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const time = value.t;
  const [profile, workspace, surface, model] = [text(value.p), text(value.w), text(value.s), text(value.m)];
  const modality = byInitial(MODALITIES, value.k);
  const outcome = byInitial(OUTCOMES, value.x);
  const costSource = byInitial(COST_SOURCES, value.cs);
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) return undefined;
  if (profile === undefined || workspace === undefined || surface === undefined || model === undefined || !modality || !outcome || !costSource) return undefined;
  const record: UsageRecord = { time, profile, workspace, surface, model, modality, outcome, costSource };
  if (value.pi !== undefined) {
    const id = text(value.pi);
    if (id === undefined) return undefined;
    record.profileId = id;
  }
  if (value.id !== undefined) {
    const id = text(value.id);
    if (id === undefined) return undefined;
    record.id = id;
  }
  for (const [key, field] of COUNTS) {
    if (value[key] === undefined) continue;
    const count = countOf(value[key], Number.MAX_SAFE_INTEGER);
    if (count === undefined) return undefined;
    record[field] = count;
  }
  if (value.z !== undefined) {
    const size = text(value.z);
    if (size === undefined) return undefined;
    record.imageSize = size;
  }
  if (value.v !== undefined) {
    const seconds = amountOf(value.v, 24 * 3600);
    if (seconds === undefined) return undefined;
    record.videoSeconds = seconds;
  }
  if (value.a !== undefined) {
    const seconds = amountOf(value.a, 24 * 3600);
    if (seconds === undefined) return undefined;
    record.audioSeconds = seconds;
  }
  if (costSource !== 'unknown' && (value.$ !== undefined || COST_SOURCES.includes(costSource as CostSource))) {
    const cost = amountOf(value.$, MAX_REPORTED_COST);
    if (cost === undefined) return undefined;
    record.cost = cost;
  }
  const unknown = Object.entries(value).filter(([key]) => !KNOWN.has(key));
  if (unknown.length) record.unknown = Object.fromEntries(unknown);
  return record;
}
