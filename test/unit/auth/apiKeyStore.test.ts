import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Memento } from '../../../src/util/memento';
import { ApiKeyStore, validateKeyInput, type SecretBackend } from '../../../src/auth/core/apiKeyStore';
import { applySeededKey, SEED_KEY_ENV } from '../../../src/auth/core/seedKey';

class MemorySecrets implements SecretBackend {
  readonly values = new Map<string, string>();
  async get(key: string) {
    return this.values.get(key);
  }
  async store(key: string, value: string) {
    this.values.set(key, value);
  }
  async delete(key: string) {
    this.values.delete(key);
  }
}

class MemoryMemento implements Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string) {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown) {
    this.values.set(key, value);
  }
}

describe('ApiKeyStore', () => {
  it('keeps one key per origin and never answers with another origin\'s key', async () => {
    const store = new ApiKeyStore(new MemorySecrets(), new MemoryMemento());
    await store.set('https://a.example', 'sk-a');
    assert.equal(await store.get('https://a.example'), 'sk-a');
    assert.equal(await store.get('https://b.example'), undefined);
    assert.equal(await store.get('http://a.example'), undefined, 'scheme is part of the origin');
  });

  it('trims, rejects empty and spaced keys, and warns without refusing when sk- is missing', async () => {
    const store = new ApiKeyStore(new MemorySecrets(), new MemoryMemento());
    assert.deepEqual(await store.set('https://a.example', '   '), { ok: false, reason: 'The API key cannot be empty.' });
    assert.equal((await store.set('https://a.example', 'sk-1 2')).ok, false);
    const result = await store.set('https://a.example', '  key-without-prefix \n');
    assert.equal(result.ok, true);
    assert.match((result as { warning?: string }).warning ?? '', /sk-/);
    assert.equal(await store.get('https://a.example'), 'key-without-prefix');
    assert.deepEqual(validateKeyInput('sk-fine'), { ok: true });
  });

  it('fires a change for the origin on set, clear and another window\'s change, but not for the echo of its own write', async () => {
    const secrets = new MemorySecrets();
    const store = new ApiKeyStore(secrets, new MemoryMemento());
    const seen: string[] = [];
    store.onDidChange((o) => seen.push(o));
    await store.set('https://a.example', 'sk-a');
    await store.notifyExternalChange('modelGateway.apiKey:https://a.example'); // the echo of our own write
    await store.clear('https://a.example');
    await store.notifyExternalChange('modelGateway.apiKey:https://a.example');
    await secrets.store('modelGateway.apiKey:https://b.example', 'sk-from-another-window');
    await store.notifyExternalChange('modelGateway.apiKey:https://b.example');
    await store.notifyExternalChange('someone.else');
    assert.deepEqual(seen, ['https://a.example', 'https://a.example', 'https://b.example']);
  });

  it('notices keys that did not survive a restart (in-memory secret storage) and forgets them once told', async () => {
    const memento = new MemoryMemento();
    const before = new ApiKeyStore(new MemorySecrets(), memento);
    await before.set('https://a.example', 'sk-a');
    await before.set('https://b.example', 'sk-b');
    await before.clear('https://b.example');
    const afterRestart = new ApiKeyStore(new MemorySecrets(), memento); // the secrets were in memory only
    assert.deepEqual(await afterRestart.lostOrigins(), ['https://a.example']);
    await afterRestart.forget(['https://a.example']);
    assert.deepEqual(await afterRestart.lostOrigins(), []);
    assert.ok(!JSON.stringify([...memento.values]).includes('sk-a'), 'the memento never holds a key');
  });

  it('stores a seeded key for a loopback origin only, and only when none is stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-'));
    const store = new ApiKeyStore(new MemorySecrets(), new MemoryMemento());
    const seed = (origin: string, apiKey: string) => {
      const file = join(dir, `${Math.random()}.json`);
      writeFileSync(file, JSON.stringify({ origin, apiKey }));
      return { [SEED_KEY_ENV]: file };
    };
    assert.equal(await applySeededKey(store, seed('https://evil.example', 'sk-x')), undefined);
    assert.equal(await store.get('https://evil.example'), undefined);
    assert.equal(await applySeededKey(store, seed('http://127.0.0.1:8787', 'sk-sim')), 'http://127.0.0.1:8787');
    assert.equal(await store.get('http://127.0.0.1:8787'), 'sk-sim');
    assert.equal(await applySeededKey(store, seed('http://127.0.0.1:8787', 'sk-other')), undefined, 'an existing key is kept');
    assert.equal(await store.get('http://127.0.0.1:8787'), 'sk-sim');
    assert.equal(await applySeededKey(store, {}), undefined);
  });
});
