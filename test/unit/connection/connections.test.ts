import * as assert from 'node:assert/strict';
import { memoryKeys } from './memoryKeys';
import type { ClientConfig, MissingAccess } from '../../../src/gateway/connection';
import { accessAdvice } from '../../../src/ui/core/errorAdvice';
import { GatewayConnections } from '../../../src/gateway/connections';
import type { GatewayApi } from '../../../src/gateway/types';
import { defaultProfile, keySlot, type Profile } from '../../../src/settings/profile';
import type { GatewaySettings } from '../../../src/settings/settings';
import { FakeClock } from '../../util/fakeClock';
import { lazyApiFor } from '../../../src/videos/core/lazyApi';
import { laneOf } from '../../../src/videos/core/jobRecord';


const settings: GatewaySettings = { baseUrl: 'https://a.example/v1', origin: 'https://a.example', headers: { 'X-Default': '1' }, timeoutMs: 1000, idleTimeoutMs: 1000 };
const work: Profile = { id: 'p-work', name: 'Work', baseUrl: 'https://a.example/v1', headers: { 'X-Team': 'work' }, models: {} };
const client: Profile = { id: 'p-client', name: 'Client', baseUrl: 'https://b.example/v1', headers: {}, models: {} };

/** A client per config that says which key it was built with. */
function recordingFactory(made: ClientConfig[]) {
  return (config: ClientConfig): GatewayApi => {
    made.push(config);
    const answer = async () => [{ id: `model-for-${config.apiKey}` }];
    return { listModels: answer as never, chat: answer as never, submitVideo: answer as never, getVideo: async (id: string) => ({ id, status: config.apiKey }) as never, generateImage: answer as never, synthesizeSpeech: answer as never, transcribeAudio: answer as never };
  };
}

async function setUp() {
  const keys = memoryKeys();
  const made: ClientConfig[] = [];
  const connections = new GatewayConnections(settings, keys, recordingFactory(made), new FakeClock());
  connections.setProfiles([defaultProfile(), work, client]);
  await keys.set('https://a.example', 'sk-default');
  await keys.set(keySlot('p-work', 'https://a.example'), 'sk-work');
  await keys.set(keySlot('p-client', 'https://b.example'), 'sk-client');
  return { keys, made, connections };
}

describe('GatewayConnections (profiles)', () => {
  it("gives each profile its own key for its own origin, two profiles on one origin included", async () => {
    const { made, connections } = await setUp();
    for (const profile of [undefined, 'p-work', 'Client']) {
      const access = await connections.access(profile);
      assert.ok(access.ok);
      await access.api.listModels();
    }
    assert.deepEqual(made.map((c) => [c.baseUrl, c.apiKey, c.headers]), [
      ['https://a.example/v1', 'sk-default', { 'X-Default': '1' }],
      ['https://a.example/v1', 'sk-work', { 'X-Team': 'work' }],
      ['https://b.example/v1', 'sk-client', {}],
    ]);
    const missing = await connections.access('nobody');
    assert.equal(missing.ok, false);
    connections.dispose();
  });

  it('switches only when told, and a profile keeps its key after a switch', async () => {
    const { connections } = await setUp();
    const states: string[] = [];
    connections.onDidChangeClient(() => states.push(connections.active.name));
    assert.equal(connections.active.id, 'default');
    assert.equal(connections.switchTo('Work')?.id, 'p-work');
    assert.equal(connections.origin, 'https://a.example');
    assert.equal(connections.slotOf(), keySlot('p-work', 'https://a.example'));
    const access = await connections.access();
    assert.ok(access.ok && access.profile === 'p-work');
    assert.equal(connections.switchTo('nobody'), undefined, 'an unknown profile switches nothing');
    assert.equal(connections.active.id, 'p-work');
    assert.deepEqual(states, ['Work']);
    connections.dispose();
  });

  it("polls a job with the key of the profile it was submitted under, whichever profile is active", async () => {
    const { connections } = await setUp();
    const apiFor = lazyApiFor(connections);
    const job = { origin: 'https://a.example', profile: 'p-work' };
    connections.switchTo('Client');
    assert.equal(((await apiFor(laneOf(job)).getVideo('j1')) as { status: string }).status, 'sk-work');
    assert.equal(((await apiFor(laneOf({ origin: 'https://a.example' })).getVideo('j2')) as { status: string }).status, 'sk-default', 'a job without a profile is Default\'s');
    await assert.rejects(apiFor(laneOf({ origin: 'https://b.example', profile: 'p-work' })).getVideo('j3'), /key/i, 'a lane no profile uses has no key');
    connections.dispose();
  });

  it("moves a profile to another origin without its key, and a deleted profile's connection goes (the active one falls back to Default)", async () => {
    const { connections } = await setUp();
    connections.switchTo('p-client');
    connections.setProfiles([defaultProfile(), { ...work, baseUrl: 'https://c.example/v1' }]);
    const moved = await connections.access('p-work');
    assert.deepEqual([moved.ok, !moved.ok && moved.missing], [false, 'key']);
    assert.equal(connections.active.id, 'default');
    connections.dispose();
  });

  it('holds every request until the window\'s profile is known, so nothing is sent with Default\'s key by mistake', async () => {
    const { made, connections } = await setUp();
    let settle!: () => void;
    connections.ready = new Promise<void>((resolve) => (settle = resolve));
    const order: string[] = [];
    const asked = connections.access().then((access) => order.push(access.ok ? String(access.profile) : 'none'));
    await Promise.resolve();
    connections.switchTo('Client');
    order.push('switched');
    settle();
    await asked;
    assert.deepEqual(order, ['switched', 'p-client'], 'the request waited for the choice, and went under it');
    assert.deepEqual(made.map((c) => c.apiKey), ['sk-client'], 'no client was ever built with Default\'s key');
    connections.dispose();
  });

  it("hides a retired profile from lists and switching, yet still polls its jobs with its key", async () => {
    const { connections } = await setUp();
    connections.setProfiles([defaultProfile(), { ...work, retired: true }, client]);
    assert.deepEqual(connections.profiles.map((p) => p.id), ['default', 'p-client']);
    assert.equal(connections.allProfiles.length, 3);
    assert.equal(connections.profile('Work'), undefined, 'not by its name');
    assert.equal(connections.profile('p-work')?.id, 'p-work', 'a chat or job naming its id still finds it');
    assert.equal(connections.switchTo('p-work'), undefined);
    const polled = await lazyApiFor(connections)(laneOf({ origin: 'https://a.example', profile: 'p-work' })).getVideo('j1');
    assert.equal((polled as { status: string }).status, 'sk-work');
    connections.dispose();
  });

  it('sends nothing new under a retired or deleted profile (a chat still under it), and says to change the chat\'s profile', async () => {
    const { made, connections } = await setUp();
    connections.setProfiles([defaultProfile(), { ...work, retired: true }]);
    for (const gone of ['p-work', 'p-client']) {
      const access = await connections.access(gone);
      assert.deepEqual([access.ok, !access.ok && access.missing], [false, 'profile'], `${gone} is refused`);
      const advice = accessAdvice(access as MissingAccess);
      assert.match(advice.message, /deleted/);
      assert.deepEqual(advice.actions.map((a) => a.command), ['modelGateway.changeChatProfile'], 'Change Chat Profile…, not Set Gateway URL, which would set Default\'s');
    }
    assert.deepEqual(made.map((c) => c.apiKey), [], 'no client was built with the retired key for a new request');
    const polled = await lazyApiFor(connections)(laneOf({ origin: 'https://a.example', profile: 'p-work' })).getVideo('j1');
    assert.equal((polled as { status: string }).status, 'sk-work', 'its running jobs are still polled with it');
    connections.dispose();
  });
});
