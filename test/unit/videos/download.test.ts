import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { safeExternalUrl } from '../../../src/util/externalUrl';
import { checkResultUrl, downloadToFile, DownloadError, formatBytes, resultFileName, uniqueFilePath, urlExpiry } from '../../../src/videos/download';

const SAMPLE = readFileSync(path.join(__dirname, '../../../../test/fixtures/video/sample.mp4'));

type Handler = (path: string, res: ServerResponse, headers: IncomingHttpHeaders) => void;

interface TestServer {
  origin: string;
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

async function serve(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    handler(req.url ?? '', res, req.headers);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function sendSample(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SAMPLE.length });
  res.end(SAMPLE);
}

describe('download', () => {
  let dir: string;
  const servers: TestServer[] = [];
  const start = async (handler: Handler) => {
    const s = await serve(handler);
    servers.push(s);
    return s;
  };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mg-download-'));
  });

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await fs.rm(dir, { recursive: true, force: true });
  });

  const listDir = async () => (await fs.readdir(dir)).sort();

  describe('downloadToFile', () => {
    it('streams the file to disk with progress and sends no credentials by default', async () => {
      const server = await start((_p, res) => sendSample(res));
      const progress: Array<[number, number | undefined]> = [];
      const target = path.join(dir, 'out.mp4');
      const result = await downloadToFile(`${server.origin}/files/v.mp4?sig=a%2Fb&expires=1`, target, { onProgress: (r, t) => progress.push([r, t]) });
      assert.deepEqual(await fs.readFile(target), SAMPLE);
      assert.equal(result.bytes, SAMPLE.length);
      assert.equal(result.contentType, 'video/mp4');
      assert.deepEqual(progress.at(-1), [SAMPLE.length, SAMPLE.length]);
      assert.equal(server.requests[0].path, '/files/v.mp4?sig=a%2Fb&expires=1', 'the signed query goes out byte for byte');
      assert.equal(server.requests[0].headers.authorization, undefined);
      assert.deepEqual(await listDir(), ['out.mp4']);
    });

    it('sends credential headers to their origin only, and drops them on a redirect elsewhere', async () => {
      const cdn = await start((_p, res) => sendSample(res));
      const gateway = await start((p, res) => {
        if (p.startsWith('/files/')) {
          res.writeHead(302, { location: `${cdn.origin}/blob/v.mp4?sig=1` });
          res.end();
        } else res.writeHead(404).end();
      });
      const options = { credentialHeaders: { authorization: 'Bearer sk-secret' }, credentialOrigin: gateway.origin };
      const result = await downloadToFile(`${gateway.origin}/files/v.mp4`, path.join(dir, 'a.mp4'), options);
      assert.equal(gateway.requests[0].headers.authorization, 'Bearer sk-secret');
      assert.equal(cdn.requests[0].headers.authorization, undefined);
      assert.equal(cdn.requests[0].path, '/blob/v.mp4?sig=1');
      assert.equal(result.finalUrl, `${cdn.origin}/blob/v.mp4?sig=1`);
      assert.deepEqual(await fs.readFile(path.join(dir, 'a.mp4')), SAMPLE);
    });

    it('refuses non-http links without making a request', async () => {
      for (const url of ['command:workbench.action.quit', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
        await assert.rejects(downloadToFile(url, path.join(dir, 'x.mp4')), (e: unknown) => e instanceof DownloadError && e.code === 'bad_url');
      }
      assert.deepEqual(await listDir(), []);
    });

    it('does not follow a redirect to a file: link', async () => {
      const server = await start((_p, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end());
      await assert.rejects(downloadToFile(`${server.origin}/v.mp4`, path.join(dir, 'x.mp4')), (e: unknown) => e instanceof DownloadError && e.code === 'bad_url');
    });

    it('gives up on endless redirects', async () => {
      const server = await start((p, res) => res.writeHead(307, { location: `${p}x` }).end());
      await assert.rejects(downloadToFile(`${server.origin}/v`, path.join(dir, 'x.mp4'), { maxRedirects: 3 }), (e: unknown) => e instanceof DownloadError && e.code === 'too_many_redirects');
      assert.equal(server.requests.length, 4);
    });

    it('reports an HTTP error status and leaves no file', async () => {
      const server = await start((_p, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{}}'));
      await assert.rejects(downloadToFile(`${server.origin}/v.mp4`, path.join(dir, 'x.mp4')), (e: unknown) => e instanceof DownloadError && e.code === 'http_status' && e.status === 403 && /expires/.test(e.message));
      assert.deepEqual(await listDir(), []);
    });

    it('fails on a body cut short and removes the partial file', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 1000), () => setTimeout(() => res.socket?.destroy(), 20));
      });
      await assert.rejects(downloadToFile(`${server.origin}/v.mp4`, path.join(dir, 'x.mp4')), (e: unknown) => e instanceof DownloadError && e.code === 'incomplete');
      assert.deepEqual(await listDir(), []);
    });

    it('stops when cancelled and removes the partial file', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 500)); // then stalls
      });
      const controller = new AbortController();
      const promise = downloadToFile(`${server.origin}/v.mp4`, path.join(dir, 'x.mp4'), {
        signal: controller.signal,
        onProgress: (received) => received >= 500 && controller.abort(),
      });
      await assert.rejects(promise, (e: unknown) => e instanceof DownloadError && e.code === 'aborted');
      assert.deepEqual(await listDir(), []);
    });

    it('fails on a server that goes silent', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 100));
      });
      await assert.rejects(downloadToFile(`${server.origin}/v.mp4`, path.join(dir, 'x.mp4'), { idleTimeoutMs: 100 }), (e: unknown) => e instanceof DownloadError && (e.code === 'timeout' || e.code === 'incomplete'));
      assert.deepEqual(await listDir(), []);
    });

    it('never overwrites an existing file', async () => {
      const server = await start((_p, res) => sendSample(res));
      const target = path.join(dir, 'taken.mp4');
      await fs.writeFile(target, 'mine');
      await assert.rejects(downloadToFile(`${server.origin}/v.mp4`, target), (e: unknown) => e instanceof DownloadError && e.code === 'file');
      assert.equal(await fs.readFile(target, 'utf8'), 'mine');
      assert.deepEqual(await listDir(), ['taken.mp4']);
    });
  });

  describe('checkResultUrl', () => {
    it('accepts http and https only', () => {
      assert.equal(checkResultUrl('https://cdn.example.com/v.mp4?sig=x').ok, true);
      assert.equal(checkResultUrl('http://127.0.0.1:8/v.mp4').ok, true);
      for (const bad of ['command:workbench.action.quit', 'file:///etc/passwd', 'vscode://x', 'data:video/mp4;base64,AA', 'javascript:alert(1)', '', 42, undefined]) {
        const checked = checkResultUrl(bad);
        assert.equal(checked.ok, false, String(bad));
      }
      const refused = checkResultUrl('command:workbench.action.quit');
      assert.ok(!refused.ok && /only http and https/.test(refused.reason) && /command:/.test(refused.reason));
    });

    it('refuses a link with a user name or password, as the chat does (one rule for every link)', () => {
      for (const bad of ['https://user:pass@cdn.example.com/v.mp4', 'https://user@cdn.example.com/v.mp4']) {
        const checked = checkResultUrl(bad);
        assert.ok(!checked.ok && /user name or password/.test(checked.reason), bad);
        assert.equal(safeExternalUrl(bad), undefined, bad);
      }
    });
  });

  describe('urlExpiry', () => {
    it('reads expires= as Unix seconds, milliseconds or a date', () => {
      assert.equal(urlExpiry('http://h/f.mp4?sig=a&expires=1700000000'), 1_700_000_000_000);
      assert.equal(urlExpiry('http://h/f.mp4?Expires=1700000000123'), 1_700_000_000_123);
      assert.equal(urlExpiry('http://h/f.mp4?expires=2030-01-02T03:04:05Z'), Date.UTC(2030, 0, 2, 3, 4, 5));
    });

    it('reads X-Amz-Date with X-Amz-Expires, and X-Goog-*', () => {
      assert.equal(urlExpiry('https://b.s3.amazonaws.com/k?X-Amz-Date=20240102T030405Z&X-Amz-Expires=3600&X-Amz-Signature=abc'), Date.UTC(2024, 0, 2, 4, 4, 5));
      assert.equal(urlExpiry('https://storage.googleapis.com/b/o?X-Goog-Date=20240102T030405Z&X-Goog-Expires=60'), Date.UTC(2024, 0, 2, 3, 5, 5));
      assert.equal(urlExpiry('https://b.s3.amazonaws.com/k?X-Amz-Expires=3600'), undefined, 'a lifetime without its start says nothing');
    });

    it("reads Azure's se= only next to sig=", () => {
      assert.equal(urlExpiry('https://a.blob.core.windows.net/c/v.mp4?sv=2022&se=2030-01-01T00:00:00Z&sig=x'), Date.UTC(2030, 0, 1));
      assert.equal(urlExpiry('https://example.com/v.mp4?se=2030-01-01T00:00:00Z'), undefined);
    });

    it('is undefined for links without an expiry', () => {
      assert.equal(urlExpiry('https://example.com/v.mp4'), undefined);
      assert.equal(urlExpiry('https://example.com/v.mp4?expires=soon'), undefined);
      assert.equal(urlExpiry('nonsense'), undefined);
    });
  });

  describe('file names', () => {
    it("uses the link's file name when it is sensible, else the job id", () => {
      assert.equal(resultFileName('http://h/files/vid_abc.mp4?sig=1', 'vid_abc', 0), 'vid_abc.mp4');
      assert.equal(resultFileName('http://h/files/my%20clip.webm', 'vid_abc', 0), 'my_clip.webm');
      assert.equal(resultFileName('http://h/download?id=3', 'vid_abc', 1), 'vid_abc-2.mp4');
      assert.equal(resultFileName('http://h/..%2F..%2Fetc%2Fpasswd.mp4', 'vid_abc', 0), 'etc_passwd.mp4');
      assert.equal(resultFileName('http://h/', undefined, 0), 'video.mp4');
    });

    it('picks a name that does not exist yet', async () => {
      assert.equal(await uniqueFilePath(dir, 'a.mp4'), path.join(dir, 'a.mp4'));
      await fs.writeFile(path.join(dir, 'a.mp4'), '');
      await fs.writeFile(path.join(dir, 'a (2).mp4'), '');
      assert.equal(await uniqueFilePath(dir, 'a.mp4'), path.join(dir, 'a (3).mp4'));
    });

    it('formats sizes', () => {
      assert.equal(formatBytes(512), '512 B');
      assert.equal(formatBytes(3098), '3.0 KB');
      assert.equal(formatBytes(5 * 1024 * 1024), '5.0 MB');
    });
  });
});
