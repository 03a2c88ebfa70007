// VS Code's `http.proxyStrictSSL`: off, certificates on the proxy path are not checked (a TLS-inspecting corporate
// proxy presents its own); a direct connection is always checked. The option mapping, then a real HTTPS server with a
// self-signed certificate reached through a real CONNECT proxy, by the API client and by the result fetcher.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { GatewayClient } from '../../../src/gateway/client';
import { proxyAgentSettings } from '../../../src/gateway/proxy';
import { openResult } from '../../../src/gateway/resultFetch';
import { startProxy, type TestProxy } from './helpers/proxy';

const FIXTURES = path.join(__dirname, '../../../../test/unit/diagnostics/fixtures');

describe('gateway: http.proxyStrictSSL', () => {
  it('maps strictSSL false to rejectUnauthorized false on both legs of the proxy path, and leaves it out otherwise', () => {
    const connect = { timeout: 5000 };
    const strict = proxyAgentSettings('http://proxy:3128', 4, connect);
    assert.deepEqual(strict, { uri: 'http://proxy:3128', connections: 4, connect, proxyTls: { timeout: 5000 }, requestTls: { timeout: 5000 } });
    assert.deepEqual(proxyAgentSettings('http://proxy:3128', 4, connect, true), strict);
    const lax = proxyAgentSettings('http://proxy:3128', 1, connect, false);
    assert.deepEqual(lax.proxyTls, { timeout: 5000, rejectUnauthorized: false });
    assert.deepEqual(lax.requestTls, { timeout: 5000, rejectUnauthorized: false });
    assert.deepEqual(lax.connect, { timeout: 5000 }, 'the connect options are not changed');
  });

  describe('against a self-signed HTTPS server behind a CONNECT proxy', () => {
    let server: Server;
    let origin: string;
    let proxy: TestProxy;
    const sockets = new Set<Socket>();

    before(async () => {
      server = createServer({ cert: readFileSync(path.join(FIXTURES, 'localhost.crt')), key: readFileSync(path.join(FIXTURES, 'localhost.key')) }, (req, res) => {
        if (req.url === '/v1/models') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tls', object: 'model' }] }));
        else res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 4 }).end('mp4!');
      });
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      proxy = await startProxy();
    });

    after(async () => {
      await proxy.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    async function models(options: { proxy: string | false; proxyStrictSSL?: boolean }): Promise<string> {
      const client = new GatewayClient({ baseUrl: `${origin}/v1`, apiKey: 'k', maxRetries: 0, timeoutMs: 5000, env: {}, ...options });
      try {
        return (await client.listModels()).map((m) => m.id).join(',');
      } catch (error) {
        return `failed: ${(error as Error).message}`;
      } finally {
        await client.close();
      }
    }

    it('the API client refuses the certificate by default, accepts it through the proxy with strictSSL off, never directly', async () => {
      assert.match(await models({ proxy: proxy.url }), /^failed: /, 'strict by default');
      assert.equal(await models({ proxy: proxy.url, proxyStrictSSL: false }), 'tls');
      assert.ok(proxy.connects.length >= 2, 'both went through the proxy');
      assert.match(await models({ proxy: false, proxyStrictSSL: false }), /^failed: /, 'a direct connection is always verified');
    });

    it('so does a result download', async () => {
      await assert.rejects(openResult(`${origin}/v.mp4`, { proxy: proxy.url, env: {}, timeoutMs: 5000 }), { name: 'ResultFetchError' });
      const response = await openResult(`${origin}/v.mp4`, { proxy: proxy.url, proxyStrictSSL: false, env: {}, timeoutMs: 5000 });
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      assert.equal(response.status, 200);
      assert.equal(Buffer.concat(chunks).toString(), 'mp4!');
      await assert.rejects(openResult(`${origin}/v.mp4`, { proxy: false, proxyStrictSSL: false, env: {}, timeoutMs: 5000 }), { name: 'ResultFetchError' });
    });
  });
});
