// The video parameters a gateway allows per model, where it lists them: OpenRouter's /videos/models entries
// (`supported_durations`, `supported_resolutions`, `supported_sizes`, `supported_aspect_ratios`) and the same fields in
// LiteLLM's /model/info `model_info` where present. A value outside a listed set is refused before anything is sent
// (the gateway would answer 400 anyway); what is not listed is not checked. Pure.
import { isRecord } from '../../../util/records';
import type { AllowedParameters } from './types';

export type { AllowedParameters } from './types';

export type AllowedByModel = ReadonlyMap<string, AllowedParameters>;

/** The parameters checked against the lists, as the user or a tool asked for them. */
export interface ParameterAsk {
  model: string;
  duration?: number;
  resolution?: string;
  aspectRatio?: string;
}

export type ParameterName = 'duration' | 'resolution' | 'aspectRatio';

/** How many entries of a list are read, and values of one field: enough for any real list, bounded for a hostile one. */
const MAX_ENTRIES = 500;
const MAX_VALUES = 32;
const MAX_VALUE_LENGTH = 24;
const MAX_DURATION_SECONDS = 600;

/**
 * A value outside the set the gateway lists for the model: nothing was sent. Worded for the user in
 * ui/core/errorAdvice.ts (its `code` names it there); `allowed` is the set as the gateway listed it.
 */
export class ParameterNotAllowedError extends Error {
  override readonly name = 'ParameterNotAllowedError';
  readonly code = 'parameter_not_allowed';
  constructor(
    readonly model: string,
    readonly parameter: ParameterName,
    readonly value: string,
    readonly allowed: readonly string[],
  ) {
    super(`Not sent: ${model} takes ${parameter} ${allowed.join(', ')}, not ${value}.`);
  }
}

/** A listed text value, kept only when it is short and plain (it is shown to the user and to a tool's model). */
function textValue(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || text.length > MAX_VALUE_LENGTH) return undefined;
  // One character class, no alternation: linear on any input.
  return /^[A-Za-z0-9:.*_-]+$/.test(text) ? text : undefined;
}

function durationValue(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' && value.length <= 8 ? Number(value.trim().replace(/s$/, '')) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= MAX_DURATION_SECONDS ? n : undefined;
}

function bounded(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_VALUES) : [];
}

function listOf<T>(value: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: T[] = [];
  for (const item of value.slice(0, MAX_VALUES)) {
    const read1 = read(item);
    if (read1 !== undefined && !out.includes(read1)) out.push(read1);
  }
  return out.length > 0 ? out : undefined;
}

/** The allowed values one entry (or its `model_info`) lists, or undefined when it lists none. */
export function allowedOfEntry(entry: unknown): AllowedParameters | undefined {
  if (!isRecord(entry)) return undefined;
  const info = isRecord(entry.model_info) ? entry.model_info : undefined;
  const field = (name: string) => entry[name] ?? info?.[name];
  const durations = listOf(field('supported_durations'), durationValue);
  const resolutions = listOf([...bounded(field('supported_resolutions')), ...bounded(field('supported_sizes'))], textValue);
  const aspectRatios = listOf(field('supported_aspect_ratios'), textValue);
  if (!durations && !resolutions && !aspectRatios) return undefined;
  return { ...(durations && { durations }), ...(resolutions && { resolutions }), ...(aspectRatios && { aspectRatios }) };
}

/** Each model's allowed values from a list's entries (by `id`; /model/info's `model_name` is its id already). */
export function readAllowedParameters(entries: readonly unknown[]): Map<string, AllowedParameters> {
  const byModel = new Map<string, AllowedParameters>();
  for (const entry of entries.slice(0, MAX_ENTRIES)) {
    if (!isRecord(entry)) continue;
    const id = typeof entry.id === 'string' ? entry.id : typeof entry.model_name === 'string' ? entry.model_name : undefined;
    const allowed = id === undefined || id.length > 200 ? undefined : allowedOfEntry(entry);
    if (id !== undefined && allowed && !byModel.has(id)) byModel.set(id, allowed);
  }
  return byModel;
}

/** The first list that names the model wins (OpenRouter's video list before LiteLLM's model info). */
export function allowedFor(lists: readonly AllowedByModel[], model: string): AllowedParameters | undefined {
  for (const list of lists) {
    const allowed = list.get(model);
    if (allowed) return allowed;
  }
  return undefined;
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The listed spelling of a resolution or aspect ratio (`720P` asked, `720p` listed), or undefined when not listed. */
function listed(values: readonly string[], value: string): string | undefined {
  return values.find((v) => sameText(v, value));
}

/** Throws ParameterNotAllowedError for the first asked value outside its listed set; returns the ask with listed spellings. */
export function checkAllowed<T extends ParameterAsk>(ask: T, allowed: AllowedParameters | undefined): T {
  if (!allowed) return ask;
  const refuse = (parameter: ParameterName, value: string | number, set: readonly (string | number)[]) => new ParameterNotAllowedError(ask.model, parameter, String(value), set.map(String));
  if (ask.duration !== undefined && allowed.durations && !allowed.durations.includes(ask.duration)) throw refuse('duration', ask.duration, allowed.durations);
  let next = ask;
  if (ask.resolution !== undefined && allowed.resolutions) {
    const found = listed(allowed.resolutions, ask.resolution);
    if (found === undefined) throw refuse('resolution', ask.resolution, allowed.resolutions);
    next = { ...next, resolution: found };
  }
  if (ask.aspectRatio !== undefined && allowed.aspectRatios) {
    const found = listed(allowed.aspectRatios, ask.aspectRatio);
    if (found === undefined) throw refuse('aspectRatio', ask.aspectRatio, allowed.aspectRatios);
    next = { ...next, aspectRatio: found };
  }
  return next;
}

/**
 * A default (from settings, not asked for) fitted to the lists: a duration outside the set becomes the nearest listed
 * one, a resolution the first listed. Asked values are left for checkAllowed to refuse.
 */
export function fitDefaults<T extends ParameterAsk>(ask: T, allowed: AllowedParameters | undefined, asked: { duration?: boolean; resolution?: boolean }): T {
  if (!allowed) return ask;
  let next = ask;
  const durations = allowed.durations;
  if (!asked.duration && ask.duration !== undefined && durations && !durations.includes(ask.duration)) {
    const wanted = ask.duration;
    next = { ...next, duration: durations.reduce((best, d) => (Math.abs(d - wanted) < Math.abs(best - wanted) ? d : best), durations[0]) };
  }
  if (!asked.resolution && ask.resolution !== undefined && allowed.resolutions && listed(allowed.resolutions, ask.resolution) === undefined) {
    next = { ...next, resolution: allowed.resolutions[0] };
  }
  return next;
}

/**
 * The answers as they may be sent: defaults (not `asked`) fitted to the lists, then every value checked. Throws
 * ParameterNotAllowedError, before anything is sent, for an asked value outside its set.
 */
export function allowedAnswers<T extends ParameterAsk>(answers: T, allowed: AllowedParameters | undefined, asked: { duration?: boolean; resolution?: boolean }): T {
  return checkAllowed(fitDefaults(answers, allowed, asked), allowed);
}
