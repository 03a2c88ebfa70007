import * as assert from 'node:assert/strict';
import type { CatalogSnapshot } from '../../../src/models/core/modelCatalog';
import { ModelCatalogs } from '../../../src/models/core/modelCatalogs';
import { FakeClock } from '../../util/fakeClock';
import { FakeConnections, FakeSource, ManualGateway, flush, model } from './fakes';

/** Two profiles on two gateways, `work` active. */
function twoProfiles(): { connections: FakeConnections; work: ManualGateway; home: ManualGateway } {
  const work = new FakeSource();
  const home = new FakeSource();
  home.origin = 'https://home.example';
  const connections = new FakeConnections(new Map([['work', work], ['home', home]]), 'work');
  return { connections, work: work.gateway as ManualGateway, home: home.gateway as ManualGateway };
}

describe('ModelCatalogs: one model list per profile', () => {
  let connections: FakeConnections;
  let work: ManualGateway;
  let home: ManualGateway;
  let catalogs: ModelCatalogs;
  let changes: Array<CatalogSnapshot | undefined>;

  beforeEach(() => {
    ({ connections, work, home } = twoProfiles());
    catalogs = new ModelCatalogs(connections as never, new FakeClock());
    changes = [];
    catalogs.onDidChange((s) => changes.push(s));
  });

  afterEach(() => catalogs.dispose());

  it("loads a profile's list through that profile's access only, whichever profile is active", async () => {
    const loading = catalogs.for('home').load();
    await flush();
    home.answer([model('model-home')]);
    const snapshot = await loading;
    assert.deepEqual(snapshot?.models.map((m) => m.id), ['model-home']);
    assert.equal(snapshot?.origin, 'https://home.example');
    assert.deepEqual(connections.accessed, ['home']);
    assert.equal(work.listCalls, 0, "the active profile's gateway was not asked");
    assert.equal(catalogs.current, undefined, "the active profile's list is another one");
    assert.deepEqual(changes, [], "a list of a profile that is not active is not the active one's news");
  });

  it("is the active profile's catalog, and the same cache as for(active): a switch shows the other profile's cached list", async () => {
    const loading = catalogs.load();
    await flush();
    work.answer([model('model-work')]);
    await loading;
    assert.equal(catalogs.for('work').current, catalogs.current, 'one cache per profile');
    const homeLoad = catalogs.for('home').load();
    await flush();
    home.answer([model('model-home')]);
    await homeLoad;

    connections.switchTo('home');
    assert.equal(changes.at(-1), undefined, 'a switch is news for whoever reads the active list');
    assert.deepEqual(catalogs.current?.models.map((m) => m.id), ['model-home']);
    assert.deepEqual((await catalogs.load())?.models.map((m) => m.id), ['model-home'], 'from the cache: nothing asked again');
    assert.equal(home.listCalls, 1);
    assert.deepEqual(catalogs.for('work').current?.models.map((m) => m.id), ['model-work'], "the other profile's list is kept");
  });

  it("drops a profile's list when its gateway or key changes, and when the profile is deleted", async () => {
    const homeCatalog = catalogs.for('home');
    const homeChanges: Array<CatalogSnapshot | undefined> = [];
    homeCatalog.onDidChange((s) => homeChanges.push(s));
    const loading = homeCatalog.load();
    await flush();
    home.answer([model('model-home')]);
    await loading;
    connections.sources.get('home')!.switchTo('https://other.example', new ManualGateway());
    assert.equal(homeCatalog.current, undefined);
    connections.remove('home');
    assert.deepEqual(homeChanges.slice(1), [undefined, undefined]);
    assert.notEqual(catalogs.for('home'), homeCatalog, 'a deleted profile keeps no catalog');
  });
});
