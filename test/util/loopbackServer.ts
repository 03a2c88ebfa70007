// A test's HTTP server on 127.0.0.1, at a port the system picks: its origin, and a close that also ends the open
// connections (a keep-alive one, or a stream a test holds, would otherwise keep close() waiting).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
