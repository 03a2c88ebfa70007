// The stored form of a video job and the pure functions that read and update it.
import type { VideoJob, VideoRequest } from '../gateway/types';
import type { ErrorFields } from '../gateway/errors';
import { isFinalStatus } from './status';

/**
 * States only this extension knows about:
 * - submitting: the request is on its way; the gateway has not answered yet.
 * - uncertain: the request may have reached the gateway but no answer came back; never resubmitted automatically.
 * - not_found: the gateway answered 404 for the job id; final.
 */
export type LocalState = 'submitting' | 'uncertain' | 'not_found';

export interface VideoJobParameters {
  resolution?: string;
  duration?: number;
  /** Other members of the request's `parameters`. */
  extra?: Record<string, unknown>;
}

export interface VideoJobError {
  message: string;
  code?: string;
  status?: number;
}

export interface VideoJobRecord {
  /** Stable local identity, set before the gateway assigns an id. */
  key: string;
  /** The gateway's job id; undefined while submitting or when the submission is uncertain. */
  id?: string;
  origin: string;
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
  updatedAt: number;
  completedAt?: number;
  lastPolledAt?: number;
  nextPollAt?: number;
  pollCount: number;
}

const SOURCE_VIDEO_KEYS = ['video_url', 'source_video_url', 'video', 'videoUrl'];

export function recordFromRequest(key: string, origin: string, request: VideoRequest, now: number): VideoJobRecord {
  const { prompt, ...inputExtra } = request.input;
  const { resolution, duration, ...extra } = request.parameters ?? {};
  const sourceKey = SOURCE_VIDEO_KEYS.find((name) => typeof inputExtra[name] === 'string');
  const record: VideoJobRecord = {
    key,
    origin,
    model: request.model,
    prompt,
    parameters: {},
    status: '',
    localState: 'submitting',
    resultUrls: [],
    createdAt: now,
    updatedAt: now,
    pollCount: 0,
  };
  if (resolution !== undefined) record.parameters.resolution = resolution;
  if (duration !== undefined) record.parameters.duration = duration;
  if (Object.keys(extra).length > 0) record.parameters.extra = extra;
  if (Object.keys(inputExtra).length > 0) record.inputExtra = inputExtra;
  if (sourceKey) record.sourceVideoUrl = inputExtra[sourceKey] as string;
  return record;
}

export function requestFromRecord(record: VideoJobRecord): VideoRequest {
  const request: VideoRequest = { model: record.model, input: { ...record.inputExtra, prompt: record.prompt } };
  const { resolution, duration, extra } = record.parameters;
  const parameters = { ...extra, ...(resolution !== undefined && { resolution }), ...(duration !== undefined && { duration }) };
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

/** Copies what the gateway said about the job into the record (status as-is, result URLs, error). */
export function applyGatewayJob(record: VideoJobRecord, job: VideoJob, now: number): void {
  if (job.id) record.id = job.id;
  record.status = typeof job.status === 'string' && job.status !== '' ? job.status : record.status || 'queued';
  delete record.localState;
  const urls = (job.data ?? []).map((item) => item?.url).filter((url): url is string => typeof url === 'string');
  if (urls.length > 0) record.resultUrls = urls;
  if (job.error && typeof job.error === 'object') {
    record.error = {
      message: typeof job.error.message === 'string' ? job.error.message : 'The gateway reported an error',
      ...(job.error.code !== undefined && { code: String(job.error.code) }),
    };
  }
  if (isFinalStatus(record.status)) {
    record.completedAt ??= now;
    delete record.nextPollAt;
  }
  record.updatedAt = now;
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

/** Pending: the gateway has the job and it is still running, so it is polled. */
export function isPollable(record: VideoJobRecord): boolean {
  return record.id !== undefined && record.localState === undefined && !isFinalStatus(record.status);
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

/** Keeps only well-formed records from storage, so a damaged entry cannot break the whole list. */
export function isStoredRecord(value: unknown): value is VideoJobRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Partial<VideoJobRecord>;
  return (
    typeof r.key === 'string' &&
    typeof r.origin === 'string' &&
    typeof r.model === 'string' &&
    typeof r.prompt === 'string' &&
    typeof r.status === 'string' &&
    typeof r.createdAt === 'number' &&
    Array.isArray(r.resultUrls) &&
    typeof r.parameters === 'object' &&
    r.parameters !== null
  );
}
