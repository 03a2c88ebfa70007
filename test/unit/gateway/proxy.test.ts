// Proxy support: explicit proxy URL, HTTPS_PROXY/HTTP_PROXY from the environment, NO_PROXY exemptions.

import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import { matchesNoProxy, resolveProxy } from '../../../src/gateway/proxy';
import { startProxy, type TestProxy } from './helpers/proxy';
import { sendJson, startServer, type TestServer } from './helpers/server';

describe('gateway: proxy resolution', () => {
  const http = new URL('http://gw.example.com:8787/v1');
  const https = new URL('https://api.example.com/v1');

  it('prefers the explicit option, and false disables proxies', () => {
    assert.equal(resolveProxy(http, 'proxy.local:3128', { HTTP_PROXY: 'http://env:1' }), 'http://proxy.local:3128');
    assert.equal(resolveProxy(http, false, { HTTP_PROXY: 'http://env:1' }), undefined);
  });

  it('picks the variable for the target scheme, lower case first', () => {
    const env = { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', HTTPS_PROXY: 'http://secure:1' };
    assert.equal(resolveProxy(http, undefined, env), 'http://lower:1');
    assert.equal(resolveProxy(https, undefined, env), 'http://secure:1');
    assert.equal(resolveProxy(https, undefined, { HTTP_PROXY: 'http://only-http:1' }), undefined);
    assert.equal(resolveProxy(http, undefined, {}), undefined);
    assert.equal(resolveProxy(http, undefined, { HTTP_PROXY: '  ' }), undefined);
  });

  const table: Array<[string, string, boolean]> = [
    ['http://gw.example.com/v1', '*', true],
    ['http://gw.example.com/v1', 'example.com', true],
    ['http://example.com/v1', 'example.com', true],
    ['http://gw.example.com/v1', '.example.com', true],
    ['http://example.com/v1', '.example.com', false],
    ['http://gw.example.com/v1', '*.example.com', true],
    ['http://notexample.com/v1', 'example.com', false],
    ['http://gw.example.com:8787/v1', 'gw.example.com:8787', true],
    ['http://gw.example.com:8787/v1', 'gw.example.com:9999', false],
    ['https://gw.example.com/v1', 'gw.example.com:443', true],
    ['http://127.0.0.1:8787/v1', 'localhost, 127.0.0.1', true],
    ['http://10.1.2.3/v1', '10.0.0.0/8', true],
    ['http://11.1.2.3/v1', '10.0.0.0/8', false],
    ['http://[::1]:8787/v1', '::1', true],
    ['http://[::1]:8787/v1', '[::1]:8787', true],
    ['http://GW.Example.COM/v1', 'gw.example.com', true],
    ['http://gw.example.com/v1', '', false],
  ];
  for (const [target, noProxy, expected] of table) {
    it(`NO_PROXY=${JSON.stringify(noProxy)} ${expected ? 'exempts' : 'does not exempt'} ${target}`, () => {
      assert.equal(matchesNoProxy(new URL(target), noProxy), expected);
    });
  }

  it('never sends loopback targets to a proxy from the environment (as Go does)', () => {
    for (const target of ['http://localhost:8787/v1', 'http://127.0.0.1/v1', 'http://127.1.2.3/v1', 'http://[::1]/v1']) {
      assert.equal(resolveProxy(new URL(target), undefined, { HTTP_PROXY: 'http://p:1' }), undefined, target);
    }
    assert.equal(resolveProxy(new URL('http://localhost/v1'), 'http://explicit:1', {}), 'http://explicit:1');
  });

  it('NO_PROXY only applies to proxies from the environment', () => {
    assert.equal(resolveProxy(http, undefined, { HTTP_PROXY: 'http://p:1', NO_PROXY: 'example.com' }), undefined);
    assert.equal(resolveProxy(http, 'http://explicit:1', { NO_PROXY: 'example.com' }), 'http://explicit:1');
  });
});

describe('gateway: requests through a proxy', () => {
  let server: TestServer;
  let proxy: TestProxy;

  before(async () => {
    server = await startServer((_req, res) => sendJson(res, 200, { data: [{ id: 'via', object: 'model' }] }));
  });
  after(() => server.close());
  beforeEach(async () => {
    server.requests.length = 0;
    proxy = await startProxy();
  });
  afterEach(() => proxy.close());

  async function list(options: ConstructorParameters<typeof GatewayClient>[0]): Promise<string[]> {
    const client = new GatewayClient(options);
    try {
      return (await client.listModels()).map((m) => m.id);
    } finally {
      await client.close();
    }
  }

  it('tunnels through an explicit proxy URL, with its credentials', async () => {
    const withAuth = proxy.url.replace('http://', 'http://user:secret@');
    assert.deepEqual(await list({ baseUrl: server.baseUrl, apiKey: 'k', proxy: withAuth }), ['via']);
    assert.deepEqual(proxy.connects, [`127.0.0.1:${server.port}`]);
    assert.equal(proxy.authorizations[0], `Basic ${Buffer.from('user:secret').toString('base64')}`);
    assert.equal(server.requests.length, 1);
  });

  // A host name that is not loopback by name but resolves to the loopback server only through the proxy: the test
  // proxy maps `gateway.test` to 127.0.0.1, so a request that arrives at all went through the proxy.
  const viaName = (): string => `http://gateway.test:${server.port}/v1`;

  it('uses HTTP_PROXY from the environment', async () => {
    assert.deepEqual(await list({ baseUrl: viaName(), apiKey: 'k', env: { HTTP_PROXY: proxy.url } }), ['via']);
    assert.deepEqual(proxy.connects, [`gateway.test:${server.port}`]);
  });

  it('goes direct when NO_PROXY names the host', async () => {
    const env = { HTTP_PROXY: proxy.url, NO_PROXY: 'example.org, .test' };
    const client = new GatewayClient({ baseUrl: viaName(), apiKey: 'k', maxRetries: 0, timeoutMs: 5000, env });
    try {
      const error = (await client.listModels().then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      )) as { code: string };
      // gateway.test does not resolve without the proxy (or the resolver gives up).
      assert.ok(error.code === 'network' || error.code === 'timeout', error.code);
    } finally {
      await client.close();
    }
    assert.equal(proxy.connects.length, 0);
    assert.equal(server.requests.length, 0);
  });

  it('goes direct when proxy is false', async () => {
    assert.deepEqual(await list({ baseUrl: server.baseUrl, apiKey: 'k', proxy: false, env: { HTTP_PROXY: proxy.url } }), ['via']);
    assert.equal(proxy.connects.length, 0);
  });
});
