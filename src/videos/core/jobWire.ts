// A job's requests in its own dialect: the submission and the poll as the record's dialect builds them (spec jobs
// go as they always did, without a wire). Loaded on the first job of another dialect, never at activation. Pure.
import type { VideoCallOptions, VideoRequest } from '../../gateway/types';
import { dialectOf, pollWire, submitWire, type DialectContext, type VideoAsk } from './dialects';

export { resolveDialect } from './dialects';
import type { VideoJobRecord } from './jobRecord';
import { isRecord } from '../../util/records';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The ask behind a request as the job store keeps it: the spec's members, and the aspect and first frame where given. */
export function askOf(request: VideoRequest): VideoAsk {
  const { input, parameters = {} } = request;
  const ask: VideoAsk = { model: request.model, prompt: input.prompt };
  if (typeof parameters.duration === 'number') ask.durationSeconds = parameters.duration;
  const resolution = text(parameters.resolution) ?? text(parameters.size);
  if (resolution) ask.resolution = resolution;
  const aspect = text(parameters.aspect_ratio);
  if (aspect) ask.aspectRatio = aspect;
  const frame = text(input.first_frame) ?? text(input.img_url);
  if (frame) ask.firstFrame = frame;
  return ask;
}

function contextOf(record: VideoJobRecord, now: number): DialectContext {
  return { baseUrl: record.baseUrl ?? record.origin, now };
}

/** The submission's options: the dialect's wire, or none for a spec job. Throws DialectError when the ask cannot be said. */
export function submitOptions(record: VideoJobRecord, request: VideoRequest, now: number): VideoCallOptions {
  if (!record.dialect || record.dialect === 'spec') return {};
  return { wire: submitWire(dialectOf(record.dialect), askOf(request), contextOf(record, now)) };
}

/** The options that cancel (delete) the job on the gateway, or undefined where its dialect has no way to. */
export function removeOptions(record: VideoJobRecord, id: string, now: number): VideoCallOptions | undefined {
  const dialect = dialectOf(record.dialect ?? 'spec');
  const request = dialect.remove?.(id, contextOf(record, now));
  if (!request) return undefined;
  // The answer is the deleted job, or a note that it is gone: either way the job has ended here.
  return { wire: { method: 'DELETE', url: request.url, headers: request.headers, read: () => ({ id, status: 'cancelled' }) } };
}

/** A poll's options: the dialect's wire (its `polling_url` when the gateway gave one), or none for a spec job. */
export function pollOptions(record: VideoJobRecord, id: string, now: number): VideoCallOptions {
  if (!record.dialect || record.dialect === 'spec') return {};
  const wire = pollWire(dialectOf(record.dialect), id, contextOf(record, now), record.pollUrl);
  // xAI's answer to a poll may leave out the request_id it was asked about: the job is the one polled. The model
  // goes with the answer, for the ledger's record of a job that ends with its cost.
  const read = (body: unknown) => wire.read(record.dialect === 'xai' && isRecord(body) && body.request_id === undefined ? { ...body, request_id: id } : body);
  return { wire: { ...wire, read: (body) => ({ ...read(body), model: record.model }) } };
}

