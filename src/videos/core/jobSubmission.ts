// Sending a job to the gateway for the job store: the 'submitting' record is on disk before the request leaves, and
// the answer (a job, an uncertain outcome or a refusal) replaces it. Pure: the store hands in what it owns.
import type { GatewayApi, VideoCallOptions, VideoRequest } from '../../gateway/types';
import type { Clock } from '../../util/clock';
import { readError, type ErrorFields } from '../../gateway/errors';
import { JobStorageError } from './errors';
import { applyGatewayJob, cloneRecord, errorFromGateway, isFinalRecord, laneOf, markUncertain, type VideoJobRecord } from './jobRecord';
import { mayHaveReachedGateway } from './jobRequest';
import { lazy } from '../../util/lazy';

// The dialects' wire, only for a dialect that can cancel.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const jobWire = lazy(() => require('./jobWire') as typeof import('./jobWire'));

/** What the store lends a submission: its records, its disk and its way of telling listeners. */
export interface SubmissionHost {
  records: Map<string, VideoJobRecord>;
  clock: Clock;
  owner: string;
  jobsDir: string;
  apiFor(lane: string): GatewayApi;
  /** The options the submission goes with (a dialect's wire), built from the new record. */
  submitOptions(record: VideoJobRecord, request: VideoRequest): VideoCallOptions;
  /** The options a poll of the record's job `id` goes with. */
  pollOptions(record: VideoJobRecord, id: string): VideoCallOptions;
  follow(keys: string[]): void;
  persistOrThrow(key: string): Promise<void>;
  discard(key: string): void;
  forget(keys: string[]): string[];
  commit(keys: string[], finished?: string[]): Promise<void>;
  publish(keys: string[], finished: string[]): void;
}

/**
 * Submits `record` (a fresh 'submitting' one) with `request`. When it cannot be written first, nothing is sent and
 * this rejects with a JobStorageError; a definite refusal removes the record and rethrows; a request that may have
 * reached the gateway without an answer leaves the record 'uncertain'. `replaces` (an uncertain original) goes
 * once the new job is stored.
 */
export async function submitRecord(host: SubmissionHost, record: VideoJobRecord, request: VideoRequest, replaces: string | undefined, surface?: 'tool'): Promise<VideoJobRecord> {
  const api = host.apiFor(laneOf(record));
  record.submitter = host.owner;
  host.records.set(record.key, record);
  host.follow([record.key]);
  let options: VideoCallOptions;
  try {
    options = host.submitOptions(record, request);
    await host.persistOrThrow(record.key);
  } catch (error) {
    // On disk before the request leaves, or not sent at all.
    host.forget([record.key]);
    host.discard(record.key);
    if (error instanceof Error && error.name === 'DialectError') throw error;
    throw new JobStorageError(host.jobsDir, error);
  }
  host.publish([record.key], []);

  let outcome: { job: Awaited<ReturnType<GatewayApi['submitVideo']>> } | { error: ErrorFields; raw: unknown };
  try {
    outcome = { job: await api.submitVideo(request, { ...options, surface: surface ?? 'video' }) };
  } catch (raw) {
    outcome = { error: readError(raw), raw };
  }
  if (host.records.get(record.key) !== record) return cloneRecord(record); // removed meanwhile, here or elsewhere

  const now = host.clock.now();
  if ('job' in outcome && outcome.job.id) {
    applyGatewayJob(record, outcome.job, now);
  } else if ('job' in outcome) {
    markUncertain(record, { message: 'The gateway accepted the job but sent no job id', code: 'bad_response' }, now);
  } else if (mayHaveReachedGateway(outcome.error)) {
    markUncertain(record, errorFromGateway(outcome.error), now);
  } else {
    await host.commit(host.forget([record.key]));
    throw outcome.raw;
  }
  const changed = [record.key, ...(replaces !== undefined ? host.forget([replaces]) : [])];
  await host.commit(changed, isFinalRecord(record) ? [record.key] : []);
  return cloneRecord(record);
}

/**
 * Cancels (deletes) the job on the gateway where its dialect has a way to, and records it as cancelled; otherwise
 * resolves with why not, sending nothing. `confirm` is asked only once a request would go (declined: nothing is sent).
 */
export async function cancelJob(host: SubmissionHost, key: string, now: number, confirm?: () => Promise<boolean>): Promise<string | undefined> {
  const record = host.records.get(key);
  if (!record?.id) return 'the gateway has no id for this job';
  const options = jobWire().removeOptions(record, record.id, now);
  if (!options) return `the ${record.dialect ?? 'spec'} dialect has no way to cancel or delete a job`;
  if (confirm && !(await confirm())) return undefined;
  const job = await host.apiFor(laneOf(record)).getVideo(record.id, options);
  if (host.records.get(key) !== record) return undefined;
  const wasFinal = isFinalRecord(record);
  applyGatewayJob(record, job, host.clock.now());
  await host.commit([key], wasFinal ? [] : [key]);
  return undefined;
}

/** Ties an uncertain submission to the job the gateway did create: fetched once, then tracked like any other. */
export async function adoptJob(host: SubmissionHost, key: string, id: string): Promise<VideoJobRecord> {
  const record = host.records.get(key);
  if (!record) throw new Error(`Unknown video job ${key}`);
  if (record.localState !== 'uncertain') throw new Error('Only a submission whose outcome is unknown can be given a job id');
  const job = await host.apiFor(laneOf(record)).getVideo(id.trim(), host.pollOptions(record, id.trim()));
  if (host.records.get(key) !== record) return cloneRecord(record);
  applyGatewayJob(record, { ...job, id: job.id || id.trim() }, host.clock.now());
  await host.commit([key], isFinalRecord(record) ? [key] : []);
  return cloneRecord(record);
}
