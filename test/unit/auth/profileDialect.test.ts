import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dialectChoices } from '../../../src/auth/core/profileDialect';
import { ProfileStore } from '../../../src/auth/core/profileStore';
import { exportProfiles, planImport } from '../../../src/auth/core/profileTransfer';
import { defaultProfile, type Profile } from '../../../src/settings/profile';
import { DIALECT_SETTINGS } from '../../../src/settings/profileCheck';
import { realClock } from '../../../src/util/clock';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';

const gateway = { baseUrl: 'https://settings.example/v1', headers: {} };

async function emptyStore(): Promise<ProfileStore> {
  let n = 0;
  const store = new ProfileStore(new NodeFileSystem(mkdtempSync(join(tmpdir(), 'mg-dialect-'))), realClock, () => `p-${++n}`);
  await store.load(false);
  return store;
}

describe('profiles: the video dialect', () => {
  it('offers every setting with a word on each, the current one marked (auto when the profile sets none)', () => {
    const items = dialectChoices(undefined);
    assert.deepEqual(items.map((item) => item.id), [...DIALECT_SETTINGS]);
    assert.ok(items.every((item) => item.detail.length > 10));
    assert.deepEqual(items.filter((item) => item.description).map((item) => item.id), ['auto']);
    assert.deepEqual(dialectChoices('xai').filter((item) => item.description).map((item) => item.id), ['xai']);
  });

  it('Edit Profile stores the dialect chosen, and another edit keeps it', async () => {
    const store = await emptyStore();
    const created = await store.create({ name: 'Router', baseUrl: 'https://router.example/v1' });
    assert.ok(created.ok);
    assert.equal(created.profile.dialect, undefined);
    const edited = await store.edit(created.profile.id, { dialect: 'openrouter' });
    assert.ok(edited.ok && edited.profile.dialect === 'openrouter');
    const renamed = await store.edit(created.profile.id, { monthlyBudget: 5 });
    assert.ok(renamed.ok && renamed.profile.dialect === 'openrouter');
  });

  it('export carries the dialect and import takes it back; a profile without one imports as auto', async () => {
    const router: Profile = { id: 'p-r', name: 'Router', baseUrl: 'https://router.example/v1', headers: {}, models: {}, dialect: 'openrouter' };
    const plain: Profile = { id: 'p-p', name: 'Plain', baseUrl: 'https://plain.example/v1', headers: {}, models: {} };
    const text = exportProfiles([defaultProfile(), router, plain], gateway);
    assert.equal(JSON.parse(text).profiles[1].dialect, 'openrouter');
    const plan = planImport(text, []);
    assert.ok(plan.ok);
    assert.deepEqual(plan.left, []);
    const store = await emptyStore();
    const { added, problems } = await store.addAll(plan.incoming.filter((p) => p.name !== 'Default'));
    assert.deepEqual(problems, []);
    assert.deepEqual(added.map((p) => [p.name, p.dialect]), [['Router', 'openrouter'], ['Plain', undefined]]);
    assert.equal(added[0].unknown, undefined, 'the dialect is a field of its own, not an unknown one');
  });

  it('refuses to import a profile whose dialect this version does not know, saying which values it takes', async () => {
    const text = JSON.stringify({ format: 'modelGateway.profiles', version: 1, profiles: [{ name: 'Future', baseUrl: 'https://f.example/v1', dialect: 'runway' }, { name: 'Fine', baseUrl: 'https://g.example/v1', dialect: 'xai' }] });
    const plan = planImport(text, []);
    assert.ok(plan.ok);
    const store = await emptyStore();
    const { added, problems } = await store.addAll(plan.incoming);
    assert.deepEqual(added.map((p) => p.name), ['Fine']);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^Future: A profile's dialect is one of auto, spec, openai, openrouter, xai, dashscope, not "runway"/);
  });
});
