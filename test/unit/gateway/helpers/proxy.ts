// A minimal HTTP proxy for tests: CONNECT tunnels (what undici's ProxyAgent uses) and plain forwarding. The name
// `gateway.test` resolves to 127.0.0.1 here only, so requests to it can reach the test server only via the proxy.

import { createServer, request as httpRequest } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  readonly url: string;
  readonly connects: string[];
  readonly authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

export async function startProxy(): Promise<TestProxy> {
  const connects: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    authorizations.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '/');
    const upstream = httpRequest(
      { host: target.hostname === 'gateway.test' ? '127.0.0.1' : target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers: req.headers },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, clientSocket: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    authorizations.push(req.headers['proxy-authorization']);
    const [name, port] = (req.url ?? '').split(':');
    const host = name === 'gateway.test' ? '127.0.0.1' : name;
    const upstream = connect(Number(port), host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(clientSocket);
    const cleanup = (): void => {
      upstream.destroy();
      clientSocket.destroy();
    };
    upstream.on('error', cleanup);
    clientSocket.on('error', cleanup);
    upstream.on('close', () => sockets.delete(upstream));
    clientSocket.on('close', () => sockets.delete(clientSocket));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connects,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
