import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finishRetired, pendingJobsOf, removeProfile, type ProfileRemoval } from '../../../src/auth/core/profileRetire';
import { runningJobsOf } from '../../../src/videos/core/jobPresentation';
import { recordFromRequest } from '../../../src/videos/core/jobRequest';
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
  const pending = new Map<string, number>([[created.profile.id, 2]]);
  const removal: ProfileRemoval = { store, keys, originOf: () => 'https://a.example', runningJobs: (id) => pending.get(id) ?? 0 };
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
    pending.set(id, 0);
    assert.deepEqual(await finishRetired(removal), ['Work']);
    assert.equal(store.all.some((p) => p.id === id), false);
    assert.equal(await keys.get(slot), undefined);
    assert.deepEqual(await finishRetired(removal), [], 'a second sweep (another window) finds nothing to do');
  });

  it('removes a profile with its key on an earlier origin too, and leaves profiles that are not retired alone', async () => {
    const { store, keys, slot, pending, removal, id } = await setUp();
    const earlier = keySlot(id, 'https://old.example');
    await keys.set(earlier, 'sk-old-1234567890');
    pending.set(id, 0);
    assert.deepEqual(await finishRetired(removal), [], 'Work is not retired');
    const profile = store.get(id)!;
    assert.ok((await removeProfile(profile, removal)).ok);
    assert.equal(await keys.get(slot), undefined);
    assert.equal(await keys.get(earlier), undefined);
  });

  it("counts a profile's jobs by its id, not its host: a job on the URL it had before keeps it (and that key) until it ends", async () => {
    const { store, keys, id } = await setUp();
    const oldSlot = keySlot(id, 'https://a.example');
    assert.ok((await store.edit(id, { baseUrl: 'https://moved.example/v1' })).ok);
    await keys.set(keySlot(id, 'https://moved.example'), 'sk-new-1234567890');
    const job = { ...recordFromRequest('k-1', 'https://a.example', { model: 'v', input: { prompt: 'p' } }, 1, id), id: 'job-1', status: 'in_progress' };
    delete job.localState;
    const other = { ...recordFromRequest('k-2', 'https://moved.example', { model: 'v', input: { prompt: 'p' } }, 1), id: 'job-2', status: 'in_progress' };
    delete other.localState;
    const records = [job, other];
    const removal: ProfileRemoval = { store, keys, originOf: () => 'https://moved.example', runningJobs: (profileId) => runningJobsOf(records, profileId) };
    assert.equal(pendingJobsOf(store.get(id)!, removal), 1, "the job on the old host is the profile's; Default's job on the new host is not");
    assert.equal(runningJobsOf(records, 'default'), 1, 'a record without a profile is Default\'s');
    await store.retire(id);
    assert.deepEqual(await finishRetired(removal), []);
    assert.equal(await keys.get(oldSlot), 'sk-work-1234567890', 'the key the old host\'s job is polled with stays');
    job.status = 'completed';
    assert.deepEqual(await finishRetired(removal), ['Work']);
    assert.equal(await keys.get(oldSlot), undefined);
    assert.equal(await keys.get(keySlot(id, 'https://moved.example')), undefined);
  });
});
