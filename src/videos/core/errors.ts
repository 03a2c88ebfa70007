// How the poller reads a failure: by its kind in the one vocabulary (ui/core/errorAdvice.ts's failureKind), so a
// status check's 403 is the same failure as a chat's.
import type { ErrorFields } from '../../gateway/errors';
import { adviceFor, failureKind, type ErrorAdvice } from '../../ui/core/errorAdvice';

export type PollErrorKind = 'not_found' | 'auth' | 'rate_limited' | 'aborted' | 'transient';

export function classifyPollError(error: ErrorFields): PollErrorKind {
  switch (failureKind(error)) {
    case 'not_found':
      return 'not_found';
    case 'auth':
    case 'forbidden':
      return 'auth';
    case 'rate_limit':
      return 'rate_limited';
    case 'aborted':
      return 'aborted';
    default:
      return 'transient';
  }
}

/** Polling of `origin` waits for a key after `refusal`: said the same in the view, its notification and Refresh All. */
export function pausedForKey(refusal: ErrorFields, origin: string): ErrorAdvice {
  return adviceFor(refusal, { origin, retriesAutomatically: true, paused: 'Video status checks' });
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
