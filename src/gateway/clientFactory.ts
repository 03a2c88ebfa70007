// Builds the real client for the connection, with request logging (method, path, status, duration, request id;
// never the key).
import { lazy } from '../util/lazy';
import type { Logger } from '../util/logger';
import type { ClientFactory } from './connection';

// Required on the first client, not imported at the top, so nothing of the client's transport loads at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const clientModule = lazy(() => require('./client') as typeof import('./client'));

export function createGatewayClient(log: Logger): ClientFactory {
  return (config) => new (clientModule().GatewayClient)({ ...config, logger: log });
}
