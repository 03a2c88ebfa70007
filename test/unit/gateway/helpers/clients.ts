// The clients a test file makes, each closed after its test. `defaults` is read at every call: the server and the
// sleep recorder are set in hooks.
import { GatewayClient, type GatewayClientOptions } from '../../../../src/gateway/client';

export interface TestClients {
  makeClient(options?: Partial<GatewayClientOptions>): GatewayClient;
  /** Closes a client made some other way after the test, as the made ones are. */
  track(client: GatewayClient): GatewayClient;
}

export function useClients(defaults: () => GatewayClientOptions): TestClients {
  const clients: GatewayClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const track = (client: GatewayClient) => (clients.push(client), client);
  return { track, makeClient: (options = {}) => track(new GatewayClient({ ...defaults(), ...options })) };
}
