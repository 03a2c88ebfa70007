// openResult / resolveFinalUrl: result links fetched through the client's proxy resolution, redirects followed hop
// by hop, and the gateway's credentials sent to the gateway's own origin only.

import * as assert from 'node:assert/strict';
import { openResult, resolveFinalUrl, ResultFetchError, type ResultResponse } from '../../../src/gateway/resultFetch';
import { startProxy, type TestProxy } from './helpers/proxy';
import { startServer, type TestServer } from './helpers/server';

const KEY = 'sk-result-canary-1234';
const BODY = Buffer.alloc(300_000, 7);

async function readAll(response: ResultResponse): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function failure(promise: Promise<unknown>): Promise<ResultFetchError> {
  const error = await promise.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ResultFetchError, String(error));
  return error;
}

describe('gateway: openResult', () => {
  let gateway: TestServer;
  let cdn: TestServer;
  const credentials = () => ({ origin: gateway.origin, headers: { 'X-Team': 'blue', authorization: `Bearer ${KEY}` } });

  beforeEach(async () => {
    cdn = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BODY.length });
      res.end(BODY);
    });
    gateway = await startServer((req, res) => {
      if (req.url?.startsWith('/to-cdn')) res.writeHead(302, { location: `${cdn.origin}/files/v.mp4?sig=a%2Fb` }).end();
      else if (req.url === '/file') {
        res.writeHead(200, { 'content-type': 'video/webm' });
        res.end('webm bytes');
      } else res.writeHead(404).end();
    });
  });
  afterEach(async () => {
    await gateway.close();
    await cdn.close();
  });

  it('streams the body with status, headers and the final URL; no credentials unless asked', async () => {
    const response = await openResult(`${cdn.origin}/files/v.mp4?sig=a%2Fb&expires=1`);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'video/mp4');
    assert.equal(response.finalUrl, `${cdn.origin}/files/v.mp4?sig=a%2Fb&expires=1`);
    assert.deepEqual(await readAll(response), BODY);
    assert.equal(cdn.requests[0].url, '/files/v.mp4?sig=a%2Fb&expires=1', 'the signed query goes out byte for byte');
    assert.equal(cdn.requests[0].headers.authorization, undefined);
    assert.equal(cdn.requests[0].headers['accept-encoding'], 'identity');
  });

  it('sends the key and the extra headers to the gateway origin and drops them on a redirect elsewhere', async () => {
    const response = await openResult(`${gateway.origin}/to-cdn`, { credentials: credentials() });
    assert.deepEqual(await readAll(response), BODY);
    assert.equal(response.finalUrl, `${cdn.origin}/files/v.mp4?sig=a%2Fb`);
    assert.equal(response.redirects, 1);
    assert.equal(gateway.requests[0].headers.authorization, `Bearer ${KEY}`);
    assert.equal(gateway.requests[0].headers['x-team'], 'blue');
    assert.equal(cdn.requests.length, 1);
    assert.equal(cdn.requests[0].headers.authorization, undefined, 'the key never reaches the CDN');
    assert.equal(cdn.requests[0].headers['x-team'], undefined, 'nor do the configured extra headers');
  });

  it('sends no credentials to a link on another origin, even on the same host', async () => {
    const response = await openResult(`${cdn.origin}/files/v.mp4`, { credentials: credentials() });
    response.body.destroy();
    assert.equal(cdn.requests[0].headers.authorization, undefined);
    assert.equal(cdn.requests[0].headers['x-team'], undefined);
  });

  it('sends the credentials again when a redirect comes back to the gateway', async () => {
    cdn.setHandler((_req, res) => void res.writeHead(307, { location: `${gateway.origin}/file` }).end());
    const response = await openResult(`${cdn.origin}/bounce`, { credentials: credentials() });
    assert.equal((await readAll(response)).toString(), 'webm bytes');
    assert.equal(cdn.requests[0].headers.authorization, undefined);
    assert.equal(gateway.requests[0].headers.authorization, `Bearer ${KEY}`);
  });

  it('refuses links and redirects that are not plain http(s)', async () => {
    assert.equal((await failure(openResult('file:///etc/passwd'))).code, 'bad_url');
    assert.equal((await failure(openResult(`http://user:pw@127.0.0.1:${cdn.port}/x`))).code, 'bad_url');
    for (const location of ['file:///etc/passwd', 'javascript:alert(1)', `http://user:pw@127.0.0.1:${gateway.port}/file`, 'http://[bad']) {
      cdn.setHandler((_req, res) => void res.writeHead(302, { location }).end());
      const error = await failure(openResult(`${cdn.origin}/x`));
      assert.equal(error.code, 'bad_url', location);
    }
    assert.equal(gateway.requests.length, 0, 'a redirect with a user name and password is not followed');
  });

  it('gives up after maxRedirects, and on a redirect without a Location', async () => {
    let hops = 0;
    cdn.setHandler((_req, res) => void res.writeHead(301, { location: `/loop/${++hops}` }).end());
    const error = await failure(openResult(`${cdn.origin}/loop/0`, { maxRedirects: 3 }));
    assert.equal(error.code, 'too_many_redirects');
    assert.equal(cdn.requests.length, 4);
    cdn.setHandler((_req, res) => void res.writeHead(302).end());
    assert.equal((await failure(openResult(`${cdn.origin}/x`))).code, 'bad_redirect');
  });

  it('returns error statuses to the caller and keeps the range and the method across redirects', async () => {
    cdn.setHandler((req, res) => {
      if (req.url === '/start') res.writeHead(303, { location: '/moved' }).end();
      else res.writeHead(416, { 'content-range': 'bytes */0' }).end();
    });
    const response = await openResult(`${cdn.origin}/start`, { method: 'HEAD', range: 'bytes=0-0' });
    assert.equal(response.status, 416);
    assert.deepEqual(
      cdn.requests.map((r) => [r.method, r.url, r.headers.range]),
      [
        ['HEAD', '/start', 'bytes=0-0'],
        ['HEAD', '/moved', 'bytes=0-0'],
      ],
    );
  });

  it('reports a refused connection, a silent body and a cancel as such', async () => {
    const closed = await startServer(() => undefined);
    const deadOrigin = closed.origin;
    await closed.close();
    const refused = await failure(openResult(`${deadOrigin}/v.mp4`));
    assert.equal(refused.code, 'network');
    assert.match(refused.message, /ECONNREFUSED/);

    cdn.setHandler((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write('first bytes');
    });
    const stalled = await openResult(`${cdn.origin}/stall`, { idleTimeoutMs: 200 });
    const idle = await failure(readAll(stalled));
    assert.equal(idle.code, 'timeout');

    const controller = new AbortController();
    const open = await openResult(`${cdn.origin}/stall`, { signal: controller.signal });
    const reading = readAll(open);
    controller.abort();
    assert.equal((await failure(reading)).code, 'aborted');
    assert.equal((await failure(openResult(`${cdn.origin}/x`, { signal: controller.signal }))).code, 'aborted');
  });
});

describe('gateway: resolveFinalUrl', () => {
  let origin: TestServer;
  let cdn: TestServer;

  beforeEach(async () => {
    cdn = await startServer((req, res) => {
      // A signed link valid for GET only, as S3's are: HEAD is refused.
      if (req.method === 'HEAD' && req.url?.includes('get-only')) return void res.writeHead(403).end();
      res.writeHead(req.headers.range ? 206 : 200, { 'content-type': 'video/mp4', 'content-length': req.headers.range ? 1 : BODY.length });
      res.end(req.headers.range ? BODY.subarray(0, 1) : BODY);
    });
    origin = await startServer((req, res) => void res.writeHead(302, { location: `${cdn.origin}/cdn${req.url}` }).end());
  });
  afterEach(async () => {
    await origin.close();
    await cdn.close();
  });

  it('finds the final URL with a HEAD', async () => {
    const resolved = await resolveFinalUrl(`${origin.origin}/v.mp4`);
    assert.deepEqual(resolved, { finalUrl: `${cdn.origin}/cdn/v.mp4`, status: 200, contentType: 'video/mp4' });
    assert.deepEqual(cdn.requests.map((r) => r.method), ['HEAD']);
  });

  it('falls back to a GET of the first byte when HEAD is refused', async () => {
    const resolved = await resolveFinalUrl(`${origin.origin}/get-only.mp4`);
    assert.deepEqual(resolved, { finalUrl: `${cdn.origin}/cdn/get-only.mp4`, status: 206, contentType: 'video/mp4' });
    assert.deepEqual(
      cdn.requests.map((r) => [r.method, r.headers.range]),
      [
        ['HEAD', undefined],
        ['GET', 'bytes=0-0'],
      ],
    );
  });
});

describe('gateway: openResult through a proxy', () => {
  let gateway: TestServer;
  let cdn: TestServer;
  let proxy: TestProxy;

  beforeEach(async () => {
    cdn = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BODY.length });
      res.end(BODY);
    });
    // `gateway.test` resolves (to 127.0.0.1) only inside the test proxy: a request that arrives went through it.
    gateway = await startServer((_req, res) => void res.writeHead(302, { location: `http://gateway.test:${cdn.port}/files/v.mp4` }).end());
    proxy = await startProxy();
  });
  afterEach(async () => {
    await proxy.close();
    await gateway.close();
    await cdn.close();
  });

  it('goes through an explicit proxy (as VS Code http.proxy) for every hop, credentials to the gateway only', async () => {
    const gatewayUrl = `http://gateway.test:${gateway.port}`;
    const response = await openResult(`${gatewayUrl}/result`, {
      proxy: proxy.url,
      env: {},
      credentials: { origin: gatewayUrl, headers: { authorization: `Bearer ${KEY}` } },
    });
    assert.deepEqual(await readAll(response), BODY);
    assert.deepEqual(proxy.connects, [`gateway.test:${gateway.port}`, `gateway.test:${cdn.port}`]);
    assert.equal(gateway.requests[0].headers.authorization, `Bearer ${KEY}`);
    assert.equal(cdn.requests[0].headers.authorization, undefined);
    assert.equal(response.finalUrl, `http://gateway.test:${cdn.port}/files/v.mp4`);
  });

  it('uses HTTP_PROXY and honours NO_PROXY as the client does', async () => {
    const response = await openResult(`http://gateway.test:${cdn.port}/v.mp4`, { env: { HTTP_PROXY: proxy.url } });
    assert.deepEqual(await readAll(response), BODY);
    assert.deepEqual(proxy.connects, [`gateway.test:${cdn.port}`]);

    const resolved = await resolveFinalUrl(`http://gateway.test:${gateway.port}/r`, { env: { HTTP_PROXY: proxy.url } });
    assert.equal(resolved.finalUrl, `http://gateway.test:${cdn.port}/files/v.mp4`);

    const direct = await failure(openResult(`http://gateway.test:${cdn.port}/v.mp4`, { env: { HTTP_PROXY: proxy.url, NO_PROXY: '.test' }, timeoutMs: 5000 }));
    assert.ok(direct.code === 'network' || direct.code === 'timeout', direct.code);
    assert.equal(proxy.connects.length, 3, 'the exempt request did not use the proxy');
  });
});
