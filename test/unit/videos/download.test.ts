import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { safeExternalUrl } from '../../../src/util/externalUrl';
import { DownloadError, downloadResult, isWindowsReservedName, resultFileStem, videoExtensionFor } from '../../../src/videos/core/download';
import { createNewFile } from '../../../src/util/newFile';
import { checkResultUrl, urlExpiry } from '../../../src/videos/core/resultLinks';
import { startProxy } from '../gateway/helpers/proxy';

const SAMPLE = readFileSync(path.join(__dirname, '../../../../test/fixtures/video/sample.mp4'));

type Handler = (path: string, res: ServerResponse, headers: IncomingHttpHeaders, method: string) => void;

interface TestServer {
  origin: string;
  requests: Array<{ method: string; path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

async function serve(handler: Handler): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    handler(req.url ?? '', res, req.headers, req.method ?? '');
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

function sendSample(res: ServerResponse, contentType = 'video/mp4'): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': SAMPLE.length });
  res.end(SAMPLE);
}

const isCode = (code: string) => (e: unknown) => e instanceof DownloadError && e.code === code;

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

  describe('downloadResult', () => {
    it('streams the file to disk with progress and sends no credentials by default', async () => {
      const server = await start((_p, res) => sendSample(res));
      const progress: Array<[number, number | undefined]> = [];
      const result = await downloadResult(`${server.origin}/files/v.mp4?sig=a%2Fb&expires=1`, dir, 'out', { onProgress: (r, t) => progress.push([r, t]) });
      assert.equal(result.file, path.join(dir, 'out.mp4'));
      assert.deepEqual(await fs.readFile(result.file), SAMPLE);
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
      const options = { credentials: { origin: gateway.origin, headers: { authorization: 'Bearer sk-secret' } } };
      const result = await downloadResult(`${gateway.origin}/files/v.mp4`, dir, 'a', options);
      assert.equal(gateway.requests[0].headers.authorization, 'Bearer sk-secret');
      assert.equal(cdn.requests[0].headers.authorization, undefined);
      assert.equal(cdn.requests[0].path, '/blob/v.mp4?sig=1');
      assert.equal(result.finalUrl, `${cdn.origin}/blob/v.mp4?sig=1`);
      assert.deepEqual(await fs.readFile(path.join(dir, 'a.mp4')), SAMPLE);
    });

    it('goes through the proxy it is given (VS Code http.proxy), as the API calls do', async () => {
      const server = await start((_p, res) => sendSample(res));
      const proxy = await startProxy();
      try {
        // `gateway.test` resolves only inside the test proxy: the file arrives only through it.
        const port = new URL(server.origin).port;
        const result = await downloadResult(`http://gateway.test:${port}/v.mp4`, dir, 'v', { proxy: proxy.url });
        assert.deepEqual(proxy.connects, [`gateway.test:${port}`]);
        assert.deepEqual(await fs.readFile(result.file), SAMPLE);
      } finally {
        await proxy.close();
      }
    });

    it('refuses non-http links without making a request', async () => {
      for (const url of ['command:workbench.action.quit', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
        await assert.rejects(downloadResult(url, dir, 'x'), isCode('bad_url'));
      }
      assert.deepEqual(await listDir(), []);
    });

    it('does not follow a redirect to a file: link, or to a link with credentials', async () => {
      for (const location of ['file:///etc/passwd', 'http://user:pw@127.0.0.1:1/v.mp4']) {
        const server = await start((_p, res) => res.writeHead(302, { location }).end());
        await assert.rejects(downloadResult(`${server.origin}/v.mp4`, dir, 'x'), isCode('bad_url'));
      }
    });

    it('gives up on endless redirects', async () => {
      const server = await start((p, res) => res.writeHead(307, { location: `${p}x` }).end());
      await assert.rejects(downloadResult(`${server.origin}/v`, dir, 'x', { maxRedirects: 3 }), isCode('too_many_redirects'));
      assert.equal(server.requests.length, 4);
    });

    it('reports an HTTP error status and leaves no file', async () => {
      const server = await start((_p, res) => res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":{}}'));
      await assert.rejects(downloadResult(`${server.origin}/v.mp4`, dir, 'x'), (e: unknown) => isCode('http_status')(e) && (e as DownloadError).status === 403 && /expires/.test((e as Error).message));
      assert.deepEqual(await listDir(), []);
    });

    it('fails on a body cut short and removes the partial file', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 1000), () => setTimeout(() => res.socket?.destroy(), 20));
      });
      await assert.rejects(downloadResult(`${server.origin}/v.mp4`, dir, 'x'), isCode('incomplete'));
      assert.deepEqual(await listDir(), []);
    });

    it('stops when cancelled and removes the partial file', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 500)); // then stalls
      });
      const controller = new AbortController();
      const promise = downloadResult(`${server.origin}/v.mp4`, dir, 'x', { signal: controller.signal, onProgress: (received) => received >= 500 && controller.abort() });
      await assert.rejects(promise, isCode('aborted'));
      assert.deepEqual(await listDir(), []);
    });

    it('fails on a server that goes silent, before or during the body', async () => {
      const silentBody = await start((_p, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 100));
      });
      await assert.rejects(downloadResult(`${silentBody.origin}/v.mp4`, dir, 'x', { idleTimeoutMs: 100 }), isCode('timeout'));
      const noAnswer = await start(() => undefined);
      await assert.rejects(downloadResult(`${noAnswer.origin}/v.mp4`, dir, 'x', { timeoutMs: 100 }), isCode('timeout'));
      assert.deepEqual(await listDir(), []);
    });

    it('takes the extension from the Content-Type, never from the link', async () => {
      const types: Record<string, string> = { '/conftest.py': 'video/webm', '/eslint.config.js': 'video/mp4', '/run.ps1': 'video/quicktime', '/x.sh': 'video/x-matroska; codecs=avc1', '/.bashrc': 'application/octet-stream' };
      const server = await start((p, res) => sendSample(res, types[p]));
      const files: string[] = [];
      for (const name of Object.keys(types)) files.push(path.basename((await downloadResult(`${server.origin}${name}`, dir, 'vid_1')).file));
      assert.deepEqual(files, ['vid_1.webm', 'vid_1.mp4', 'vid_1.mov', 'vid_1 (2).mp4', 'vid_1 (3).mp4']);
      assert.deepEqual(await listDir(), ['vid_1 (2).mp4', 'vid_1 (3).mp4', 'vid_1.mov', 'vid_1.mp4', 'vid_1.webm']);
    });

    it('refuses a body that is not a video, with the type in the message, and writes nothing', async () => {
      const types: Record<string, string | undefined> = { '/page': 'text/html; charset=utf-8', '/script': 'application/javascript', '/none': undefined };
      const server = await start((p, res) => {
        res.writeHead(200, types[p] ? { 'content-type': types[p] } : {});
        res.end('<html>sign in</html>');
      });
      await assert.rejects(downloadResult(`${server.origin}/page`, dir, 'x'), (e: unknown) => isCode('not_video')(e) && /text\/html/.test((e as Error).message) && /sign-in or error page/.test((e as Error).message));
      await assert.rejects(downloadResult(`${server.origin}/script`, dir, 'x'), (e: unknown) => isCode('not_video')(e) && /application\/javascript instead of a video/.test((e as Error).message));
      await assert.rejects(downloadResult(`${server.origin}/none`, dir, 'x'), (e: unknown) => isCode('not_video')(e) && /no Content-Type/.test((e as Error).message));
      assert.deepEqual(await listDir(), []);
    });

    it('stops an endless body at the size limit and removes the partial file', async () => {
      let written = 0;
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        const chunk = Buffer.alloc(16 * 1024, 1);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      await assert.rejects(downloadResult(`${server.origin}/endless`, dir, 'x', { maxBytes: 200_000 }), (e: unknown) => isCode('too_large')(e) && /195\.3 KB/.test((e as Error).message) && /maxDownloadMB/.test((e as Error).message));
      assert.deepEqual(await listDir(), []);
      assert.ok(written < 50 * 1024 * 1024, 'the server was stopped, not drained');
    });

    it('refuses a Content-Length over the limit before writing anything', async () => {
      const server = await start((_p, res) => sendSample(res));
      let created = false;
      const watcher = (await import('node:fs')).watch(dir, () => (created = true));
      try {
        await assert.rejects(downloadResult(`${server.origin}/v.mp4`, dir, 'x', { maxBytes: SAMPLE.length - 1 }), (e: unknown) => isCode('too_large')(e) && /The video \(/.test((e as Error).message));
      } finally {
        watcher.close();
      }
      assert.equal(created, false);
      assert.deepEqual(await listDir(), []);
    });

    it('never overwrites an existing file, nor writes through a link standing at the name', async () => {
      const server = await start((_p, res) => sendSample(res));
      await fs.writeFile(path.join(dir, 'taken.mp4'), 'mine');
      const outside = path.join(dir, 'outside-target');
      await fs.symlink(outside, path.join(dir, 'taken (2).mp4'));
      const result = await downloadResult(`${server.origin}/v.mp4`, dir, 'taken');
      assert.equal(result.file, path.join(dir, 'taken (3).mp4'));
      assert.equal(await fs.readFile(path.join(dir, 'taken.mp4'), 'utf8'), 'mine');
      await assert.rejects(fs.stat(outside), 'nothing was written through the link');
    });

    it('gives two downloads of the same name two files, each complete', async () => {
      const server = await start((_p, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': SAMPLE.length });
        res.write(SAMPLE.subarray(0, 10));
        setTimeout(() => res.end(SAMPLE.subarray(10)), 50);
      });
      const results = await Promise.all([downloadResult(`${server.origin}/a`, dir, 'same'), downloadResult(`${server.origin}/b`, dir, 'same')]);
      assert.deepEqual(results.map((r) => path.basename(r.file)).sort(), ['same (2).mp4', 'same.mp4']);
      for (const r of results) assert.deepEqual(await fs.readFile(r.file), SAMPLE);
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
    it('names a result after its job id, made safe, without any extension of its own', () => {
      assert.equal(resultFileStem('vid_abc', 0), 'vid_abc');
      assert.equal(resultFileStem('vid_abc', 1), 'vid_abc-2');
      assert.equal(resultFileStem('../../etc/passwd', 0), 'etc_passwd');
      assert.equal(resultFileStem('conftest.py', 0), 'conftest_py');
      assert.equal(resultFileStem('.bashrc', 0), 'bashrc');
      assert.equal(resultFileStem(undefined, 0), 'video');
      assert.equal(resultFileStem('///', 2), 'video-3');
    });

    it('never uses a Windows device name', () => {
      for (const name of ['CON', 'con', 'PRN', 'AUX', 'NUL', 'nul', 'COM1', 'com9', 'LPT1', 'COM¹', 'CONIN$', 'CON.txt', 'nul.mp4', 'AUX ', 'CON.']) assert.ok(isWindowsReservedName(name), name);
      for (const name of ['CONSOLE', 'vid_con', 'COM10', 'NULL', 'con_txt']) assert.ok(!isWindowsReservedName(name), name);
      for (const id of ['CON', 'nul', 'Com1', 'LPT9']) assert.equal(resultFileStem(id, 0), `video-${id}`);
    });

    it('chooses the extension from an allowlist by Content-Type', () => {
      const ext = (type: string | undefined) => {
        const r = videoExtensionFor(type);
        return r.ok ? r.extension : 'refused';
      };
      assert.equal(ext('video/mp4'), '.mp4');
      assert.equal(ext('Video/WebM; codecs="vp9"'), '.webm');
      assert.equal(ext('video/quicktime'), '.mov');
      assert.equal(ext('video/x-msvideo'), '.mp4');
      assert.equal(ext('application/octet-stream'), '.mp4');
      for (const refused of ['text/html', 'application/x-sh', 'text/x-python', 'application/json', '', undefined, 'video/', 'video/../x']) assert.equal(ext(refused), 'refused', String(refused));
    });

    it('creates a new file exclusively, numbering the name when it is taken', async () => {
      const first = await createNewFile(dir, 'a', '.mp4');
      const second = await createNewFile(dir, 'a', '.mp4');
      await first.handle.close();
      await second.handle.close();
      assert.deepEqual([first.file, second.file], [path.join(dir, 'a.mp4'), path.join(dir, 'a (2).mp4')]);
    });
  });
});
