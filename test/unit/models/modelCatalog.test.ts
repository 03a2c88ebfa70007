import * as assert from 'node:assert/strict';
import { DEFAULT_TTL_MS, ModelCatalog, type CatalogSnapshot } from '../../../src/models/core/modelCatalog';
import { FakeClock } from '../../util/fakeClock';
import { FakeSource, ManualGateway, flush, model } from './fakes';

const LISTED = [model('model-k3'), model('model-5.2'), model('model-1.0-video-edit'), model('text-embedding-3-small', { owned_by: 'acme' })];

describe('ModelCatalog', () => {
  let clock: FakeClock;
  let source: FakeSource;
  let gateway: ManualGateway;
  let catalog: ModelCatalog;
  let changes: Array<CatalogSnapshot | undefined>;

  beforeEach(() => {
    clock = new FakeClock();
    source = new FakeSource();
    gateway = source.gateway as ManualGateway;
    catalog = new ModelCatalog(source, clock);
    changes = [];
    catalog.onDidChange((s) => changes.push(s));
  });

  afterEach(() => catalog.dispose());

  async function loaded(options?: { force?: boolean }): Promise<CatalogSnapshot | undefined> {
    const loading = catalog.load(options);
    await flush();
    gateway.answer(LISTED);
    return loading;
  }

  it('loads through the connection and classifies every model', async () => {
    const snapshot = await loaded();
    assert.equal(snapshot?.origin, 'https://gw.example');
    assert.deepEqual(
      snapshot?.models.map((m) => [m.id, m.kind]),
      [
        ['model-k3', 'chat'],
        ['model-5.2', 'chat'],
        ['model-1.0-video-edit', 'video'],
        ['text-embedding-3-small', 'other'],
      ],
    );
    assert.equal(snapshot?.models[3].ownedBy, 'acme');
    assert.equal(snapshot?.models[0].created, 1_700_000_000);
    assert.equal(snapshot?.loadedAt, clock.now());
    assert.equal(catalog.current, snapshot);
  });

  it('shares one request between concurrent callers', async () => {
    const a = catalog.load();
    const b = catalog.models('chat');
    const c = catalog.load();
    await flush();
    assert.equal(gateway.listCalls, 1);
    gateway.answer(LISTED);
    const [sa, chat, sc] = await Promise.all([a, b, c]);
    assert.equal(sa, sc);
    assert.deepEqual(chat.map((m) => m.id), ['model-k3', 'model-5.2']);
    assert.equal(gateway.listCalls, 1);
  });

  it('answers from the cache while fresh and asks again once the TTL has passed', async () => {
    const first = await loaded();
    clock.advance(DEFAULT_TTL_MS - 1);
    assert.equal(await catalog.load(), first);
    assert.equal(gateway.listCalls, 1);
    clock.advance(1);
    assert.equal(catalog.isFresh(), false);
    const second = await loaded();
    assert.equal(gateway.listCalls, 2);
    assert.notEqual(second, first);
  });

  it('asks again when forced, even while fresh', async () => {
    await loaded();
    await loaded({ force: true });
    assert.equal(gateway.listCalls, 2);
  });

  it('fires onDidChange for a new list but not for an identical reload', async () => {
    await loaded();
    assert.equal(changes.length, 1);
    await loaded({ force: true });
    assert.equal(changes.length, 1, 'same models: no event');
    const loading = catalog.load({ force: true });
    await flush();
    gateway.answer([model('model-k3')]);
    await loading;
    assert.equal(changes.length, 2);
    assert.deepEqual(changes[1]?.models.map((m) => m.id), ['model-k3']);
  });

  it('drops the cache when the gateway or key changes, and fires undefined', async () => {
    await loaded();
    const other = new ManualGateway();
    source.switchTo('https://other.example', other);
    assert.equal(catalog.current, undefined);
    assert.deepEqual(changes.at(-1), undefined);
    assert.equal(changes.length, 2);
    const loading = catalog.load();
    await flush();
    other.answer([model('m-chat')]);
    const snapshot = await loading;
    assert.equal(snapshot?.origin, 'https://other.example');
    assert.equal(other.listCalls, 1);
  });

  it('never caches a list that was in flight when the gateway changed; its callers get the new gateway\'s list', async () => {
    const loading = catalog.load();
    await flush();
    const other = new ManualGateway();
    source.switchTo('https://other.example', other);
    gateway.answer(LISTED);
    await flush();
    other.answer([model('only-new')]);
    const snapshot = await loading;
    assert.deepEqual(snapshot?.models.map((m) => m.id), ['only-new']);
    assert.equal(snapshot?.origin, 'https://other.example');
    assert.equal(catalog.current, snapshot);
  });

  it('also retries on the new gateway when the old one fails after the change', async () => {
    const loading = catalog.load();
    await flush();
    const other = new ManualGateway();
    source.switchTo('https://other.example', other);
    gateway.fail(Object.assign(new Error('unauthorized'), { status: 401 }));
    await flush();
    other.answer([model('model-k3')]);
    assert.deepEqual((await loading)?.models.map((m) => m.id), ['model-k3']);
  });

  it('fires on every gateway or key change, even with nothing cached (a new key may bring models)', () => {
    source.switchTo('https://gw.example', undefined);
    source.switchTo('https://gw.example', new ManualGateway());
    assert.deepEqual(changes, [undefined, undefined]);
  });

  it('sends nothing and gives undefined when no URL or key is set', async () => {
    source.switchTo('https://gw.example', undefined);
    assert.equal(await catalog.load(), undefined);
    assert.deepEqual(await catalog.models(), []);
    source.switchTo(undefined, undefined);
    assert.equal(await catalog.load(), undefined);
  });

  it('rejects with the gateway error, keeps the stale list, and tries again on the next call', async () => {
    const first = await loaded();
    clock.advance(DEFAULT_TTL_MS);
    const failing = catalog.load();
    await flush();
    const error = Object.assign(new Error('down'), { status: 503 });
    gateway.fail(error);
    await assert.rejects(failing, (e) => e === error);
    assert.equal(catalog.current, first, 'the stale list is still available');
    const again = catalog.load();
    await flush();
    assert.equal(gateway.listCalls, 3);
    gateway.answer(LISTED);
    await again;
  });

  it('lists a model once when the gateway repeats it', async () => {
    const loading = catalog.load();
    await flush();
    gateway.answer([model('model-k3'), model('model-k3', { owned_by: 'second' })]);
    const snapshot = await loading;
    assert.deepEqual(snapshot?.models.map((m) => [m.id, m.ownedBy]), [['model-k3', 'model-gateway']]);
  });

  it('stops listening to the connection when disposed', () => {
    assert.equal(source.listenerCount, 1);
    catalog.dispose();
    assert.equal(source.listenerCount, 0);
  });
});
