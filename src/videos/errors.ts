// Reads gateway errors by shape (status, code, retryAfterMs, outcomeUnknown) rather than by class, so this module
// works with any GatewayApi implementation, including test fakes.

export interface GatewayErrorLike {
  status?: number;
  code?: string;
  message: string;
  retryAfterMs?: number;
  outcomeUnknown?: boolean;
}

export function readError(error: unknown): GatewayErrorLike {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as Record<string, unknown>;
  return {
    status: typeof e.status === 'number' ? e.status : undefined,
    code: typeof e.code === 'string' ? e.code : typeof e.code === 'number' ? String(e.code) : undefined,
    message: typeof e.message === 'string' ? e.message : String(error),
    retryAfterMs: typeof e.retryAfterMs === 'number' && Number.isFinite(e.retryAfterMs) ? e.retryAfterMs : undefined,
    outcomeUnknown: e.outcomeUnknown === true ? true : undefined,
  };
}

export type PollErrorKind = 'not_found' | 'auth' | 'rate_limited' | 'aborted' | 'transient';

export function classifyPollError(error: GatewayErrorLike): PollErrorKind {
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
