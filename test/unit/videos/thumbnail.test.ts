// The result's thumbnail as the tree item's preview: kept beside the video (named by us, an image only, bounded,
// counted in the kept quota and evicted with its video), and shown in the tooltip only by our own file's URI.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DownloadError, downloadResult, thumbnailExtensionFor } from '../../../src/videos/core/download';
import { thumbnailMarkdown } from '../../../src/videos/core/jobPresentation';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { keptFileOwner, KeptFiles, thumbnailStem } from '../../../src/videos/core/keptFiles';
import { evictOverQuota } from '../../../src/videos/core/keptQuota';
import { ResultKeeper } from '../../../src/videos/core/resultKeeper';
import { Emitter } from '../../../src/util/events';
import { FakeClock } from '../../util/fakeClock';

const T0 = 1_700_000_000_000;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('video result thumbnails', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'thumbs-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('names a thumbnail after its job, apart from the video, and tells whose a kept file is', () => {
    assert.equal(thumbnailStem('../job 1'), '___job_1.thumb');
    assert.deepEqual(keptFileOwner('job-1.mp4'), { stem: 'job-1', thumbnail: false });
    assert.deepEqual(keptFileOwner('job-1.thumb.webp'), { stem: 'job-1', thumbnail: true });
    assert.equal(keptFileOwner('job-1.png'), undefined, 'an image that is not a thumbnail is nobody\'s');
    assert.equal(keptFileOwner('job-1.mp4.123-ab.part'), undefined);
  });

  it("finds a job's kept thumbnail only as a file of ours, never a link standing at its name", () => {
    const files = new KeptFiles(folder);
    assert.equal(files.thumbnailFile('a'), undefined);
    writeFileSync(join(folder, 'a.thumb.jpg'), PNG);
    assert.equal(files.thumbnailFile('a'), join(folder, 'a.thumb.jpg'));
    writeFileSync(join(folder, 'elsewhere.png'), PNG);
    symlinkSync(join(folder, 'elsewhere.png'), join(folder, 'b.thumb.png'));
    assert.equal(files.thumbnailFile('b'), undefined);
  });

  it('keeps PNG, JPEG and WebP stills only', () => {
    assert.deepEqual(thumbnailExtensionFor('image/png'), { ok: true, extension: '.png' });
    assert.deepEqual(thumbnailExtensionFor('image/jpeg; charset=binary'), { ok: true, extension: '.jpg' });
    assert.deepEqual(thumbnailExtensionFor('IMAGE/WEBP'), { ok: true, extension: '.webp' });
    for (const type of ['image/svg+xml', 'text/html', 'video/mp4', 'application/octet-stream', undefined, '__proto__', 'constructor']) assert.equal(thumbnailExtensionFor(type).ok, false, String(type));
  });

  it('downloads a thumbnail bounded, as an image, under the name we chose', async () => {
    const big = Buffer.alloc(5_000);
    const server = createServer((req, res) => {
      if (req.url === '/svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg onload="x()"/>');
      else if (req.url === '/big') res.writeHead(200, { 'content-type': 'image/png' }).end(big);
      else res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const kept = await downloadResult(`${origin}/thumb.svg`, folder, thumbnailStem('a'), { fileType: thumbnailExtensionFor, maxBytes: 1000 });
      assert.equal(kept.file, join(folder, 'a.thumb.png'), 'the extension is from the type, the name ours');
      await assert.rejects(downloadResult(`${origin}/svg`, folder, thumbnailStem('b'), { fileType: thumbnailExtensionFor }), (e: unknown) => e instanceof DownloadError && e.code === 'not_video' && /image\/svg\+xml/.test((e as Error).message));
      await assert.rejects(downloadResult(`${origin}/big`, folder, thumbnailStem('c'), { fileType: thumbnailExtensionFor, maxBytes: 1000 }), (e: unknown) => e instanceof DownloadError && e.code === 'too_large');
      assert.deepEqual(readdirSync(folder), ['a.thumb.png']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('counts thumbnails in the kept quota and evicts one with its video, never the new result\'s', async () => {
    const put = (name: string, bytes: number, ageS: number) => {
      writeFileSync(join(folder, name), Buffer.alloc(bytes));
      utimesSync(join(folder, name), new Date(T0 - ageS * 1000), new Date(T0 - ageS * 1000));
    };
    put('old.mp4', 300, 300);
    put('old.thumb.png', 100, 10); // fetched later than its video was last played: the video's use counts
    put('played.mp4', 300, 100);
    put('played.thumb.png', 100, 100);
    put('new.mp4', 300, 0);
    put('new.thumb.jpg', 100, 500);
    const evicted = await evictOverQuota(folder, join(folder, 'new.mp4'), 900);
    assert.deepEqual(readdirSync(folder).sort(), ['new.mp4', 'new.thumb.jpg', 'played.mp4', 'played.thumb.png']);
    assert.deepEqual({ count: evicted.count, bytes: evicted.bytes }, { count: 1, bytes: 400 });
  });

  it('keeps the thumbnail after the result, says it once with the result, and keeps the result when the thumbnail fails', async () => {
    const clock = new FakeClock(T0);
    const record = (key: string): VideoJobRecord => ({ key, id: `vid_${key}`, origin: 'https://gw.example', model: 'm', prompt: 'p', parameters: {}, status: 'completed', resultUrls: [`https://gw.example/v1/videos/vid_${key}/content?variant=video`], thumbnailUrl: `https://gw.example/v1/videos/vid_${key}/content?variant=thumbnail`, createdAt: T0 - 60_000, updatedAt: T0, completedAt: T0 });
    const records = [record('a'), record('broken')];
    const calls: string[] = [];
    const errors: string[] = [];
    const keeper = new ResultKeeper({
      folder,
      clock,
      jobs: { jobs: () => records, get: (key) => records.find((r) => r.key === key), isPolling: () => true, onDidChange: new Emitter<never>().event, wantLeasesFor: () => undefined, onDidChangeLease: new Emitter<string>().event },
      download: async (r, _url, directory, stem) => {
        calls.push(`video ${r.key}`);
        writeFileSync(join(directory, `${stem}.mp4`), Buffer.alloc(10));
        return { file: join(directory, `${stem}.mp4`), bytes: 10 };
      },
      downloadThumbnail: async (r, url, directory, stem) => {
        calls.push(`thumbnail ${r.key} ${url.split('?')[1]}`);
        if (r.key === 'broken') throw new Error('HTTP 404');
        writeFileSync(join(directory, `${stem}.png`), PNG);
        return { file: join(directory, `${stem}.png`), bytes: PNG.length };
      },
      evict: evictOverQuota,
      quotaBytes: () => 10_000,
      onEvicted: () => undefined,
      onError: (message) => errors.push(message),
    });
    const changes: string[][] = [];
    keeper.onDidChange((keys) => changes.push([...keys]));
    try {
      await keeper.whenIdle();
      assert.deepEqual(calls.sort(), ['thumbnail a variant=thumbnail', 'thumbnail broken variant=thumbnail', 'video a', 'video broken']);
      assert.equal(keeper.thumbnailFile('a'), join(folder, 'a.thumb.png'));
      assert.equal(keeper.keptFile('broken'), join(folder, 'broken.mp4'));
      assert.equal(keeper.thumbnailFile('broken'), undefined);
      assert.deepEqual(changes.sort(), [['a'], ['broken']], 'one change per job, once both are there');
      assert.deepEqual(errors, ['Could not keep the thumbnail of video job broken: HTTP 404']);
    } finally {
      keeper.dispose();
    }
  });

  it("shows the thumbnail in the tooltip only by a plain file URI (ours), never another scheme or a link bent by its characters", () => {
    assert.equal(thumbnailMarkdown('file:///home/u/.config/Code/globalStorage/video-results/a.thumb.png'), '![Thumbnail of the video](file:///home/u/.config/Code/globalStorage/video-results/a.thumb.png)\n\n');
    assert.equal(thumbnailMarkdown('file:///c%3A/Users/J%20%28x%29/a.thumb.png')?.includes('(file:///c%3A/Users/J%20%28x%29/a.thumb.png)'), true);
    for (const uri of ['https://cdn.example/t.png', 'command:x', 'data:image/png;base64,AA', 'file:///a) [x](command:y', 'file:///a b.png', 'file:///a\\b.png', 'file://host/share/a.png']) assert.equal(thumbnailMarkdown(uri), undefined, uri);
  });
});
