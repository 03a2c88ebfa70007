// The stored form of a video job and the pure functions that read and update it.
import type { VideoJob } from '../../gateway/types';
import type { ErrorFields } from '../../gateway/errors';
import { isFinalStatus } from './dialects/status';
import { isRecord, otherMembers } from '../../util/records';
import { DEFAULT_PROFILE_ID, keySlot, type DialectName } from '../../settings/profile';

/**
 * States only this extension knows about:
 * - submitting: the request is on its way; the gateway has not answered yet.
 * - uncertain: the request may have reached the gateway but no answer came back; never resubmitted automatically.
 * - not_found: the gateway answered 404 for the job id; final.
 */
export type LocalState = 'submitting' | 'uncertain' | 'not_found';

/** The version of the stored record this code writes; a file with a higher one was written by a newer version. */
export const JOB_SCHEMA_VERSION = 1;

export interface VideoJobParameters {
  resolution?: string;
  duration?: number;
  /** Other members of the request's `parameters`. */
  extra?: Record<string, unknown>;
  /** Members a newer version stored here, kept as they were. */
  [unknown: string]: unknown;
}

export interface VideoJobError {
  message: string;
  code?: string;
  status?: number;
  /** Members a newer version stored here, kept as they were. */
  [unknown: string]: unknown;
}

export interface VideoJobRecord {
  /** Stable local identity, set before the gateway assigns an id. */
  key: string;
  /** The gateway's job id; undefined while submitting or when the submission is uncertain. */
  id?: string;
  origin: string;
  /** The profile the job was submitted under (absent: Default); it is polled with that profile's key. */
  profile?: string;
  model: string;
  prompt: string;
  parameters: VideoJobParameters;
  /** Other members of the request's `input`, kept so a resubmission sends the same request. */
  inputExtra?: Record<string, unknown>;
  sourceVideoUrl?: string;
  /** The gateway's status string, as sent; '' until the gateway answered. */
  status: string;
  localState?: LocalState;
  error?: VideoJobError;
  resultUrls: string[];
  createdAt: number;
  /** When what the gateway said about the job (or its local state) last changed. */
  updatedAt: number;
  completedAt?: number;
  /** The video dialect the job speaks, resolved from its profile when it was submitted; absent: `spec` (as jobs of earlier versions). */
  dialect?: DialectName;
  /** The profile's base URL when the job was submitted: the dialect's paths are below it, whatever the profile says later. */
  baseUrl?: string;
  /** Where the gateway said to poll the job (`polling_url`), on the profile's own origin. */
  pollUrl?: string;
  /** 0–100, as the gateway last reported it. */
  progress?: number;
  /** When the result links stop working (epoch ms). */
  expiresAt?: number;
  /** The job's cost in USD as the gateway reported it. */
  costUsd?: number;
  /** Result links that answer only with the profile's key (content endpoints on its own origin). */
  keyedUrls?: string[];
  /** A still of the result, where the gateway offers one. */
  thumbnailUrl?: string;
  /** The store that is sending the submission (`<pid>:<instance>`); only set while `localState` is 'submitting'. */
  submitter?: string;
  /** The stored file's schema version when a newer version wrote it (kept: its fields still mean what it meant). */
  schemaVersion?: number;
  /** Top-level members this version does not know, written back unchanged. */
  unknown?: Record<string, unknown>;
}

/** What a dialect's answer adds to its job (dialects/wire.ts's DialectJobExtras, each member checked by the dialect). */
const DIALECT_EXTRAS = ['progress', 'pollUrl', 'expiresAt', 'costUsd', 'keyedUrls', 'thumbnailUrl'] as const;

/**
 * The lane a job is polled in: its profile's key slot on its origin (the origin alone for Default, as before
 * profiles). Jobs of one lane share one poller (one lease) and one key; a switch of profile changes no lane.
 */
export function laneOf(record: Pick<VideoJobRecord, 'origin' | 'profile'>): string {
  return keySlot(record.profile ?? DEFAULT_PROFILE_ID, record.origin);
}

/** The profile a job belongs to, by its id: the one it was submitted under (a record without one: Default's). */
export function jobProfile(record: Pick<VideoJobRecord, 'profile'>): string {
  return record.profile ?? DEFAULT_PROFILE_ID;
}

/**
 * Copies what the gateway said about the job into the record (status as-is, result URLs, error). Returns whether
 * anything changed; `updatedAt` moves only then, so a poll that brings no news leaves the record as it was.
 */
export function applyGatewayJob(record: VideoJobRecord, job: VideoJob, now: number): boolean {
  const before = recordText(record);
  if (job.id) record.id = job.id;
  record.status = typeof job.status === 'string' && job.status !== '' ? job.status : record.status || 'queued';
  delete record.localState;
  delete record.submitter;
  const urls = (job.data ?? []).map((item) => item?.url).filter((url): url is string => typeof url === 'string');
  if (urls.length > 0) record.resultUrls = urls;
  if (job.error && typeof job.error === 'object') {
    record.error = {
      message: typeof job.error.message === 'string' ? job.error.message : 'The gateway reported an error',
      ...(job.error.code !== undefined && { code: String(job.error.code) }),
    };
  }
  if (typeof job.dialect === 'string') for (const name of DIALECT_EXTRAS) if (job[name] !== undefined) (record as unknown as Record<string, unknown>)[name] = job[name];
  if (isFinalStatus(record.status)) record.completedAt ??= now;
  if (recordText(record) === before) return false;
  record.updatedAt = now;
  return true;
}

/** A submission whose outcome is unknown: never resubmitted by itself; the user resubmits it or gives its job id. */
export function markUncertain(record: VideoJobRecord, error: VideoJobRecord['error'], now: number): void {
  record.localState = 'uncertain';
  record.error = error;
  record.updatedAt = now;
  delete record.submitter;
}

export function errorFromGateway(error: ErrorFields): VideoJobError {
  return {
    message: error.message,
    ...(error.code !== undefined && { code: error.code }),
    ...(error.status !== undefined && { status: error.status }),
  };
}

/** Final: the gateway gave a final status, or the job is gone from the gateway. */
export function isFinalRecord(record: VideoJobRecord): boolean {
  if (record.localState === 'not_found') return true;
  if (record.localState) return false;
  return isFinalStatus(record.status);
}

/** A job in the spec's dialect (every job of earlier versions): polled and submitted without a dialect's wire. */
export function isSpecJob(record: Pick<VideoJobRecord, 'dialect'>): boolean {
  return record.dialect === undefined || record.dialect === 'spec';
}

/** Pending: the gateway has the job and it is still running, so it is polled. */
export function isPollable(record: VideoJobRecord): boolean {
  return record.id !== undefined && record.localState === undefined && !isFinalStatus(record.status) && record.unknown?.dialect === undefined;
}

/** Text for the UI: local states in words, otherwise the gateway's status as-is. */
export function displayStatus(record: VideoJobRecord): string {
  switch (record.localState) {
    case 'submitting':
      return 'submitting';
    case 'uncertain':
      return 'submission uncertain';
    case 'not_found':
      return 'not found on the gateway';
    default:
      return record.status || 'unknown';
  }
}

const LOCAL_STATES: readonly LocalState[] = ['submitting', 'uncertain', 'not_found'];

const isString = (value: unknown): value is string => typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** Members of a stored record this version reads, in the order they are written; the rest round-trip in `unknown`. */
const KNOWN_MEMBERS = ['schemaVersion', 'key', 'id', 'origin', 'profile', 'model', 'prompt', 'parameters', 'inputExtra', 'sourceVideoUrl', 'status', 'localState', 'error', 'resultUrls', 'createdAt', 'updatedAt', 'completedAt', 'submitter', 'dialect', 'baseUrl', 'pollUrl', 'progress', 'expiresAt', 'costUsd', 'keyedUrls', 'thumbnailUrl'] as const;
/** What versions before the schema version kept in the record: the poll schedule, which the scheduler alone owns now. */
const RETIRED_MEMBERS = ['nextPollAt', 'pollCount', 'lastPolledAt'];

/** The schema version a stored value declares (1 when it declares none, as files of earlier versions). */
export function storedSchemaVersion(value: Record<string, unknown>): number {
  const version = value.schemaVersion;
  return typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : 1;
}

/**
 * A well-formed record built from what storage held (a file another window, an older or a newer version wrote), or
 * undefined when a required field is missing. Members this version does not know are kept and written back as
 * they were, except the poll schedule of versions before the schema version.
 */
export function recordFromStored(value: unknown): VideoJobRecord | undefined {
  if (!isRecord(value)) return undefined;
  const { key, origin, model, prompt, status, createdAt, resultUrls, parameters } = value;
  if (!isString(key) || !isString(origin) || !isString(model) || !isString(prompt) || !isString(status) || !isTime(createdAt)) return undefined;
  if (!Array.isArray(resultUrls) || !isRecord(parameters)) return undefined;
  const version = storedSchemaVersion(value);
  const record: VideoJobRecord = {
    key,
    origin,
    model,
    prompt,
    parameters: otherMembers(parameters, ['resolution', 'duration', 'extra']),
    status,
    resultUrls: resultUrls.filter(isString),
    createdAt,
    updatedAt: isTime(value.updatedAt) ? value.updatedAt : createdAt,
  };
  if (isString(value.id)) record.id = value.id;
  if (isString(parameters.resolution)) record.parameters.resolution = parameters.resolution;
  if (typeof parameters.duration === 'number') record.parameters.duration = parameters.duration;
  if (isRecord(parameters.extra)) record.parameters.extra = parameters.extra;
  if (isRecord(value.inputExtra)) record.inputExtra = value.inputExtra;
  if (isString(value.sourceVideoUrl)) record.sourceVideoUrl = value.sourceVideoUrl;
  if (isString(value.profile)) record.profile = value.profile;
  if (LOCAL_STATES.includes(value.localState as LocalState)) record.localState = value.localState as LocalState;
  if (isRecord(value.error) && isString(value.error.message)) {
    record.error = { ...otherMembers(value.error, ['message', 'code', 'status']), message: value.error.message };
    if (isString(value.error.code)) record.error.code = value.error.code;
    if (typeof value.error.status === 'number') record.error.status = value.error.status;
  }
  if (isTime(value.completedAt)) record.completedAt = value.completedAt;
  readDialectMembers(record, value);
  if (record.localState === 'submitting' && isString(value.submitter)) record.submitter = value.submitter;
  if (version > JOB_SCHEMA_VERSION) record.schemaVersion = version;
  const unknown = otherMembers(value, [...KNOWN_MEMBERS, ...(version <= 1 ? RETIRED_MEMBERS : [])]);
  // A dialect a newer version speaks: kept as written, and the job is not polled in a dialect it is not in.
  if (value.dialect !== undefined && record.dialect === undefined) unknown.dialect = value.dialect;
  if (Object.keys(unknown).length > 0) record.unknown = unknown;
  return record;
}

/** The dialects this version speaks: typed by DialectName, so it has exactly profileCheck's DIALECT_NAMES (kept apart from them: activation loads this file, not profileCheck). */
const SPOKEN: Readonly<Record<DialectName, true>> = { spec: true, openai: true, openrouter: true, xai: true, dashscope: true };

/** The dialect's members of a stored record; a dialect this version does not know stays in `unknown` (read as spec). */
function readDialectMembers(record: VideoJobRecord, value: Record<string, unknown>): void {
  if (typeof value.dialect === 'string' && Object.hasOwn(SPOKEN, value.dialect)) record.dialect = value.dialect as DialectName;
  for (const name of ['baseUrl', 'pollUrl', 'thumbnailUrl'] as const) if (isString(value[name])) record[name] = value[name];
  for (const name of ['expiresAt', 'costUsd', 'progress'] as const) if (isTime(value[name])) record[name] = value[name];
  if (Array.isArray(value.keyedUrls)) record.keyedUrls = value.keyedUrls.filter(isString);
}

/** The record as stored, members in a fixed order (unknown ones last): equal records give equal text. */
export function recordText(record: VideoJobRecord): string {
  const members: Record<string, unknown> = { ...record, schemaVersion: record.schemaVersion ?? JOB_SCHEMA_VERSION };
  return JSON.stringify({ ...Object.fromEntries(KNOWN_MEMBERS.map((name) => [name, members[name]])), ...record.unknown });
}

/** A copy sharing nothing mutable with the original (cheaper than structuredClone, which showed in the bench). */
export function cloneRecord(record: VideoJobRecord): VideoJobRecord {
  const copy: VideoJobRecord = { ...record, parameters: { ...record.parameters }, resultUrls: [...record.resultUrls] };
  if (record.keyedUrls) copy.keyedUrls = [...record.keyedUrls];
  if (record.parameters.extra) copy.parameters.extra = structuredClone(record.parameters.extra);
  if (record.inputExtra) copy.inputExtra = structuredClone(record.inputExtra);
  if (record.error) copy.error = { ...record.error };
  if (record.unknown) copy.unknown = structuredClone(record.unknown);
  return copy;
}
