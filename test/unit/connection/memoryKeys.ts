// An ApiKeyStore over memory, for the connection tests.
import { ApiKeyStore } from '../../../src/auth/core/apiKeyStore';

export function memoryKeys(): ApiKeyStore {
  const secrets = new Map<string, string>();
  const memento = new Map<string, unknown>();
  return new ApiKeyStore(
    { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    { get: <T>(k: string) => memento.get(k) as T, update: async (k, v) => void memento.set(k, v) },
  );
}
