// Result links of video jobs: which ones may be opened, and when a signed one expires. Pure.
import { checkExternalUrl, type ExternalUrlCheck } from '../../util/externalUrl';

/** Result links follow the extension's one rule for links it opens; an empty one means the job has none. */
export function checkResultUrl(value: unknown): ExternalUrlCheck {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'The job has no result link.' };
  return checkExternalUrl(value);
}

/** YYYYMMDDTHHMMSSZ, as in X-Amz-Date and X-Goog-Date. */
function parseCompactDate(text: string | null): number | undefined {
  const m = text ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text) : null;
  if (!m) return undefined;
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

function parseEpochOrDate(text: string): number | undefined {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n > 1e12 ? n : n * 1000; // seconds unless it is clearly milliseconds
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

/**
 * When a signed result link stops working (epoch ms), read from its query: `expires` / `Expires` (Unix time or a
 * date), `X-Amz-Date` + `X-Amz-Expires`, `X-Goog-Date` + `X-Goog-Expires`, or Azure's `se` (with `sig`).
 * Undefined when the link says nothing about it.
 */
export function urlExpiry(url: string): number | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  const byLowerName = new Map<string, string>();
  for (const [name, value] of params) if (!byLowerName.has(name.toLowerCase())) byLowerName.set(name.toLowerCase(), value);
  const get = (name: string) => byLowerName.get(name) ?? null;

  for (const [dateName, lifetimeName] of [['x-amz-date', 'x-amz-expires'], ['x-goog-date', 'x-goog-expires']]) {
    const lifetime = get(lifetimeName);
    if (lifetime !== null && /^\d+$/.test(lifetime)) {
      const signedAt = parseCompactDate(get(dateName));
      if (signedAt !== undefined) return signedAt + Number(lifetime) * 1000;
    }
  }
  const expires = get('expires');
  if (expires !== null) {
    const at = parseEpochOrDate(expires.trim());
    if (at !== undefined) return at;
  }
  const azureExpiry = get('se');
  if (azureExpiry !== null && get('sig') !== null) {
    const at = Date.parse(azureExpiry);
    if (!Number.isNaN(at)) return at;
  }
  return undefined;
}

