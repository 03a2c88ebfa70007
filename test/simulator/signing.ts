// Signed result links (`?sig=<hmac>&expires=<unix s>`), shared by video results and generated images: a link works
// without the API key until it expires, and a changed id, signature or expiry is refused.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SimErrorResponse } from './errors';

/** How long a signed result link works when the prompt does not say. */
const URL_LIFETIME_SECONDS = 3600;

/** How long a result's signed link works: `[expires:N]` (N seconds, 1 to 86400) in a prompt, read without a regular expression. */
export function linkLifetimeOf(prompt: string): number {
  const start = prompt.toLowerCase().indexOf('[expires:');
  if (start < 0) return URL_LIFETIME_SECONDS;
  const end = prompt.indexOf(']', start);
  const seconds = Number(prompt.slice(start + '[expires:'.length, end < 0 ? start : end));
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 86_400 ? seconds : URL_LIFETIME_SECONDS;
}

export class UrlSigner {
  private readonly secret = randomBytes(32);

  /** `<origin>/files/<name>?sig=…&expires=…`, for the file of `id`, valid until `expiresSeconds`. */
  url(origin: string, name: string, id: string, expiresSeconds: number): string {
    const expires = String(expiresSeconds);
    return `${origin}/files/${name}?sig=${this.signature(id, expires)}&expires=${expires}`;
  }

  /** Why a link for `id` is refused (403), or undefined when its signature is good and it has not expired at `nowMs`. */
  problem(id: string, sig: string | null, expires: string | null, nowMs: number): SimErrorResponse | undefined {
    if (!sig || !expires || !/^\d+$/.test(expires)) {
      return new SimErrorResponse({ status: 403, code: 'forbidden', message: 'The file URL must carry sig and expires' });
    }
    const expected = Buffer.from(this.signature(id, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return new SimErrorResponse({ status: 403, code: 'forbidden', message: 'The file URL signature does not match' });
    }
    if (Number(expires) * 1000 < nowMs) {
      return new SimErrorResponse({ status: 403, code: 'forbidden', message: 'The file URL has expired' });
    }
    return undefined;
  }

  private signature(id: string, expires: string): string {
    return createHmac('sha256', this.secret).update(`${id}.${expires}`).digest('hex').slice(0, 32);
  }
}
