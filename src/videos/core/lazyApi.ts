// The job store's API for a lane (a profile on an origin, laneOf), through the connections (which build the client
// and read the key lazily).
import type { GatewayConnections } from '../../gateway/connections';
import { forwardingApi, invoke } from '../../gateway/apiForwarding';
import type { GatewayApi } from '../../gateway/types';
import { slotOrigin } from '../../settings/profile';
import { MissingApiKeyError } from './errors';

/**
 * The store asks for a lane's API synchronously; the connections build the client (and read the key) lazily.
 * Each call waits for the connection and fails like a 401 when the lane's profile has no key or no longer reaches
 * that origin, so the store's polling of that lane waits for a key instead of failing the job. A job is always
 * polled with the key of the profile it was submitted under, whichever profile is active.
 */
export function lazyApiFor(connections: Pick<GatewayConnections, 'accessSlot'>): (lane: string) => GatewayApi {
  return (lane) =>
    forwardingApi(async (method, args) => {
      const access = await connections.accessSlot(lane);
      if (!access.ok) throw new MissingApiKeyError(slotOrigin(lane));
      return invoke(access.api, method, args);
    });
}
