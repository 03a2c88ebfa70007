// The key's own account on the gateway, as the gateway keeps it (../shared/spec/dialects.md, "The key's own account"):
// LiteLLM's `GET /key/info` ({info:{spend, max_budget}}) and OpenRouter's `GET /key` ({data:{usage, limit,
// limit_remaining}}) and `GET /credits` ({data:{total_credits, total_usage}}). A team sharing one proxy or one account
// sees the server's figures here, not one laptop's ledger. Pure: where to ask, and what an answer says.

/** What the gateway says of the key: every figure in USD, each absent when it did not say (a limit of none: absent). */
export interface KeyAccount {
  gateway: 'LiteLLM' | 'OpenRouter';
  /** Spent with this key (LiteLLM's `spend`, OpenRouter's `usage`). */
  spent?: number;
  /** The key's limit (`max_budget`, `limit`). */
  limit?: number;
  /** What is left of the limit (OpenRouter's `limit_remaining`). */
  remaining?: number;
  /** The account's credits left (OpenRouter's `total_credits - total_usage`). */
  credits?: number;
}

/** Where to ask, by the gateway: OpenRouter by its host or its profile's dialect; any other gateway may be LiteLLM. */
export function keyAccountUrls(baseUrl: string, dialect: string | undefined): { gateway: KeyAccount['gateway']; key: string; credits?: string } {
  const url = new URL(baseUrl);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (url.hostname === 'openrouter.ai' || dialect === 'openrouter') return { gateway: 'OpenRouter', key: `${base}/key`, credits: `${base}/credits` };
  // LiteLLM serves its management routes at the root, whatever the base URL's /v1.
  return { gateway: 'LiteLLM', key: `${url.origin}/key/info` };
}

function amount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** LiteLLM's `/key/info` answer, or undefined when it is not one. */
export function liteLlmKeyAccount(body: unknown): KeyAccount | undefined {
  const info = recordOf(recordOf(body)?.info);
  if (!info || (info.spend === undefined && info.max_budget === undefined)) return undefined;
  const account: KeyAccount = { gateway: 'LiteLLM' };
  const spent = amount(info.spend);
  const limit = amount(info.max_budget);
  if (spent !== undefined) account.spent = spent;
  if (limit !== undefined) account.limit = limit;
  return account;
}

/** OpenRouter's `/key` answer, with its `/credits` answer when there is one; undefined when `/key` is not one. */
export function openRouterKeyAccount(keyBody: unknown, creditsBody?: unknown): KeyAccount | undefined {
  const data = recordOf(recordOf(keyBody)?.data);
  if (!data || data.usage === undefined) return undefined;
  const account: KeyAccount = { gateway: 'OpenRouter' };
  const spent = amount(data.usage);
  const limit = amount(data.limit);
  const remaining = amount(data.limit_remaining);
  if (spent !== undefined) account.spent = spent;
  if (limit !== undefined) account.limit = limit;
  if (remaining !== undefined) account.remaining = remaining;
  const credits = recordOf(recordOf(creditsBody)?.data);
  const total = amount(credits?.total_credits);
  const used = amount(credits?.total_usage);
  if (total !== undefined && used !== undefined) account.credits = Math.max(0, total - used);
  return account;
}
