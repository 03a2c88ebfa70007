import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import * as path from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { createNetworkProbes, ProbeTimeout } from '../../../src/diagnostics/core/networkProbes';
import { realClock } from '../../../src/util/clock';
import { FakeClock } from '../../util/fakeClock';

const FIXTURES = path.join(__dirname, '../../../../test/unit/diagnostics/fixtures');
const CERT = readFileSync(path.join(FIXTURES, 'localhost.crt'));
const KEY = readFileSync(path.join(FIXTURES, 'localhost.key'));

interface Listening {
  port: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  server.on('secureConnection', (s: Socket) => s.on('error', () => undefined));
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('network probes (loopback)', function () {
  this.timeout(10_000);
  const probes = createNetworkProbes(realClock);
  const open: Listening[] = [];

  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });

  it('resolves localhost and passes an IP address through', async () => {
    const addresses = await probes.lookup('localhost', 5000);
    assert.ok(addresses.some((a) => a === '127.0.0.1' || a === '::1'), addresses.join(', '));
    assert.deepEqual(await probes.lookup('127.0.0.1', 5000), ['127.0.0.1']);
    assert.deepEqual(await probes.lookup('[::1]', 5000), ['::1']);
  });

  it('connects to a listening port and reports ECONNREFUSED for a closed one', async () => {
    const server = await listen(createTcpServer());
    open.push(server);
    await probes.connect({ host: '127.0.0.1', port: server.port }, 5000);

    const closed = await listen(createTcpServer());
    await closed.close();
    await assert.rejects(probes.connect({ host: '127.0.0.1', port: closed.port }, 5000), (e: { code?: string }) => e.code === 'ECONNREFUSED');
  });

  it('completes a TLS handshake and describes the certificate when the CA is trusted', async () => {
    const server = await listen(createTlsServer({ cert: CERT, key: KEY }));
    open.push(server);
    const trusting = createNetworkProbes(realClock, { ca: CERT });
    const info = await trusting.tlsHandshake({ host: 'localhost', port: server.port }, 5000);
    assert.match(info.protocol ?? '', /^TLSv1\.[23]$/);
    assert.equal(info.subject, 'localhost');
    assert.equal(info.issuer, 'Model Gateway tests');
    assert.match(info.validTo ?? '', /2126/);
  });

  it('rejects a certificate the trust store does not know', async () => {
    const server = await listen(createTlsServer({ cert: CERT, key: KEY }));
    open.push(server);
    await assert.rejects(probes.tlsHandshake({ host: 'localhost', port: server.port }, 5000), (e: { code?: string }) => e.code === 'DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('fails the handshake against a port that speaks plain HTTP', async () => {
    const server = await listen(
      createTcpServer((socket) => {
        socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'));
      }),
    );
    open.push(server);
    await assert.rejects(probes.tlsHandshake({ host: '127.0.0.1', port: server.port }, 5000), (e: { code?: string }) => e.code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' || e.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || e.code === 'EPROTO');
  });

  it('gives up at the deadline on its clock and destroys the socket', async () => {
    // A server that accepts TCP but never answers the TLS hello.
    const server = await listen(createTcpServer(() => undefined));
    open.push(server);
    const clock = new FakeClock();
    const patient = createNetworkProbes(clock);
    const handshake = patient.tlsHandshake({ host: '127.0.0.1', port: server.port }, 3000);
    const outcome = handshake.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    assert.equal(clock.pendingTimers, 1);
    clock.advance(3000);
    const error = await outcome;
    assert.ok(error instanceof ProbeTimeout, String(error));
    assert.equal((error as ProbeTimeout).code, 'ETIMEDOUT');
    assert.equal(clock.pendingTimers, 0);
  });
});
