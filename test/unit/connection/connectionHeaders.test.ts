import * as assert from 'node:assert/strict';
import { memoryKeys } from './memoryKeys';
import { setHeaderValues } from '../../../src/auth/core/headerSecrets';
import { GatewayConnection, type ClientConfig, type UnfilledHeaders } from '../../../src/gateway/connection';
import type { GatewayApi } from '../../../src/gateway/types';
import type { GatewaySettings } from '../../../src/settings/settings';
import { keySlot } from '../../../src/settings/profile';
import { FakeClock } from '../../util/fakeClock';

const gateway = (headers: Record<string, string>): GatewaySettings => ({ baseUrl: 'https://a.example/v1', origin: 'https://a.example', headers, timeoutMs: 1000, idleTimeoutMs: 1000 });
const api = (): GatewayApi => {
  const none = async () => [];
  return { listModels: none, chat: none as never, submitVideo: none as never, getVideo: none as never, generateImage: none as never, synthesizeSpeech: none as never, transcribeAudio: none as never };
};

describe('GatewayConnection: header values from SecretStorage', () => {
  it('sends the values kept beside the key, for the names the profile gives, to its own origin only', async () => {
    const keys = memoryKeys();
    const slot = keySlot('p-work', 'https://a.example');
    await keys.set(slot, 'sk-work');
    await setHeaderValues(keys, slot, { 'api-key': 'azure-secret', 'X-Stale': 'gone' });
    await setHeaderValues(keys, keySlot('p-other', 'https://a.example'), { 'X-Team': 'other' });
    const made: ClientConfig[] = [];
    const connection = new GatewayConnection(gateway({ 'api-key': '', 'X-Team': '' }), keys, (c) => (made.push(c), api()), new FakeClock(), undefined, 'p-work');
    const unfilled: UnfilledHeaders[] = [];
    connection.onUnfilledHeaders((u) => unfilled.push(u));
    await connection.api();
    assert.deepEqual(made[0].headers, { 'api-key': 'azure-secret' }, 'a name the profile no longer lists is not sent; another profile\'s value is not taken');
    assert.deepEqual(unfilled, [{ profile: 'p-work', origin: 'https://a.example', names: ['X-Team'] }]);
    const fetch = await connection.resultFetchOptions();
    assert.deepEqual(fetch.credentials, { origin: 'https://a.example', headers: { 'api-key': 'azure-secret', authorization: 'Bearer sk-work' } });
    connection.dispose();
  });

  it('never sends a header with an empty value (an imported profile not yet filled in)', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    const made: ClientConfig[] = [];
    const connection = new GatewayConnection(gateway({ 'Helicone-Auth': '', 'X-Team': 'blue' }), keys, (c) => (made.push(c), api()), new FakeClock());
    await connection.api();
    assert.deepEqual(made[0].headers, { 'X-Team': 'blue' }, 'a value still written beside the name (not yet moved) is sent; an empty one is not');
    connection.dispose();
  });

  it('takes a header value changed in another window: the client is made again with it', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    await setHeaderValues(keys, 'https://a.example', { 'X-Team': 'blue' });
    const made: ClientConfig[] = [];
    const connection = new GatewayConnection(gateway({ 'X-Team': '' }), keys, (c) => (made.push(c), api()), new FakeClock());
    await connection.api();
    await setHeaderValues(keys, 'https://a.example', { 'X-Team': 'green' });
    await connection.api();
    assert.deepEqual(made.map((c) => c.headers['X-Team']), ['blue', 'green']);
    connection.dispose();
  });

  it('keeps the client, and the requests in flight, when a header value moves from the settings to SecretStorage', async () => {
    const keys = memoryKeys();
    await keys.set('https://a.example', 'sk-a');
    const made: ClientConfig[] = [];
    let closed = 0;
    const connection = new GatewayConnection(gateway({ 'X-Team': 'blue' }), keys, (c) => (made.push(c), { ...api(), close: () => void closed++ }), new FakeClock());
    await connection.api();
    await setHeaderValues(keys, 'https://a.example', { 'X-Team': 'blue' });
    connection.updateSettings(gateway({ 'X-Team': '' }));
    await connection.api();
    assert.deepEqual([made.length, closed], [1, 0], 'what is sent did not change: the client stays');
    connection.updateSettings(gateway({ 'X-Team': 'red' }));
    await connection.api();
    assert.deepEqual([made.length, closed, made[1].headers['X-Team']], [2, 1, 'red'], 'a new value replaces the client');
    connection.dispose();
  });
});
