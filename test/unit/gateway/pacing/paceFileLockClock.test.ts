// The pace file's lock runs on real time, whatever clock the pacing runs on: the lock judges another window's lock
// against the file system's times and waits for it to go, so on a virtual clock (frozen, or ahead of the disk's) a
// window would break a live lock and write over another's change, or wait on a retry that never comes.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaceFile, type PaceEntry } from '../../../../src/gateway/paceFile';
import { realClock } from '../../../../src/util/clock';
import { FakeClock } from '../../../util/fakeClock';

describe('gateway pacing: the pace file lock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-pace-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lets two windows whose pacing clocks stand still write at once, losing nothing', async () => {
    const file = join(dir, 'pace.json');
    // Frozen clocks a day ahead of the disk's (the test windows' own time never moves unless advanced).
    const wall = realClock.now() + 86_400_000;
    const windows = ['a', 'b'].map((tag, i) => ({ tag, file: new PaceFile(file, new FakeClock(wall + i), realClock) }));
    const count = 25;
    const id = (tag: string, n: number) => `${tag}${n.toString(16).padStart(15, '0')}`;
    const entry = (n: number): PaceEntry => ({ origin: 'https://gw.example', observedAt: wall, blocked: { at: wall + 20_000 + n, ms: 20_000 } });
    // Every write queued at once in both windows, so they take turns at the lock.
    await Promise.all(windows.flatMap((w) => Array.from({ length: count }, (_, n) => w.file.write(id(w.tag, n), entry(n)))));
    const entries = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, unknown> }).entries);
    for (const w of windows) assert.equal(entries.filter((e) => e.startsWith(w.tag)).length, count, `every entry of window ${w.tag}`);
    assert.deepEqual(readdirSync(dir), ['pace.json'], 'no lock or temp file is left');
  });
});
