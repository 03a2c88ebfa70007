// API keys (valid, disabled, model-restricted), bearer-token checks and per-key rate limits.
import { randomBytes } from 'node:crypto';
import type { SimError } from './errors';

export type KeyKind = 'valid' | 'disabled' | 'restricted';

export interface SimKeys {
  valid: string;
  disabled: string;
  restricted: string;
}

export interface RateLimit {
  requests: number;
  windowMs: number;
}

export const RESTRICTED_KEY_MODELS: readonly string[] = ['model-k3'];

export function randomKey(label: string): string {
  return `sk-sim-${label}${randomBytes(16).toString('hex')}`;
}

export function makeKeys(valid: string | undefined): SimKeys {
  return { valid: valid ?? randomKey(''), disabled: randomKey('disabled-'), restricted: randomKey('restricted-') };
}

/** The spec's sample body, byte for byte, for a request without credentials. */
export const MISSING_KEY_ERROR: SimError = { status: 401, code: 'unauthorized', message: 'unauthorized' };

export type AuthResult = { ok: true; key: string; kind: KeyKind } | { ok: false; error: SimError };

export function authenticate(header: string | undefined, keys: SimKeys): AuthResult {
  if (header === undefined || header.trim() === '') return { ok: false, error: MISSING_KEY_ERROR };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    return {
      ok: false,
      error: { status: 401, code: 'unauthorized', message: "Authorization header must be 'Bearer <API_KEY>'" },
    };
  }
  const key = match[1];
  if (key === keys.valid) return { ok: true, key, kind: 'valid' };
  if (key === keys.restricted) return { ok: true, key, kind: 'restricted' };
  if (key === keys.disabled) return { ok: false, error: { status: 403, code: 'forbidden', message: 'API key is disabled' } };
  return { ok: false, error: { status: 401, code: 'unauthorized', message: 'Invalid API key' } };
}

export function modelAccessError(kind: KeyKind, model: string): SimError | undefined {
  if (kind !== 'restricted' || RESTRICTED_KEY_MODELS.includes(model)) return undefined;
  return { status: 403, code: 'model_access_denied', message: `This key has no access to model ${model}` };
}

export function rateLimitedError(retryAfterSeconds: number, message: string): SimError {
  return {
    status: 429,
    code: 'rate_limited',
    message,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  };
}

/** Sliding window per key on the injected clock; rejected requests do not use up the window. */
export class RateLimiter {
  private readonly history = new Map<string, number[]>();

  constructor(
    private limit: RateLimit | null,
    private readonly now: () => number,
  ) {}

  setLimit(limit: RateLimit | null): void {
    this.limit = limit;
    this.history.clear();
  }

  /** Records the request and returns undefined, or returns the 429 to send. */
  admit(key: string): SimError | undefined {
    if (!this.limit) return undefined;
    const now = this.now();
    const { requests, windowMs } = this.limit;
    const recent = (this.history.get(key) ?? []).filter((t) => t > now - windowMs);
    if (recent.length >= requests) {
      this.history.set(key, recent);
      const waitMs = recent[0] + windowMs - now;
      return rateLimitedError(waitMs / 1000, `Rate limit of ${requests} requests per ${windowMs} ms exceeded for this key`);
    }
    recent.push(now);
    this.history.set(key, recent);
    return undefined;
  }

  headers(key: string): Record<string, string> {
    if (!this.limit) return {};
    const used = this.history.get(key)?.length ?? 0;
    return {
      'x-ratelimit-limit-requests': String(this.limit.requests),
      'x-ratelimit-remaining-requests': String(Math.max(0, this.limit.requests - used)),
    };
  }
}
