// The chat's model list reads the shared ModelCatalog: no cache or generation guard of its own.
import * as assert from 'node:assert/strict';
import { cleanHostMessage, type ModelsState } from '../../../src/chatProtocol/messages';
import { LIMITS } from '../../../src/chatProtocol/session';
import { ChatModelList, ChatModelLists, NOT_CONFIGURED } from '../../../src/chat/core/chatModelList';
import { ModelCatalog } from '../../../src/models/core/modelCatalog';
import { FakeClock } from '../../util/fakeClock';
import { ModelCatalogs } from '../../../src/models/core/modelCatalogs';
import { FakeConnections, FakeSource, ManualGateway, flush, model } from '../models/fakes';

describe('ChatModelList', () => {
  let source: FakeSource;
  let gateway: ManualGateway;
  let catalog: ModelCatalog;
  let list: ChatModelList;
  let states: ModelsState[];
  let drops: number;

  beforeEach(() => {
    source = new FakeSource();
    gateway = source.gateway as ManualGateway;
    catalog = new ModelCatalog(source, new FakeClock());
    // No levels from the setting: only what the gateway says gives a model reasoning effort levels.
    list = new ChatModelList(catalog, (error) => `failed: ${String(error)}`, () => []);
    states = [];
    drops = 0;
    list.onDidChange((s) => states.push(s));
    list.onDidDrop(() => drops++);
  });

  afterEach(() => {
    list.dispose();
    catalog.dispose();
  });

  it('marks the chat and media models that retire within 30 days, by the injected clock, through the protocol', async () => {
    const now = Date.parse('2026-11-28T00:00:00Z');
    const marked = new ChatModelList(catalog, String, () => [], () => now);
    const loading = catalog.load();
    await flush();
    gateway.answer([model('model-k3', { shutdown_date: '2026-12-01' }), model('dall-e-3', { shutdown_date: '2026-12-10' }), model('model-5.2', { shutdown_date: '2027-06-01' })]);
    await loading;
    assert.deepEqual(marked.state.retiring, { 'model-k3': 'retires 2026-12-01 (in 3 days)', 'dall-e-3': 'retires 2026-12-10 (in 12 days)' });
    const wire = cleanHostMessage({ type: 'models', models: { ...marked.state, retiring: { ...marked.state.retiring, 'not-listed': 'x' } } });
    assert.deepEqual(wire?.type === 'models' && Object.keys(wire.models.retiring ?? {}), ['model-k3', 'dall-e-3'], 'marks of listed models only');
    assert.equal(list.state.retiring, undefined, 'no clock, no marks');
    marked.dispose();
  });

  it('gives each chat model its reasoning effort levels: the gateway\'s, else the setting\'s, none when the gateway excludes them', async () => {
    const withSetting = new ChatModelList(catalog, String, () => ['quick', 'deep']);
    const loading = catalog.load();
    await flush();
    gateway.answer([
      model('model-r', { reasoning_effort_levels: ['low', 'high', 'low', 'not a level!'] }),
      model('model-p', { supported_parameters: ['temperature', 'reasoning_effort'] }),
      model('model-x', { supported_parameters: ['temperature'] }),
      model('model-k3'),
    ]);
    await loading;
    assert.deepEqual(withSetting.state.efforts, { 'model-r': ['low', 'high'], 'model-p': ['quick', 'deep'], 'model-k3': ['quick', 'deep'] });
    assert.deepEqual(list.state.efforts, { 'model-r': ['low', 'high'] });
    withSetting.dispose();
  });

  it('follows a list that another feature loaded (List Models, VS Code chat), without a request of its own', async () => {
    const loading = catalog.load();
    await flush();
    gateway.answer([model('model-k3'), model('model-1.0-video-edit'), model('model-5.2')]);
    await loading;
    assert.deepEqual(states.at(-1), { models: ['model-k3', 'model-5.2'], loading: false, media: { image: [], video: ['model-1.0-video-edit'], speech: [] } });
    assert.deepEqual(await list.models(), ['model-k3', 'model-5.2']);
    assert.equal(gateway.listCalls, 1);
  });

  it('a forced refresh elsewhere that changes the list reaches the chat', async () => {
    const first = list.refresh();
    await flush();
    gateway.answer([model('model-k3')]);
    await first;
    const forced = catalog.load({ force: true });
    await flush();
    gateway.answer([model('model-k3'), model('model-new')]);
    await forced;
    assert.deepEqual(list.state.models, ['model-k3', 'model-new']);
  });

  it('empties and says so when the gateway or key changes, and a refresh then lists the new gateway', async () => {
    const first = list.refresh();
    await flush();
    gateway.answer([model('model-k3')]);
    await first;
    const next = new ManualGateway();
    source.switchTo('https://other.example', next);
    assert.equal(drops, 1);
    assert.deepEqual(list.state, { models: [], loading: false });
    const second = list.refresh();
    assert.equal(list.state.loading, true);
    await flush();
    next.answer([model('model-other')]);
    assert.deepEqual(await second, { models: ['model-other'], loading: false });
  });

  it('a load that the gateway change overtook ends with the new gateway list', async () => {
    const stale = list.refresh();
    await flush();
    const next = new ManualGateway();
    source.switchTo('https://other.example', next);
    gateway.answer([model('model-old')]);
    await flush();
    next.answer([model('model-new')]);
    assert.deepEqual((await stale).models, ['model-new']);
  });

  it('reports a failed load and no configuration plainly', async () => {
    const failing = list.refresh();
    await flush();
    gateway.fail(new Error('boom'));
    assert.deepEqual(await failing, { models: [], loading: false, error: 'failed: Error: boom' });
    source.switchTo(undefined, undefined);
    assert.deepEqual(await list.refresh(), { models: [], loading: false, error: NOT_CONFIGURED });
  });

  it('offers at most what the chat view accepts: 1,000 ids, none over 200 characters', async () => {
    const loading = list.refresh();
    await flush();
    gateway.answer([model('x'.repeat(LIMITS.model + 1)), ...Array.from({ length: 1500 }, (_, i) => model(`chat-${i}`))]);
    const state = await loading;
    assert.equal(state.models.length, LIMITS.models);
    assert.equal(state.models[0], 'chat-0');
  });
});

describe('ChatModelLists: a chat lists its own profile\'s models', () => {
  it("gives each profile's chats that profile's list, loaded with its access only, and says whose news it is", async () => {
    const sources = new Map([['work', new FakeSource()], ['home', new FakeSource()]]);
    const connections = new FakeConnections(sources, 'work');
    const catalogs = new ModelCatalogs(connections as never, new FakeClock());
    const lists = new ChatModelLists((profile) => new ChatModelList(catalogs.for(profile), String, () => []));
    const news: Array<[string, string[]]> = [];
    lists.onDidChange(({ profile, state }) => news.push([profile, state.models]));

    // A chat under Home while Work is the window's profile.
    const loading = lists.for('home').refresh();
    await flush();
    (sources.get('home')!.gateway as ManualGateway).answer([model('model-home'), model('model-shared')]);
    assert.deepEqual((await loading).models, ['model-home', 'model-shared']);
    assert.deepEqual(connections.accessed, ['home'], "only the chat's profile was asked (its key, its origin)");
    assert.equal((sources.get('work')!.gateway as ManualGateway).listCalls, 0);
    assert.deepEqual(lists.for('work').state.models, [], "the window's profile's chats list nothing of Home's");
    assert.ok(news.length > 0 && news.every(([profile]) => profile === 'home'));
    assert.equal(lists.for('home'), lists.for('home'), 'one list per profile');
    lists.dispose();
    catalogs.dispose();
  });
});
