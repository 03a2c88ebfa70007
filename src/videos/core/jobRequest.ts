// A job's request and its record: the record a submission starts from, and the request a resubmission sends again.
// Pure; loaded with the submission (jobPolling's file), not at activation.
import type { ErrorFields } from '../../gateway/errors';
import type { VideoRequest } from '../../gateway/types';
import { isDefaultProfile } from '../../settings/profile';
import type { VideoJobRecord } from './jobRecord';

const SOURCE_VIDEO_KEYS = ['video_url', 'source_video_url', 'video', 'videoUrl'];

export function recordFromRequest(key: string, origin: string, request: VideoRequest, now: number, profile?: string): VideoJobRecord {
  const { prompt, ...inputExtra } = request.input;
  const { resolution, duration, ...extra } = request.parameters ?? {};
  const sourceKey = SOURCE_VIDEO_KEYS.find((name) => typeof inputExtra[name] === 'string');
  const record: VideoJobRecord = {
    key,
    origin,
    ...(profile && !isDefaultProfile(profile) && { profile }),
    model: request.model,
    prompt,
    parameters: {},
    status: '',
    localState: 'submitting',
    resultUrls: [],
    createdAt: now,
    updatedAt: now,
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

/** Whether a failed submission may have created the job on the gateway anyway. */
export function mayHaveReachedGateway(error: ErrorFields): boolean {
  return error.outcomeUnknown === true || (error.status !== undefined && error.status >= 500);
}

