import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finishRetired, removeProfile, type ProfileRemoval } from '../../../src/auth/core/profileRetire';
import { ProfileStore, PROFILES_FILE } from '../../../src/auth/core/profileStore';
import { keySlot } from '../../../src/settings/profile';
import { realClock } from '../../../src/util/clock';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { memoryKeys } from '../connection/memoryKeys';

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'mg-retire-'));
  let n = 0;
  const store = new ProfileStore(new NodeFileSystem(dir), realClock, () => `p-${++n}`);
  await store.load(false);
  const created = await store.create({ name: 'Work', baseUrl: 'https://a.example/v1' });
  assert.ok(created.ok);
  const keys = memoryKeys();
  const slot = keySlot(created.profile.id, 'https://a.example');
  await keys.set(slot, 'sk-work-1234567890');
  const pending = new Map<string, number>([[slot, 2]]);
  const removal: ProfileRemoval = { store, keys, originOf: () => 'https://a.example', slotOf: (id) => keySlot(id, 'https://a.example'), runningJobs: (s) => pending.get(s) ?? 0 };
  return { dir, store, keys, slot, pending, removal, id: created.profile.id };
}

describe('profiles: deleting one whose video jobs still run', () => {
  it('retires it: hidden at once, its name free again, the flag written to the file and read back', async () => {
    const { dir, store, id } = await setUp();
    assert.ok((await store.retire(id)).ok);
    assert.deepEqual(store.profiles.map((p) => p.name), ['Default']);
    assert.equal(store.all.find((p) => p.id === id)?.retired, true);
    const again = await store.create({ name: 'Work', baseUrl: 'https://b.example/v1' });
    assert.ok(again.ok, 'a new profile may take the retired one\'s name');
    const reread = new ProfileStore(new NodeFileSystem(dir), realClock);
    await reread.load(false);
    assert.equal(reread.all.find((p) => p.id === id)?.retired, true);
    assert.match(readFileSync(join(dir, PROFILES_FILE), 'utf8'), /"retired": true/);
  });

  it('keeps the profile and its key while a job is pending, and removes both when the last one ends', async () => {
    const { store, keys, slot, pending, removal, id } = await setUp();
    await store.retire(id);
    assert.deepEqual(await finishRetired(removal), []);
    assert.equal(await keys.get(slot), 'sk-work-1234567890', 'the jobs are still polled with it');
    pending.set(slot, 0);
    assert.deepEqual(await finishRetired(removal), ['Work']);
    assert.equal(store.all.some((p) => p.id === id), false);
    assert.equal(await keys.get(slot), undefined);
    assert.deepEqual(await finishRetired(removal), [], 'a second sweep (another window) finds nothing to do');
  });

  it('removes a profile with its key on an earlier origin too, and leaves profiles that are not retired alone', async () => {
    const { store, keys, slot, pending, removal, id } = await setUp();
    const earlier = keySlot(id, 'https://old.example');
    await keys.set(earlier, 'sk-old-1234567890');
    pending.set(slot, 0);
    assert.deepEqual(await finishRetired(removal), [], 'Work is not retired');
    const profile = store.get(id)!;
    assert.ok((await removeProfile(profile, removal)).ok);
    assert.equal(await keys.get(slot), undefined);
    assert.equal(await keys.get(earlier), undefined);
  });
});
