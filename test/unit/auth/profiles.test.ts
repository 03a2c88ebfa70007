import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editDefaultModels } from '../../../src/auth/core/profileModels';
import { ProfileStore, PROFILES_FILE } from '../../../src/auth/core/profileStore';
import { exportProfiles, planImport, resolveImport } from '../../../src/auth/core/profileTransfer';
import { defaultProfile, findProfile, keySlot, settingsForProfile, slotOrigin, type Profile } from '../../../src/settings/profile';
import { checkProfileInput } from '../../../src/settings/profileCheck';
import { readSettings } from '../../../src/settings/settings';
import { realClock } from '../../../src/util/clock';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';

const work: Profile = { id: 'p-work', name: 'Work', baseUrl: 'https://work.example/v1', headers: {}, models: {} };

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'mg-profiles-'));
}

let ids = 0;
function store(dir: string): ProfileStore {
  return new ProfileStore(new NodeFileSystem(dir), realClock, () => `p-${++ids}`);
}

describe('profiles: checks', () => {
  it('refuses a duplicate name, whatever its case, naming the profile that has it', () => {
    const check = checkProfileInput({ name: ' work ', baseUrl: 'https://other.example/v1' }, [defaultProfile(), work]);
    assert.deepEqual(check, { ok: false, problem: 'A profile named "Work" exists already; choose another name.' });
    assert.equal(checkProfileInput({ name: 'Work', baseUrl: 'https://w.example/v1' }, [work], work.id).ok, true, 'its own name is not a clash');
  });

  it('refuses a missing, malformed or non-http(s) URL and says what to give', () => {
    assert.match((checkProfileInput({ name: 'A' }, []) as { problem: string }).problem, /needs the gateway's URL/);
    assert.match((checkProfileInput({ name: 'A', baseUrl: 'not a url' }, []) as { problem: string }).problem, /is not a URL/);
    assert.match((checkProfileInput({ name: 'A', baseUrl: 'file:///etc/passwd' }, []) as { problem: string }).problem, /must use http or https/);
    assert.match((checkProfileInput({ name: 'A', baseUrl: 'https://u:p@x.example/v1' }, []) as { problem: string }).problem, /user name or password/);
  });

  it('refuses headers that set Authorization, Host or Cookie', () => {
    for (const header of ['Authorization', 'host', 'Cookie']) {
      const check = checkProfileInput({ name: 'A', baseUrl: 'https://a.example/v1', headers: { [header]: 'x' } }, []);
      assert.equal(check.ok, false, header);
      assert.match((check as { problem: string }).problem, /reserved.*Set API Key/);
    }
    const ok = checkProfileInput({ name: 'A', baseUrl: 'https://a.example/v1/', headers: { 'X-Team': 'blue' }, models: { chat: 'm-1', bogus: 'x' }, monthlyBudget: 20 }, []);
    assert.deepEqual(ok, { ok: true, fields: { name: 'A', baseUrl: 'https://a.example/v1', headers: { 'X-Team': 'blue' }, models: { chat: 'm-1' }, monthlyBudget: 20 } });
  });

  it('gives Default the slot keys had before profiles, and any other profile a slot of its own per origin', () => {
    assert.equal(keySlot('default', 'https://a.example'), 'https://a.example');
    assert.equal(keySlot('p-1', 'https://a.example'), 'profile/p-1/https://a.example');
    assert.notEqual(keySlot('p-1', 'https://a.example'), keySlot('p-2', 'https://a.example'));
    assert.equal(slotOrigin(keySlot('p-1', 'https://a.example')), 'https://a.example');
  });

  it('finds a profile by id, else by name', () => {
    assert.equal(findProfile([defaultProfile(), work], 'p-work'), work);
    assert.equal(findProfile([defaultProfile(), work], 'WORK'), work);
    assert.equal(findProfile([defaultProfile(), work], 'nobody'), undefined);
  });

  it("lays a profile's gateway and default models over the settings; Default is the settings", () => {
    const settings = readSettings({ userValue: (key) => ({ 'modelGateway.baseUrl': 'https://settings.example/v1', 'modelGateway.chat.model': 'm-set' } as Record<string, unknown>)[key] as never, value: () => undefined });
    assert.deepEqual(settingsForProfile(settings, defaultProfile()).gateway, settings.gateway);
    const mine = settingsForProfile(settings, { ...work, headers: { 'X-A': '1' }, models: { chat: 'm-work', image: 'img-work' } });
    assert.equal(mine.gateway.origin, 'https://work.example');
    assert.deepEqual(mine.gateway.headers, { 'X-A': '1' });
    assert.equal(mine.gateway.timeoutMs, settings.gateway.timeoutMs);
    assert.equal(mine.chat.model, 'm-work');
    assert.equal(mine.media.imageModel, 'img-work');
    assert.equal(mine.video.model, settings.video.model);
  });
});

describe('profiles: the store', () => {
  it('creates the list with Default on first start, and keeps unknown fields of the file and of each profile', async () => {
    const dir = folder();
    const first = store(dir);
    assert.deepEqual((await first.load(false)).map((p) => p.name), ['Default']);
    const text = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8'));
    text.future = { kept: true };
    text.profiles.push({ id: 'p-new', name: 'Newer', baseUrl: 'https://n.example/v1', headers: {}, models: {}, colour: 'teal' });
    writeFileSync(join(dir, PROFILES_FILE), JSON.stringify(text));
    const second = store(dir);
    await second.load(false);
    assert.equal((await second.create({ name: 'Work', baseUrl: 'https://work.example/v1' })).ok, true);
    const after = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8'));
    assert.deepEqual(after.future, { kept: true });
    assert.equal(after.profiles.find((p: { id: string }) => p.id === 'p-new').colour, 'teal');
    assert.deepEqual(after.profiles.map((p: { name: string }) => p.name), ['Default', 'Newer', 'Work']);
  });

  it('loses no change when two windows create profiles at once', async () => {
    const dir = folder();
    const windows = [store(dir), store(dir), store(dir)];
    await Promise.all(windows.map((w) => w.load(false)));
    const results = await Promise.all(windows.flatMap((w, i) => [w.create({ name: `A${i}`, baseUrl: 'https://a.example/v1' }), w.create({ name: `B${i}`, baseUrl: 'https://b.example/v1' })]));
    assert.ok(results.every((r) => r.ok));
    const names = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8')).profiles.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(names, ['A0', 'A1', 'A2', 'B0', 'B1', 'B2', 'Default']);
  });

  it("changes only the fields asked for: another window's edit made meanwhile stays (rename, default models)", async () => {
    const dir = folder();
    const [a, b] = [store(dir), store(dir)];
    await a.load(false);
    const created = await a.create({ name: 'Work', baseUrl: 'https://work.example/v1' });
    assert.ok(created.ok);
    await b.load(false); // b reads the list, then a changes the URL and b (not told yet) renames and sets a model
    const id = created.profile.id;
    assert.ok((await a.edit(id, { ...a.get(id)!, baseUrl: 'https://moved.example/v1', headers: { 'X-Team': 'blue' }, monthlyBudget: 25 })).ok);
    const stored = () => JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8')).profiles.find((p: { id: string }) => p.id === id);
    assert.ok((await b.rename(id, 'Office')).ok);
    assert.deepEqual([stored().name, stored().baseUrl, stored().headers, stored().monthlyBudget], ['Office', 'https://moved.example/v1', { 'X-Team': 'blue' }, 25], "the rename kept a's URL, headers and budget");
    assert.ok((await b.edit(id, { models: { chat: 'model-k3' } })).ok);
    assert.deepEqual([stored().name, stored().baseUrl, stored().models], ['Office', 'https://moved.example/v1', { chat: 'model-k3' }]);
    assert.ok((await a.edit(id, { monthlyBudget: undefined })).ok);
    assert.equal(a.get(id)?.monthlyBudget, undefined, 'an explicit undefined clears the budget (the setting applies again)');
  });

  it("Default Models of …: setting one kind keeps another window's change to another kind, made while the menu was open", async () => {
    const dir = folder();
    const [a, b] = [store(dir), store(dir)];
    await a.load(false);
    const created = await a.create({ name: 'Work', baseUrl: 'https://work.example/v1', models: { video: 'vid-1' } });
    assert.ok(created.ok);
    const id = created.profile.id;
    await b.load(false);
    const kinds = ['chat', undefined];
    const ui = {
      pickItem: async () => kinds.shift(),
      input: async () => {
        // The other window sets the image model and clears the video one while this menu waits for the typing.
        assert.ok((await a.setModel(id, 'image', 'img-2')).ok);
        assert.ok((await a.setModel(id, 'video', '')).ok);
        return 'model-k3';
      },
      notify: () => assert.fail('no error expected'),
    };
    assert.equal(await editDefaultModels(b.get(id)!, b, ui), true);
    const stored = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8')).profiles.find((p: { id: string }) => p.id === id);
    assert.deepEqual(stored.models, { chat: 'model-k3', image: 'img-2' });
  });

  it('sets a damaged list aside, says where, and never writes over it', async () => {
    const dir = folder();
    writeFileSync(join(dir, PROFILES_FILE), '{"profiles": [{"id": "p-1", "name": "Half"');
    const s = store(dir);
    const asides: string[] = [];
    s.onDidSetAside((path) => asides.push(path));
    assert.deepEqual((await s.load(false)).map((p) => p.name), ['Default']);
    assert.equal(asides.length, 1);
    assert.equal(readFileSync(asides[0], 'utf8'), '{"profiles": [{"id": "p-1", "name": "Half"', 'the damaged text is kept as it was');
    assert.ok(readdirSync(dir).includes(PROFILES_FILE));
  });

  it('renames, duplicates without clashing, refuses duplicate names and never deletes Default', async () => {
    const s = store(folder());
    await s.load(false);
    const created = await s.create({ name: 'Work', baseUrl: 'https://work.example/v1', headers: { 'X-T': '1' } });
    assert.ok(created.ok);
    const copy = await s.duplicate(created.profile.id);
    assert.ok(copy.ok);
    assert.equal(copy.profile.name, 'Work (2)');
    assert.deepEqual(copy.profile.headers, { 'X-T': '1' });
    assert.deepEqual(await s.rename(copy.profile.id, 'work'), { ok: false, problem: 'A profile named "Work" exists already; choose another name.' });
    assert.equal((await s.rename(copy.profile.id, 'Client')).ok, true);
    assert.equal((await s.delete('default')).ok, false);
    assert.equal((await s.delete(copy.profile.id)).ok, true);
    assert.deepEqual(s.profiles.map((p) => p.name), ['Default', 'Work']);
  });
});

describe('profiles: export and import', () => {
  it('exports without ids or keys, with the settings as Default, and imports without overwriting', () => {
    const text = exportProfiles([defaultProfile(), { ...work, unknown: { colour: 'teal' } }], { baseUrl: 'https://settings.example/v1', headers: { 'X-S': '1' } });
    assert.doesNotMatch(text, /p-work|apiKey|sk-/);
    const plan = planImport(text, [defaultProfile(), work]);
    assert.ok(plan.ok);
    assert.deepEqual(plan.clashes, ['Default', 'Work']);
    assert.deepEqual(resolveImport(plan.incoming, [defaultProfile(), work], 'skip'), []);
    const copies = resolveImport(plan.incoming, [defaultProfile(), work], 'copy');
    assert.deepEqual(copies.map((p) => p.name), ['Default (2)', 'Work (2)']);
    assert.equal(copies[0].baseUrl, 'https://settings.example/v1');
    assert.deepEqual(copies[1].unknown, { colour: 'teal' });
  });

  it('takes only the fields it knows: an import can neither retire a profile nor give it an id or a key', async () => {
    const text = JSON.stringify({ format: 'modelGateway.profiles', version: 1, profiles: [{ name: 'Sly', baseUrl: 'https://sly.example/v1', retired: true, id: 'default', apiKey: 'sk-x', unknown: { retired: true }, colour: 'teal' }] });
    const plan = planImport(text, [defaultProfile()]);
    assert.ok(plan.ok);
    assert.deepEqual(plan.incoming[0].unknown, { colour: 'teal' });
    assert.deepEqual(plan.left, ['Sly: retired, apiKey, unknown']);
    const dir = folder();
    const s = store(dir);
    await s.load(false);
    const { added } = await s.addAll([...plan.incoming, { name: 'Direct', baseUrl: 'https://d.example/v1', unknown: { retired: true, shade: 1 } }]);
    assert.deepEqual(added.map((p) => p.name), ['Sly', 'Direct']);
    const stored = JSON.parse(readFileSync(join(dir, PROFILES_FILE), 'utf8')).profiles;
    assert.ok(stored.every((p: { retired?: boolean }) => p.retired === undefined), 'no profile was retired by the import');
    assert.deepEqual(s.profiles.map((p) => p.name), ['Default', 'Sly', 'Direct']);
    assert.equal(stored[2].shade, 1);
  });

  it('keeps unknown fields of an import only within a bound, so the list it writes is one every window reads back', async () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 120; i++) deep = [deep];
    const profiles = Array.from({ length: 200 }, (_, i) => ({ name: `P${i}`, baseUrl: 'https://p.example/v1', nested: deep, wide: 'w'.repeat(4100), small: i }));
    const text = JSON.stringify({ format: 'modelGateway.profiles', version: 1, profiles });
    assert.ok(text.length < 1024 * 1024, 'an export small enough to import');
    const plan = planImport(text, [defaultProfile()]);
    assert.ok(plan.ok);
    assert.deepEqual(plan.incoming[0].unknown, { small: 0 });
    const dir = folder();
    const s = store(dir);
    await s.load(false);
    assert.equal((await s.addAll(plan.incoming)).added.length, 200);
    const next = store(dir);
    const asides: string[] = [];
    next.onDidSetAside((path) => asides.push(path));
    assert.equal((await next.load(false)).length, 201, 'the next window reads every profile');
    assert.deepEqual(asides, []);
  });

  it('refuses a change that would write a list larger than it reads back, and leaves the list as it was', async () => {
    const dir = folder();
    const s = store(dir);
    await s.load(false);
    assert.ok((await s.create({ name: 'Work', baseUrl: 'https://work.example/v1' })).ok);
    const headers = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`X-H${i}`, 'v'.repeat(1000)]));
    const inputs = Array.from({ length: 40 }, (_, i) => ({ name: `Big${i}`, baseUrl: 'https://big.example/v1', headers }));
    const result = await s.addAll(inputs);
    assert.deepEqual(result.added, []);
    assert.match(result.problems[0], /past 1 MB/);
    const next = store(dir);
    assert.deepEqual((await next.load(false)).map((p) => p.name), ['Default', 'Work']);
  });

  it('refuses what is not an export, plainly', () => {
    assert.match((planImport('nope', []) as { problem: string }).problem, /not JSON/);
    assert.match((planImport('{"profiles": []}', []) as { problem: string }).problem, /not a profile export/);
  });
});
