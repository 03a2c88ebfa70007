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
  /** Tokens per window (a request costs its body's length / 4, at least 1); no token budget when absent. */
  tokens?: number;
  /** Only requests for this model count, and only their answers state the budget (OpenAI and Groq count per model). */
  model?: string;
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

interface Spent {
  at: number;
  tokens: number;
}

/** A wait as Go's time.Duration prints it, as OpenAI-style gateways send resets: `6m0s`, `20s`, `1.5s`, `100ms`. */
export function goDuration(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const hours = Math.floor(whole / 3_600_000);
  const minutes = Math.floor((whole % 3_600_000) / 60_000);
  const seconds = Number(((whole % 60_000) / 1000).toFixed(3));
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

/**
 * Sliding window per key on the injected clock; rejected requests do not use up the window. Every answer says
 * the budget in `x-ratelimit-*` headers, each reset being when the oldest request in the window leaves it.
 */
export class RateLimiter {
  private readonly history = new Map<string, Spent[]>();

  constructor(
    private limit: RateLimit | null,
    private readonly now: () => number,
  ) {}

  setLimit(limit: RateLimit | null): void {
    this.limit = limit;
    this.history.clear();
  }

  /** Records the request (costing `tokens`) and returns undefined, or returns the 429 to send, with the budget headers. */
  admit(key: string, tokens = 1, model?: string): SimError | undefined {
    if (!this.limit || !this.applies(model)) return undefined;
    const now = this.now();
    const { requests, windowMs } = this.limit;
    const recent = this.recent(key, now);
    const cost = Math.max(1, Math.ceil(tokens));
    const tokensUsed = recent.reduce((sum, s) => sum + s.tokens, 0);
    const overTokens = this.limit.tokens !== undefined && recent.length > 0 && tokensUsed + cost > this.limit.tokens;
    if (recent.length >= requests || overTokens) {
      const waitMs = recent[0].at + windowMs - now;
      const what = overTokens ? `${this.limit.tokens} tokens` : `${requests} requests`;
      const error = rateLimitedError(waitMs / 1000, `Rate limit of ${what} per ${windowMs} ms exceeded for this key`);
      return { ...error, headers: { ...error.headers, ...this.headers(key) } };
    }
    recent.push({ at: now, tokens: cost });
    return undefined;
  }

  headers(key: string, model?: string): Record<string, string> {
    if (!this.limit || !this.applies(model)) return {};
    const now = this.now();
    const recent = this.recent(key, now);
    const resetIn = recent.length > 0 ? goDuration(recent[0].at + this.limit.windowMs - now) : '0s';
    const headers: Record<string, string> = {
      'x-ratelimit-limit-requests': String(this.limit.requests),
      'x-ratelimit-remaining-requests': String(Math.max(0, this.limit.requests - recent.length)),
      'x-ratelimit-reset-requests': resetIn,
    };
    if (this.limit.tokens !== undefined) {
      const used = recent.reduce((sum, s) => sum + s.tokens, 0);
      headers['x-ratelimit-limit-tokens'] = String(this.limit.tokens);
      headers['x-ratelimit-remaining-tokens'] = String(Math.max(0, this.limit.tokens - used));
      headers['x-ratelimit-reset-tokens'] = resetIn;
    }
    return headers;
  }

  private applies(model: string | undefined): boolean {
    return this.limit !== null && (this.limit.model === undefined || this.limit.model === model);
  }

  /** The key's requests still in the window (kept in place, oldest first). */
  private recent(key: string, now: number): Spent[] {
    const windowMs = this.limit?.windowMs ?? 0;
    const recent = (this.history.get(key) ?? []).filter((s) => s.at > now - windowMs);
    this.history.set(key, recent);
    return recent;
  }
}
