// How the poller reads a failure (errors are read by shape, through gateway/errors.ts's readError).
import type { ErrorFields } from '../../gateway/errors';

export type PollErrorKind = 'not_found' | 'auth' | 'rate_limited' | 'aborted' | 'transient';

export function classifyPollError(error: ErrorFields): PollErrorKind {
  if (error.status === 404) return 'not_found';
  if (error.status === 401 || error.status === 403) return 'auth';
  if (error.status === 429) return 'rate_limited';
  if (error.code === 'aborted') return 'aborted';
  return 'transient';
}

/** Thrown by the store's poller when there is no API key for an origin; handled like a 401 without a request. */
export class MissingApiKeyError extends Error {
  readonly status = 401;
  readonly code = 'missing_api_key';
  constructor(readonly origin: string) {
    super(`No API key for ${origin}`);
  }
}

/**
 * The job's record could not be written before its request was sent (a read-only folder, a full disk): nothing was
 * sent, since a paid job that lives only in memory would be lost with the window.
 */
export class JobStorageError extends Error {
  override readonly name = 'JobStorageError';
  readonly code = 'storage';
  constructor(
    readonly folder: string,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Not sent: could not save the video job in ${folder} (${reason}). Make it writable or free disk space, then try again.`, { cause });
  }
}
