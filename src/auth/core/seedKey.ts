// `npm start` hands the local simulator's key to the extension through a file named by an environment
// variable; the extension stores it in SecretStorage like any other key. Only loopback origins are accepted,
// so the hook cannot plant a key for a remote gateway.
import { readFileSync } from 'node:fs';
import { isLoopbackHost } from '../../gateway/proxy';
import type { ApiKeyStore } from './apiKeyStore';

export const SEED_KEY_ENV = 'MODEL_GATEWAY_SEED_KEY_FILE';

function isLoopback(origin: string): boolean {
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Stores the seeded key when one is offered and none is stored yet; returns the origin it was stored for. */
export async function applySeededKey(keys: ApiKeyStore, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const file = env[SEED_KEY_ENV];
  if (!file) return undefined;
  let seed: { origin?: unknown; apiKey?: unknown };
  try {
    seed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof seed.origin !== 'string' || typeof seed.apiKey !== 'string' || !isLoopback(seed.origin)) return undefined;
  if (await keys.has(seed.origin)) return undefined;
  const result = await keys.set(seed.origin, seed.apiKey);
  return result.ok ? seed.origin : undefined;
}
