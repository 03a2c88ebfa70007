import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiKeyStore } from '../../../src/auth/core/apiKeyStore';
import { UnfilledHeaderNotice } from '../../../src/auth/core/headerNotice';
import { moveProfileHeaders, moveSettingHeaders, setHeaderValues } from '../../../src/auth/core/headerSecrets';
import { ProfileStore, PROFILES_FILE } from '../../../src/auth/core/profileStore';
import { removeProfile } from '../../../src/auth/core/profileRetire';
import { planImport } from '../../../src/auth/core/profileTransfer';
import { keySlot } from '../../../src/settings/profile';
import { realClock } from '../../../src/util/clock';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { memoryKeys } from '../connection/memoryKeys';

const SECRET = 'helicone-7f3a9c';

async function listWithValues() {
  const dir = mkdtempSync(join(tmpdir(), 'mg-headers-'));
  let n = 0;
  const store = new ProfileStore(new NodeFileSystem(dir), realClock, () => `p-${++n}`);
  await store.load(false);
  // What an earlier version wrote: the values in the list.
  const created = await store.create({ name: 'Work', baseUrl: 'https://a.example/v1', headers: { 'Helicone-Auth': SECRET, 'X-Team': 'blue' } });
  assert.ok(created.ok);
  return { dir, store, id: created.profile.id, slot: keySlot(created.profile.id, 'https://a.example'), file: () => readFileSync(join(dir, PROFILES_FILE), 'utf8') };
}

describe('header values: kept in SecretStorage with the key', () => {
  it('moves the values out of the profile list into the profile\'s slot, keeping the names', async () => {
    const { store, id, slot, file } = await listWithValues();
    const keys = memoryKeys();
    assert.equal(await moveProfileHeaders(store, keys), 1);
    assert.doesNotMatch(file(), /helicone-7f3a9c|blue/, 'no value is left in profiles.json');
    assert.deepEqual(store.get(id)?.headers, { 'Helicone-Auth': '', 'X-Team': '' });
    assert.deepEqual(await keys.headerValues(slot), { 'Helicone-Auth': SECRET, 'X-Team': 'blue' });
    assert.deepEqual(await keys.headerValues(keySlot('default', 'https://a.example')), {}, 'only that profile\'s slot holds them');
    assert.equal(await moveProfileHeaders(store, keys), 0, 'a second window finds nothing to move');
  });

  it('blanks nothing whose value did not read back from SecretStorage, and keeps a value changed meanwhile', async () => {
    const { store, id, file } = await listWithValues();
    // A keyring that takes nothing: the values stay where they are (and are still sent from there).
    const forgetful = new ApiKeyStore({ get: async () => undefined, store: async () => undefined, delete: async () => undefined }, { get: () => undefined, update: async () => undefined });
    await moveProfileHeaders(store, forgetful);
    assert.match(file(), /helicone-7f3a9c/);
    // Another window set a new value after this one read the old one: only the value moved is blanked.
    await store.edit(id, { headers: { 'Helicone-Auth': 'newer', 'X-Team': 'blue' } });
    await store.blankHeaderValues(id, { 'Helicone-Auth': SECRET, 'X-Team': 'blue' });
    assert.deepEqual(store.get(id)?.headers, { 'Helicone-Auth': 'newer', 'X-Team': '' });
  });

  it('moves the requestHeaders setting\'s values to the Default slot of its origin, and leaves what it does not read', async () => {
    const keys = memoryKeys();
    let setting: unknown = { 'api-key': 'azure-1', 'X-Empty': '', Authorization: 'Bearer x', 'X-Num': 3 };
    const writes: unknown[] = [];
    const source = { read: () => setting, write: async (value: Record<string, unknown>) => void writes.push((setting = value)) };
    assert.deepEqual(await moveSettingHeaders(source, undefined, keys), [], 'no URL, no slot: the values stay in the setting');
    assert.deepEqual(await moveSettingHeaders(source, 'https://a.example', keys), ['api-key']);
    assert.deepEqual(setting, { 'api-key': '', 'X-Empty': '', Authorization: 'Bearer x', 'X-Num': 3 });
    assert.deepEqual(await keys.headerValues('https://a.example'), { 'api-key': 'azure-1' });
    assert.deepEqual(await moveSettingHeaders(source, 'https://a.example', keys), []);
    assert.equal(writes.length, 1, 'the setting is written once, never with a value');
  });

  it('removes a deleted profile\'s header values on every origin it had, with its key', async () => {
    const { store, id, slot } = await listWithValues();
    const keys = memoryKeys();
    await setHeaderValues(keys, slot, { 'X-Team': 'blue' });
    await setHeaderValues(keys, keySlot(id, 'https://old.example'), { 'X-Team': 'old' });
    await setHeaderValues(keys, keySlot('p-other', 'https://a.example'), { 'X-Team': 'theirs' });
    assert.ok((await removeProfile(store.get(id)!, { store, keys, originOf: () => 'https://a.example' })).ok);
    assert.deepEqual([await keys.headerValues(slot), await keys.headerValues(keySlot(id, 'https://old.example'))], [{}, {}]);
    assert.deepEqual(await keys.headerValues(keySlot('p-other', 'https://a.example')), { 'X-Team': 'theirs' });
  });

  it('imports header names only, each empty, even from a file that holds values', () => {
    const text = JSON.stringify({ format: 'modelGateway.profiles', version: 1, profiles: [{ name: 'Old', baseUrl: 'https://a.example/v1', headers: { 'x-api-key': 'leaked-1' } }] });
    const plan = planImport(text, []);
    assert.ok(plan.ok);
    assert.deepEqual(plan.incoming[0].headers, { 'x-api-key': '' });
  });

  it('tells the user once which headers have no value and where to fill them in', async () => {
    const told: Array<[string, string[]]> = [];
    const filled: string[] = [];
    const notice = new UnfilledHeaderNotice({ notify: async (_kind, message, ...actions) => (told.push([message, actions]), actions[0]), nameOf: (id) => (id === 'p-1' ? 'Work' : id === 'default' ? 'Default' : undefined), fillIn: (id) => void filled.push(id) });
    notice.tell({ profile: 'p-1', origin: 'https://a.example', names: ['X-Team', 'api-key'] });
    notice.tell({ profile: 'p-1', origin: 'https://a.example', names: ['api-key', 'X-Team'] });
    notice.tell({ profile: 'gone', origin: 'https://a.example', names: ['X'] });
    notice.tell({ profile: 'default', origin: 'https://a.example', names: ['X-Team'] });
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(told.length, 2);
    assert.match(told[0][0], /"Work".*"X-Team", "api-key" have no value, so they are not sent to https:\/\/a\.example.*Edit "Work"/);
    assert.deepEqual(told[0][1], ['Edit Profile…']);
    assert.match(told[1][0], /modelGateway\.requestHeaders/);
    assert.deepEqual(filled, ['p-1', 'default']);
  });
});
