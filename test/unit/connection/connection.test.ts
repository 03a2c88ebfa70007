import * as assert from 'node:assert/strict';
import { memoryKeys } from './memoryKeys';
import { GatewayConnection, stateForError, type ClientConfig } from '../../../src/gateway/connection';
import { adviceFor } from '../../../src/ui/core/errorAdvice';
import type { GatewayApi } from '../../../src/gateway/types';
import type { GatewaySettings } from '../../../src/settings/settings';
import { FakeClock } from '../../util/fakeClock';


const settingsFor = (baseUrl: string): GatewaySettings => ({ baseUrl, origin: new URL(baseUrl).origin, headers: {}, timeoutMs: 1000, idleTimeoutMs: 1000 });

function fakeApi(fail?: unknown): GatewayApi {
  const result = async () => {
    if (fail) throw fail;
    return [];
  };
  return { listModels: result, chat: result as never, submitVideo: result as never, getVideo: result as never, generateImage: result as never, synthesizeSpeech: result as never, transcribeAudio: result as never };
}

describe('GatewayConnection', () => {
  it('builds a client with the key of the configured origin only', async () => {
    const keys = memoryKeys();
    const made: ClientConfig[] = [];
    const connection = new GatewayConnection(settingsFor('https://a.example/v1'), keys, (c) => (made.push(c), fakeApi()), new FakeClock());
    assert.equal(await connection.api(), undefined);
    assert.equal(connection.state.kind, 'no-key');
    await keys.set('https://a.example', 'sk-a');
    await keys.set('https://b.example', 'sk-b');
    assert.ok(await connection.api());
    connection.updateSettings(settingsFor('https://b.example/v1'));
    await connection.api();
    assert.deepEqual(made.map((c) => [c.baseUrl, c.apiKey]), [['https://a.example/v1', 'sk-a'], ['https://b.example/v1', 'sk-b']]);
    assert.equal(connection.origin, 'https://b.example', 'the client follows the configured origin only');
    connection.dispose();
  });

  it('keeps the client (and its requests in flight) when a key change repeats the key in use', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    let made = 0;
    let closed = 0;
    const connection = new GatewayConnection(settingsFor('https://a.example/v1'), keys, () => (made++, { ...fakeApi(), close: () => void closed++ }), new FakeClock());
    await connection.api();
    await keys.notifyExternalChange('modelGateway.apiKey:https://a.example'); // SecretStorage's echo of our own save
    await connection.api();
    assert.deepEqual([made, closed], [1, 0]);
    await keys.set('https://a.example', 'sk-new');
    await connection.api();
    assert.deepEqual([made, closed], [2, 1], 'a different key replaces the client');
    connection.dispose();
  });

  it('gives callers that arrive together one client, and never one that a reset already replaced', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    const made: Array<{ key: string; closed: boolean }> = [];
    const connection = new GatewayConnection(settingsFor('https://a.example/v1'), keys, (c) => {
      const entry = { key: c.apiKey, closed: false };
      made.push(entry);
      return { ...fakeApi(), close: () => void (entry.closed = true) };
    }, new FakeClock());
    await Promise.all([connection.api(), connection.api(), connection.api()]);
    assert.equal(made.length, 1, 'one client for three concurrent callers');
    const pending = connection.api();
    await keys.set('https://a.example', 'sk-b'); // resets while nothing is cached yet for the new key
    const [first, second] = await Promise.all([pending, connection.api()]);
    assert.ok(first && second);
    assert.deepEqual(made.map((m) => [m.key, m.closed]), [['sk-a', true], ['sk-b', false]]);
    connection.dispose();
  });

  it('gives result fetches the client\'s proxy and the key with the extra headers for the configured origin only', async () => {
    const keys = memoryKeys();
    const settings = { ...settingsFor('https://a.example/v1'), headers: { 'x-team': 'blue' } };
    const connection = new GatewayConnection(settings, keys, () => fakeApi(), new FakeClock(), { url: 'http://proxy.corp:3128', strictSSL: true });
    assert.deepEqual(await connection.resultFetchOptions(), { proxy: 'http://proxy.corp:3128' }, 'no key, no credentials');
    await keys.set('https://a.example', 'sk-a');
    assert.deepEqual(await connection.resultFetchOptions(), {
      proxy: 'http://proxy.corp:3128',
      credentials: { origin: 'https://a.example', headers: { 'x-team': 'blue', authorization: 'Bearer sk-a' } },
    });
    connection.updateSettings(settingsFor('https://b.example/v1'));
    assert.deepEqual(await connection.resultFetchOptions(), { proxy: undefined }, 'a key is never offered for another origin');
    connection.dispose();
  });

  it('tracks the state every call reveals', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    let failure: unknown;
    const clock = new FakeClock(1_000_000);
    const connection = new GatewayConnection(settingsFor('https://a.example/v1'), keys, () => ({ ...fakeApi(), listModels: async () => { if (failure) throw failure; return []; } }), clock);
    const states: string[] = [];
    connection.onDidChangeState((s) => states.push(s.kind));
    const api = (await connection.api())!;
    await api.listModels();
    failure = { status: 401, code: 'unauthorized', message: 'unauthorized' };
    await assert.rejects(api.listModels());
    failure = { status: 429, code: 'rate_limited', message: 'slow down', retryAfterMs: 5000 };
    await assert.rejects(api.listModels());
    assert.deepEqual(connection.state, { kind: 'rate-limited', origin: 'https://a.example', until: 1_005_000, message: 'slow down' });
    clock.advance(4_999);
    assert.equal(connection.state.kind, 'rate-limited');
    clock.advance(1);
    assert.deepEqual(connection.state, { kind: 'connected', origin: 'https://a.example' }, 'the connection ends the rate limit by itself, on its clock');
    failure = { status: 429, code: 'rate_limited', message: 'slow down', retryAfterMs: 5000 };
    await assert.rejects(api.listModels());
    failure = { status: 0, code: 'network', message: 'ECONNREFUSED' };
    await assert.rejects(api.listModels());
    failure = undefined;
    await api.listModels();
    assert.deepEqual(states, ['connected', 'unauthorized', 'rate-limited', 'connected', 'rate-limited', 'offline', 'connected']);
    connection.dispose();
  });

  it('watches image and speech calls too, and hands the configured endpoint paths to the client', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    const made: ClientConfig[] = [];
    const refused = { status: 401, code: 'unauthorized', message: 'Invalid API key' };
    const settings = { ...settingsFor('https://a.example/v1'), paths: { images: '/img', speech: '/tts' } };
    const connection = new GatewayConnection(settings, keys, (c) => (made.push(c), { ...fakeApi(), generateImage: async () => Promise.reject(refused), synthesizeSpeech: async () => ({ audio: new Uint8Array([1]), contentType: 'audio/wav' as const }) }), new FakeClock());
    const api = (await connection.api())!;
    assert.deepEqual(made[0].paths, { images: '/img', speech: '/tts' });
    await api.synthesizeSpeech({ model: 'm', input: 'hi', voice: 'alloy' });
    assert.equal(connection.state.kind, 'connected');
    await assert.rejects(api.generateImage({ model: 'm', prompt: 'p' }));
    assert.equal(connection.state.kind, 'unauthorized');
    connection.dispose();
  });

  it('maps errors to states and advice with a way forward', () => {
    assert.equal(stateForError('o', { status: 404, message: 'no such model' }, 0), undefined);
    assert.equal(stateForError('o', { status: 403, message: 'disabled' }, 0)?.kind, 'forbidden');
    assert.deepEqual(adviceFor({ status: 401, message: 'unauthorized' }, { origin: 'https://a.example' }).actions.map((a) => a.command), ['modelGateway.setApiKey']);
    assert.match(adviceFor({ status: 403, message: 'no' }, { model: 'model-5.2' }).message, /no access to model model-5\.2/);
    const limited = adviceFor({ status: 429, retryAfterMs: 12_300 }, { now: 1000 });
    assert.match(limited.message, /try again in 13 s/, 'a chat does not retry by itself, so it does not say it will');
    assert.match(adviceFor({ status: 429, retryAfterMs: 2000 }, { retriesAutomatically: true }).message, /retrying in 2 s/);
    assert.equal(limited.retryAt, 13_300);
    const offline = adviceFor({ status: 0, code: 'network', message: 'connect ECONNREFUSED' }, { origin: 'https://a.example' });
    assert.match(offline.message, /^Cannot reach https:\/\/a\.example/);
    assert.equal(offline.actions[0].command, 'modelGateway.testConnection');
    assert.match(adviceFor({ status: 502, message: 'Bad gateway', requestId: 'req_1' }).message, /HTTP 502.*Bad gateway.*req_1/);
  });
});
