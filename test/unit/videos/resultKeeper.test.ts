import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { laneOf, type VideoJobRecord } from '../../../src/videos/core/jobRecord';
import type { JobsChange } from '../../../src/videos/core/jobStore';
import { evictOverQuota } from '../../../src/videos/core/keptQuota';
import { keptStem } from '../../../src/videos/core/keptFiles';
import { ResultKeeper, retryDelay, type ResultKeeperOptions } from '../../../src/videos/core/resultKeeper';
import { Emitter } from '../../../src/util/events';
import { FakeClock } from '../../util/fakeClock';

const ORIGIN = 'https://gw.example';
const T0 = 1_700_000_000_000;

function job(key: string, url: string | undefined, status = 'completed'): VideoJobRecord {
  return { key, id: `vid_${key}`, origin: ORIGIN, model: 'm', prompt: 'p', parameters: {}, status, resultUrls: url ? [url] : [], createdAt: T0 - 60_000, updatedAt: T0, completedAt: T0 };
}

/** Lets the keeper's file work (real I/O, which setImmediate rounds alone do not wait for) reach `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let round = 0; round < 2000 && !done(); round++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.ok(done(), 'the keeper did not get there');
}

/** A link that expires at `at` (epoch ms), as the simulator signs them. */
const link = (at: number) => `https://cdn.example/v.mp4?sig=abc&expires=${Math.floor(at / 1000)}`;

// A check that something did not happen waits for the keeper to be idle (whenIdle): every download it decided on has
// ended by then, so a wrong one is always seen, never missed by a race with the file system.
describe('ResultKeeper (finished videos kept before their links expire)', () => {
  let folder: string;
  let clock: FakeClock;
  let records: VideoJobRecord[];
  let polling: boolean;
  let downloads: string[];
  let failNext: number;
  let evictions: Array<{ count: number; bytes: number }>;
  let errors: string[];
  const changes = new Emitter<JobsChange>();
  const leases = new Emitter<string>();
  let wanted: string[][];
  let keeper: ResultKeeper;

  function build(overrides: Partial<ResultKeeperOptions> = {}): ResultKeeper {
    keeper = new ResultKeeper({
      folder,
      clock,
      jobs: {
        jobs: () => records,
        get: (key) => records.find((r) => r.key === key),
        isPolling: () => polling,
        onDidChange: changes.event,
        wantLeasesFor: (origins) => wanted.push([...origins]),
        onDidChangeLease: leases.event,
      },
      download: async (record, url, directory, stem) => {
        downloads.push(record.key);
        if (failNext > 0) {
          failNext--;
          throw new Error('HTTP 503');
        }
        const file = join(directory, `${stem}.mp4`);
        writeFileSync(file, Buffer.alloc(400));
        return { file, bytes: 400 };
      },
      evict: evictOverQuota,
      quotaBytes: () => 1000,
      onEvicted: (e) => evictions.push(e),
      onError: (m) => errors.push(m),
      ...overrides,
    });
    return keeper;
  }

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'kept-'));
    clock = new FakeClock(T0);
    records = [];
    polling = true;
    downloads = [];
    failNext = 0;
    evictions = [];
    errors = [];
    wanted = [];
  });

  afterEach(() => {
    keeper?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps a finished result in the window that polls, and says so', async () => {
    records = [job('a', link(T0 + 3_600_000)), job('running', undefined, 'in_progress')];
    build();
    const kept: string[][] = [];
    keeper.onDidChange((keys) => kept.push([...keys]));
    await until(() => kept.length > 0);
    assert.deepEqual(downloads, ['a']);
    assert.deepEqual(kept, [['a']]);
    assert.equal(keeper.keptFile('a'), join(folder, 'a.mp4'));
    assert.deepEqual(keeper.state(records[0]), { kept: true, file: join(folder, 'a.mp4') });
    changes.fire({ keys: ['a'] });
    await keeper.whenIdle();
    assert.deepEqual(downloads, ['a'], 'once');
  });

  it('leaves the download to the polling window, and to nobody once the link has expired', async () => {
    polling = false;
    records = [job('a', link(T0 + 3_600_000))];
    build();
    await keeper.whenIdle();
    assert.deepEqual(downloads, []);
    assert.deepEqual(keeper.state(records[0]), { kept: false, expiresAt: T0 + 3_600_000 });
    assert.deepEqual(wanted.at(-1), [laneOf(records[0])], 'it asks for the lease: the store holds one only while jobs run');
    // The lease comes to this window.
    polling = true;
    leases.fire(laneOf(records[0]));
    await until(() => keeper.keptFile('a') !== undefined);
    assert.deepEqual(downloads, ['a']);
    await until(() => wanted.at(-1)?.length === 0);

    records = [job('b', link(T0 - 1000))];
    changes.fire({ keys: ['b'] });
    await keeper.whenIdle();
    assert.deepEqual(downloads, ['a']);
    assert.equal(clock.nextDueAt(), undefined, 'no timer while nothing can be kept');
  });

  it('retries a failed download well before the link expires', async () => {
    failNext = 2;
    records = [job('a', link(T0 + 90_000))];
    build();
    await until(() => errors.length === 1);
    assert.deepEqual(downloads, ['a']);
    assert.match(errors[0], /Could not keep the result of video job a: HTTP 503 \(trying again in 30 s\)/);
    clock.advance(30_000);
    await until(() => errors.length === 2);
    assert.deepEqual(downloads, ['a', 'a']);
    // 60 s left: the next try comes after a third of that, not after the 2 min backoff.
    assert.match(errors[1], /trying again in 20 s/);
    clock.advance(20_000);
    await until(() => keeper.keptFile('a') !== undefined);
    assert.deepEqual(downloads, ['a', 'a', 'a']);
  });

  it('plans retries from the backoff, capped by the time left', () => {
    assert.equal(retryDelay(1, T0, undefined), 30_000);
    assert.equal(retryDelay(2, T0, undefined), 120_000);
    assert.equal(retryDelay(2, T0, T0 + 3_600_000), 120_000);
    assert.equal(retryDelay(3, T0, T0 + 600_000), 200_000);
    assert.equal(retryDelay(1, T0, T0 + 4_000), undefined, 'too late to try');
    assert.equal(retryDelay(6, T0, undefined), undefined, 'gives up');
  });

  it('evicts the least recently used kept files over the quota, never the new one, and says so', async () => {
    for (const [name, age] of [['old', 300], ['played', 100], ['older', 400]] as const) {
      const file = join(folder, `${name}.mp4`);
      writeFileSync(file, Buffer.alloc(400));
      const at = new Date(T0 - age * 1000);
      utimesSync(file, at, at);
    }
    records = [job('new', link(T0 + 3_600_000)), job('old', link(T0)), job('played', link(T0)), job('older', link(T0))];
    build();
    await until(() => evictions.length > 0);
    assert.deepEqual(readdirSync(folder).sort(), ['new.mp4', 'played.mp4']);
    assert.deepEqual(evictions, [{ count: 2, bytes: 800, quotaBytes: 1000 }]);
  });

  it('keeps nothing with a quota of 0', async () => {
    records = [job('a', link(T0 + 3_600_000))];
    build({ quotaBytes: () => 0 });
    await keeper.whenIdle();
    assert.deepEqual(downloads, []);
    assert.equal(clock.nextDueAt(), undefined);
  });

  it('names kept files after the job key, safely', () => {
    assert.equal(keptStem('job-abc-1-ff'), 'job-abc-1-ff');
    assert.equal(keptStem('../x/y'), '___x_y');
  });
});
