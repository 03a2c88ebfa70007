// Builds the real client for the connection, with request logging (method, path, status, duration, request id;
// never the key).
import type { Logger } from '../util/logger';
import type { ClientFactory } from './connection';


export function createGatewayClient(log: Logger): ClientFactory {
  return (config) => {
    // Required here, not imported at the top, so nothing of the client's transport loads at activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GatewayClient } = require('./client') as typeof import('./client');
    return new GatewayClient({ ...config, logger: log });
  };
}
