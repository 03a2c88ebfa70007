import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { JsonFile } from '../../../src/util/jsonFile';
import { DurationHistory } from '../../../src/videos/core/durationHistory';
import { FakeClock } from '../../util/fakeClock';

describe('JsonFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mg-jsonfile-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gives undefined before anything was saved, then what was saved, creating the folder', async () => {
    const file = new JsonFile(path.join(dir, 'a', 'b.json'));
    assert.equal(await file.load(), undefined);
    await file.save({ n: 1, list: ['x'] });
    assert.deepEqual(await file.load(), { n: 1, list: ['x'] });
    assert.deepEqual(await readdir(path.join(dir, 'a')), ['b.json'], 'no temp file is left behind');
  });

  it('moves a file that is not JSON or is larger than its limit aside, keeping its bytes, and says where', async () => {
    const target = path.join(dir, 'c.json');
    await writeFile(target, '{"half":');
    await assert.rejects(new JsonFile(target, undefined, new FakeClock(7)).load(), /c\.json could not be read: it is not JSON .*moved to .*c\.json\.damaged-7/);
    const big = JSON.stringify({ pad: 'x'.repeat(100) });
    await writeFile(target, big);
    await assert.rejects(new JsonFile(target, 50, new FakeClock(8)).load(), /larger than 50 bytes/);
    assert.deepEqual((await readdir(dir)).sort(), ['c.json.damaged-7', 'c.json.damaged-8']);
    assert.equal(await readFile(path.join(dir, 'c.json.damaged-7'), 'utf8'), '{"half":');
    assert.equal(await readFile(path.join(dir, 'c.json.damaged-8'), 'utf8'), big);
  });

  it('keeps the durations two windows record into one file', async () => {
    const target = path.join(dir, 'durations.json');
    const a = new DurationHistory({ store: new JsonFile(target) });
    const b = new DurationHistory({ store: new JsonFile(target) });
    await Promise.all([a.load(), b.load()]);
    a.record({ origin: 'https://gw.example', model: 'v1' }, { ms: 60_000, at: 1_000, id: 'job-a' });
    await a.flush();
    b.record({ origin: 'https://gw.example', model: 'v1' }, { ms: 90_000, at: 2_000, id: 'job-b' });
    await b.flush();
    const reader = new DurationHistory({ store: new JsonFile(target) });
    await reader.load();
    assert.deepEqual(reader.durationsMs({ origin: 'https://gw.example', model: 'v1' }), [60_000, 90_000]);
  });

  it('lets the history start empty from a damaged file, which is kept aside, not saved over', async () => {
    const target = path.join(dir, 'durations.json');
    await writeFile(target, 'not json');
    const errors: unknown[] = [];
    const history = new DurationHistory({ store: new JsonFile(target), onError: (e) => errors.push(e) });
    await history.load();
    assert.equal(errors.length, 1);
    history.record({ origin: 'https://gw.example', model: 'v1' }, { ms: 5_000, at: 10, id: 'j' });
    await history.flush();
    const reread = new DurationHistory({ store: new JsonFile(target) });
    await reread.load();
    assert.deepEqual(reread.durationsMs({ origin: 'https://gw.example', model: 'v1' }), [5_000]);
    const aside = (await readdir(dir)).filter((name) => name.startsWith('durations.json.damaged-'));
    assert.equal(aside.length, 1);
    assert.equal(await readFile(path.join(dir, aside[0]!), 'utf8'), 'not json');
  });
});
