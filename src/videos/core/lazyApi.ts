// The job store's API for an origin, through the connection (which builds its client and reads the key lazily).
import type { GatewayConnection } from '../../gateway/connection';
import { forwardingApi, invoke } from '../../gateway/apiForwarding';
import type { GatewayApi } from '../../gateway/types';
import { MissingApiKeyError } from './errors';

/**
 * The store asks for an origin's API synchronously; the connection builds its client (and reads the key) lazily.
 * Each call waits for the connection and fails like a 401 when the origin has no key or is no longer configured,
 * so the store's polling of that origin waits for a key instead of failing the job.
 */
export function lazyApiFor(connection: Pick<GatewayConnection, 'apiFor'>): (origin: string) => GatewayApi {
  return (origin) =>
    forwardingApi(async (method, args) => {
      const resolved = await connection.apiFor(origin);
      if (!resolved) throw new MissingApiKeyError(origin);
      return invoke(resolved, method, args);
    });
}
