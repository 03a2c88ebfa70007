// The Media history on a real folder: what survives a reload, several windows (instances) writing into one folder at
// once, damaged files, the length limit, and what crashed writers leave behind.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaHistory, type MediaSetAside, type NewMediaEntry } from '../../../src/media/core/mediaHistory';
import { realClock } from '../../../src/util/clock';
import { encodePng } from '../../simulator/png';

const PNG = encodePng(1, 1, new Uint8Array([1, 2, 3]));

function image(prompt: string, files = 1): NewMediaEntry {
  return { kind: 'image', origin: 'http://gw.test', model: 'model-image-1.0', prompt, size: '256x256', files: Array.from({ length: files }, () => ({ data: PNG, contentType: 'image/png' as const })), notes: [] };
}

describe('media history', () => {
  let folder: string;
  const open: MediaHistory[] = [];

  function history(limit = 100): MediaHistory {
    const h = new MediaHistory({ folder, clock: realClock, limit: () => limit });
    open.push(h);
    return h;
  }

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'media-history-'));
  });
  afterEach(async () => {
    for (const h of open.splice(0)) h.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps an entry and its files, newest first, and finds them again after a reload', async () => {
    const first = history();
    const a = await first.add(image('a lighthouse', 2));
    const b = await first.add({ kind: 'speech', origin: 'http://gw.test', model: 'model-speech-1.0', prompt: 'Hello.', voice: 'nova', files: [{ data: new Uint8Array([82, 73, 70, 70]), contentType: 'audio/wav' }], notes: [] });
    assert.deepEqual(first.entries().map((e) => e.id), [b.id, a.id]);
    assert.deepEqual(a.files.map((f) => f.name), [`${a.id}-1.png`, `${a.id}-2.png`]);
    assert.deepEqual(await readFile(first.filePath(a.files[1])), PNG);
    assert.equal(b.files[0].name, `${b.id}-1.wav`);

    const reloaded = history();
    await reloaded.ready;
    assert.deepEqual(reloaded.entries(), first.entries());
  });

  it('several windows adding at once all keep their entries, and each sees the others after a reload', async () => {
    const windows = [history(), history(), history()];
    await Promise.all(windows.map((w) => w.ready));
    const added = await Promise.all(windows.flatMap((w, i) => [w.add(image(`window ${i} first`)), w.add(image(`window ${i} second`))]));
    for (const w of windows) await w.reload();
    for (const w of windows) assert.deepEqual(new Set(w.entries().map((e) => e.id)), new Set(added.map((e) => e.id)));
    assert.equal((await readdir(join(folder, 'entries'))).length, 6, 'one file per entry, no temp file left');
  });

  it('a removal in one window reaches the others; the watch picks up additions without a reload', async () => {
    const a = history();
    const b = history();
    await Promise.all([a.ready, b.ready]);
    b.watch();
    const changed = new Promise<void>((resolve) => b.onDidChange(() => resolve()));
    const entry = await a.add(image('from window a'));
    await changed;
    assert.equal(b.get(entry.id)?.prompt, 'from window a');
    assert.equal(await b.remove(entry.id), true);
    await a.reload();
    assert.equal(a.get(entry.id), undefined);
    assert.deepEqual(await readdir(join(folder, 'files')), [], 'its files are gone too');
  });

  it('skips a damaged or foreign entry file and reports it once, keeping the others', async () => {
    const errors: string[] = [];
    const h = new MediaHistory({ folder, clock: realClock, limit: () => 100, onError: (e) => errors.push(String(e)) });
    open.push(h);
    const kept = await h.add(image('kept'));
    await writeFile(join(folder, 'entries', 'mforeign00001.json'), JSON.stringify({ ...kept, id: 'mforeign00001' }), 'utf8');
    await writeFile(join(folder, 'entries', 'not-an-entry.json'), '{}');
    await h.reload();
    await h.reload();
    assert.deepEqual(h.entries().map((e) => e.id), [kept.id], 'a copy whose files belong to another id is refused too');
    assert.equal(errors.length, 1, errors.join('\n'));
  });

  it('sets a damaged entry aside with its files, never deleting them, and says so once', async () => {
    const entries = join(folder, 'entries');
    const files = join(folder, 'files');
    await mkdir(entries, { recursive: true });
    await mkdir(files, { recursive: true });
    const torn = '{"id":"mbroken000001","kind":"image","files":[{"name":"mbroken000001-1.png"';
    await writeFile(join(entries, 'mbroken000001.json'), torn);
    await writeFile(join(files, 'mbroken000001-1.png'), PNG);
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(join(files, 'mbroken000001-1.png'), old, old);
    const first = history();
    const batches: MediaSetAside[] = [];
    first.onDidSetAside((batch) => batches.push(batch));
    await first.ready;
    await first.reload();

    assert.equal(batches.length, 1, 'one notice');
    assert.equal(batches[0].folder, join(folder, 'set-aside'));
    const moved = await readdir(join(folder, 'set-aside'));
    assert.deepEqual(moved.map((name) => name.replace(/^\d+-/, '')).sort(), ['mbroken000001-1.png', 'mbroken000001.json']);
    assert.deepEqual(batches[0].files.map((file) => file.slice(join(folder, 'set-aside').length + 1)).sort(), moved.sort());
    assert.equal(await readFile(join(folder, 'set-aside', moved.find((n) => n.endsWith('.json'))!), 'utf8'), torn);
    assert.deepEqual(await readFile(join(folder, 'set-aside', moved.find((n) => n.endsWith('.png'))!)), PNG);
    assert.deepEqual(await readdir(entries), []);

    const second = history();
    second.onDidSetAside((batch) => batches.push(batch));
    await second.ready;
    assert.equal(batches.length, 1, 'nothing more to say after a reload');
  });

  it('keeps the files of an entry a newer version wrote, however old, and leaves the entry in place', async () => {
    const entries = join(folder, 'entries');
    const files = join(folder, 'files');
    await mkdir(entries, { recursive: true });
    await mkdir(files, { recursive: true });
    const newer = { id: 'mnewer0000001', kind: 'video', createdAt: 1, origin: 'http://gw.test', model: 'm', prompt: 'p', files: [{ name: 'mnewer0000001-1.mp4', contentType: 'video/mp4', bytes: 3 }], notes: [], rating: 5 };
    await writeFile(join(entries, 'mnewer0000001.json'), JSON.stringify(newer));
    await writeFile(join(files, 'mnewer0000001-1.mp4'), 'abc');
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(join(files, 'mnewer0000001-1.mp4'), old, old);
    const h = history();
    const batches: MediaSetAside[] = [];
    h.onDidSetAside((batch) => batches.push(batch));
    await h.ready;
    assert.deepEqual(h.entries(), []);
    assert.deepEqual(await readdir(files), ['mnewer0000001-1.mp4'], 'not swept as a crashed writer\'s');
    assert.deepEqual(JSON.parse(await readFile(join(entries, 'mnewer0000001.json'), 'utf8')), newer, 'unchanged');
    assert.deepEqual(batches, []);
  });

  it('keeps at most the limit, removing the oldest entries with their files', async () => {
    const h = history(2);
    const oldest = await h.add(image('one'));
    await h.add(image('two'));
    await h.add(image('three'));
    assert.deepEqual(h.entries().map((e) => e.prompt), ['three', 'two']);
    assert.ok(!(await readdir(join(folder, 'files'))).some((name) => name.startsWith(oldest.id)));
  });

  it('clears away old temp files and unnamed files of crashed writers, but not fresh ones (a write in progress)', async () => {
    const h = history();
    await h.ready;
    const entry = await h.add(image('kept'));
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    for (const name of ['x.json.123-ab.tmp', 'fresh.json.456-cd.tmp']) await writeFile(join(folder, 'entries', name), '');
    for (const name of ['morphan000001-1.png', 'mfresh0000001-1.png']) await writeFile(join(folder, 'files', name), '');
    await utimes(join(folder, 'entries', 'x.json.123-ab.tmp'), old, old);
    await utimes(join(folder, 'files', 'morphan000001-1.png'), old, old);
    const next = history();
    await next.ready;
    assert.deepEqual((await readdir(join(folder, 'entries'))).sort(), [`${entry.id}.json`, 'fresh.json.456-cd.tmp'].sort());
    assert.deepEqual((await readdir(join(folder, 'files'))).sort(), [`${entry.id}-1.png`, 'mfresh0000001-1.png'].sort());
  });

  it('refuses an entry without files, and clips what it stores', async () => {
    const h = history();
    await assert.rejects(h.add({ ...image('none'), files: [] }), /1 to 10 files/);
    const long = await h.add({ ...image('p'.repeat(20_000)), notes: Array.from({ length: 30 }, () => 'n'.repeat(5000)) });
    assert.equal(long.prompt.length, 8000);
    assert.equal(long.notes.length, 10);
    assert.equal(long.notes[0].length, 1000);
  });
});
