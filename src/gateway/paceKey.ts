// How the pacing names a gateway origin and key: by a hash of both, so the key itself is never kept. Shared by the
// front activation holds (pacing.ts) and the pacer it loads on first use (pacer.ts).
import { createHash } from 'node:crypto';

/** A gateway origin and key, named by a hash of both: the key itself is never kept. */
export interface PaceKey {
  id: string;
  origin: string;
}

export function paceKeyFor(origin: string, apiKey: string): PaceKey {
  return { id: createHash('sha256').update(`${origin}\n${apiKey}`).digest('hex').slice(0, 32), origin };
}
