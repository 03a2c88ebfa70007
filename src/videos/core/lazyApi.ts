// The job store's API for an origin, through the connection (which builds its client and reads the key lazily).
import type { GatewayConnection } from '../../gateway/connection';
import type { GatewayApi } from '../../gateway/types';
import { MissingApiKeyError } from './errors';

/**
 * The store asks for an origin's API synchronously; the connection builds its client (and reads the key) lazily.
 * Each call waits for the connection and fails like a 401 when the origin has no key or is no longer configured,
 * so the store's polling of that origin waits for a key instead of failing the job.
 */
export function lazyApiFor(connection: Pick<GatewayConnection, 'apiFor'>): (origin: string) => GatewayApi {
  return (origin) => {
    const api = async () => {
      const resolved = await connection.apiFor(origin);
      if (!resolved) throw new MissingApiKeyError(origin);
      return resolved;
    };
    return {
      listModels: async (options) => (await api()).listModels(options),
      chat: async (request, options) => (await api()).chat(request, options),
      submitVideo: async (request, options) => (await api()).submitVideo(request, options),
      getVideo: async (id, options) => (await api()).getVideo(id, options),
      generateImage: async (request, options) => (await api()).generateImage(request, options),
      synthesizeSpeech: async (request, options) => (await api()).synthesizeSpeech(request, options),
    };
  };
}
