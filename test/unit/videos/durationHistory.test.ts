import * as assert from 'node:assert/strict';
import { DurationHistory, MemoryJsonStore, type JsonStore } from '../../../src/videos/core/durationHistory';

const A = 'https://a.example';
const B = 'https://b.example';
const KIND = { origin: A, model: 'video-1', resolution: '720p', duration: 4 };

describe('DurationHistory', () => {
  it('returns the durations of one origin, model, resolution and duration, oldest first', async () => {
    const history = new DurationHistory({ store: new MemoryJsonStore() });
    await history.load();
    history.record(KIND, { ms: 90_000, at: 1 });
    history.record({ ...KIND, resolution: '1080p' }, { ms: 200_000, at: 2 });
    history.record({ ...KIND, duration: 8 }, { ms: 150_000, at: 3 });
    history.record({ ...KIND, model: 'video-2' }, { ms: 40_000, at: 4 });
    history.record({ ...KIND, origin: B }, { ms: 10_000, at: 5 });
    history.record(KIND, { ms: 95_000, at: 6 });
    assert.deepEqual(history.durationsMs(KIND), [90_000, 95_000]);
    assert.deepEqual(history.durationsMs({ ...KIND, resolution: '1080p' }), [200_000]);
    assert.deepEqual(history.durationsMs({ origin: A, model: 'video-1' }), [], 'no parameters is a kind of its own');
  });

  it('keeps the last 50 completions per origin and model', async () => {
    const history = new DurationHistory({ store: new MemoryJsonStore() });
    await history.load();
    for (let i = 0; i < 70; i++) history.record(KIND, { ms: 1_000 + i, at: i });
    const kept = history.durationsMs(KIND);
    assert.equal(kept.length, 50);
    assert.deepEqual(kept.slice(0, 2), [1_020, 1_021]);
    assert.equal(kept.at(-1), 1_069);
  });

  it('persists as JSON and comes back in a new instance', async () => {
    const store = new MemoryJsonStore();
    const first = new DurationHistory({ store });
    await first.load();
    first.record(KIND, { ms: 80_000, at: 10, id: 'vid_1' });
    first.record(KIND, { ms: 82_000, at: 20, id: 'vid_2' });
    await first.flush();
    assert.deepEqual(store.value, {
      version: 1,
      origins: { [A]: { 'video-1': [
        { ms: 80_000, at: 10, resolution: '720p', duration: 4, id: 'vid_1' },
        { ms: 82_000, at: 20, resolution: '720p', duration: 4, id: 'vid_2' },
      ] } },
    });
    const second = new DurationHistory({ store });
    await second.load();
    assert.deepEqual(second.durationsMs(KIND), [80_000, 82_000]);
  });

  it('keeps what another window saved meanwhile, and counts one job once', async () => {
    const store = new MemoryJsonStore();
    const windowA = new DurationHistory({ store });
    const windowB = new DurationHistory({ store });
    await Promise.all([windowA.load(), windowB.load()]);
    windowA.record(KIND, { ms: 80_000, at: 10, id: 'vid_a' });
    await windowA.flush();
    windowB.record(KIND, { ms: 81_000, at: 11, id: 'vid_b' });
    windowB.record(KIND, { ms: 80_000, at: 12, id: 'vid_a' }); // the same completion, seen by B too
    await windowB.flush();
    const reread = new DurationHistory({ store });
    await reread.load();
    assert.deepEqual(reread.durationsMs(KIND).sort(), [80_000, 81_000]);
  });

  it('keeps samples recorded before the stored ones were read', async () => {
    const store = new MemoryJsonStore({ version: 1, origins: { [A]: { 'video-1': [{ ms: 70_000, at: 1, resolution: '720p', duration: 4 }] } } });
    const history = new DurationHistory({ store });
    history.record(KIND, { ms: 75_000, at: 2 });
    await history.load();
    await history.flush();
    assert.deepEqual(history.durationsMs(KIND), [70_000, 75_000]);
  });

  it('reads a damaged or hostile file field by field: what is malformed is dropped, the rest kept', async () => {
    const good = { ms: 60_000, at: 5, resolution: '720p', duration: 4 };
    const stored = JSON.parse(
      JSON.stringify({
        version: 1,
        origins: {
          [A]: {
            'video-1': [good, { ms: -1, at: 1 }, { ms: 'slow', at: 1 }, { ms: 1e15, at: 1 }, { ms: 1_000, at: 'x' }, { ms: 1_000, at: 2, resolution: 7 }, null, 'x'],
            'video-2': 'not a list',
            ['m'.repeat(201)]: [good],
          },
          [B]: [],
        },
      }),
    );
    // A JSON file can carry this key, and JSON.parse makes it an own property, as here.
    Object.defineProperty(stored.origins, '__proto__', { value: { 'video-1': [good] }, enumerable: true, configurable: true, writable: true });
    const store = new MemoryJsonStore(stored);
    const history = new DurationHistory({ store });
    await history.load();
    assert.deepEqual(history.durationsMs(KIND), [60_000]);
    assert.deepEqual(history.durationsMs({ ...KIND, origin: '__proto__' }), [60_000]);
    assert.equal(({} as Record<string, unknown>)['video-1'], undefined, 'no prototype was touched');
    history.record(KIND, { ms: 61_000, at: 6 });
    await history.flush();
    const saved = store.value as { origins: Record<string, unknown> };
    assert.deepEqual(Object.keys(saved.origins).sort(), [A, '__proto__'].sort());

    for (const junk of [undefined, null, 'text', [], { version: 2, origins: {} }, { version: 0, origins: {} }, { version: 1, origins: [] }]) {
      const empty = new DurationHistory({ store: new MemoryJsonStore(junk) });
      await empty.load();
      assert.deepEqual(empty.durationsMs(KIND), []);
    }
  });

  it('writes back unchanged the members a newer version added, per sample and at the top level', async () => {
    const newer = { ms: 60_000, at: 5, resolution: '720p', duration: 4, id: 'vid_n', queueMs: 12_000, gpu: { kind: 'h100', count: 2 } };
    const store = new MemoryJsonStore({ version: 1, origins: { [A]: { 'video-1': [newer] } }, learnedAt: 7, weights: [0.5, 0.25] });
    const history = new DurationHistory({ store });
    await history.load();
    assert.deepEqual(history.durationsMs(KIND), [60_000]);
    history.record(KIND, { ms: 61_000, at: 6, id: 'vid_o' });
    await history.flush();
    assert.deepEqual(store.value, {
      version: 1,
      origins: { [A]: { 'video-1': [newer, { ms: 61_000, at: 6, resolution: '720p', duration: 4, id: 'vid_o' }] } },
      learnedAt: 7,
      weights: [0.5, 0.25],
    });
  });

  it('keeps a newer version\'s members of a completion this window recorded too', async () => {
    const store = new MemoryJsonStore();
    const older = new DurationHistory({ store });
    await older.load();
    older.record(KIND, { ms: 80_000, at: 10, id: 'vid_a' });
    await older.flush();
    // A newer version's window saw the same completion and added what it knows about it.
    const written = store.value as { origins: Record<string, Record<string, Array<Record<string, unknown>>>> };
    written.origins[A]['video-1'][0].queueMs = 9_000;
    await store.save(written);
    older.record(KIND, { ms: 81_000, at: 11, id: 'vid_b' });
    await older.flush();
    const saved = store.value as typeof written;
    assert.deepEqual(saved.origins[A]['video-1'].map((s) => s.queueMs), [9_000, undefined]);
  });

  it('leaves a newer version\'s file as it is, and says so once', async () => {
    const file = { version: 2, origins: { [A]: { 'video-1': [{ ms: 60_000, at: 5 }] } }, other: true };
    const store = new MemoryJsonStore(file);
    const errors: unknown[] = [];
    const history = new DurationHistory({ store, onError: (error) => errors.push(error) });
    await history.load();
    history.record(KIND, { ms: 61_000, at: 6 });
    await history.flush();
    history.record(KIND, { ms: 62_000, at: 7 });
    await history.flush();
    assert.deepEqual(store.value, file);
    assert.equal(store.saves, 0);
    assert.deepEqual(history.durationsMs(KIND), [61_000, 62_000], 'this window still learns, in memory');
    assert.deepEqual(errors.map(String), ['Error: the video duration history is from a newer version (2): left as it is']);
  });

  it('reports a store that fails and carries on from memory', async () => {
    const errors: unknown[] = [];
    const failing: JsonStore = {
      load: () => Promise.reject(new Error('unreadable')),
      save: () => Promise.reject(new Error('disk full')),
    };
    const history = new DurationHistory({ store: failing, onError: (e) => errors.push(e) });
    await history.load();
    history.record(KIND, { ms: 50_000, at: 1 });
    await history.flush();
    assert.deepEqual(history.durationsMs(KIND), [50_000]);
    assert.deepEqual(errors.map(String), ['Error: unreadable', 'Error: unreadable', 'Error: disk full']);
  });

  it('refuses samples it could not use', async () => {
    const history = new DurationHistory({ store: new MemoryJsonStore() });
    await history.load();
    history.record(KIND, { ms: 0, at: 1 });
    history.record(KIND, { ms: Number.NaN, at: 1 });
    history.record({ ...KIND, model: '' }, { ms: 1_000, at: 1 });
    assert.deepEqual(history.durationsMs(KIND), []);
  });
});
