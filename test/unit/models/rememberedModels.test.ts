import * as assert from 'node:assert/strict';
import { ModelCatalog } from '../../../src/models/core/modelCatalog';
import { MAX_MODELS, MAX_ORIGINS, REMEMBERED_MODELS_KEY, RememberedModels } from '../../../src/models/core/rememberedModels';
import { FakeClock } from '../../util/fakeClock';
import { MemoryMemento } from '../videos/fakes';
import { FakeSource, ManualGateway, flush, model } from './fakes';

describe('RememberedModels', () => {
  it('keeps ids and kinds only, per gateway', async () => {
    const memento = new MemoryMemento();
    const memory = new RememberedModels(memento);
    await memory.remember('https://a.example', [{ id: 'model-k3', kind: 'chat' }, { id: 'model-1.0-video-edit', kind: 'video' }], 1);
    await memory.remember('https://b.example', [{ id: 'other-model', kind: 'chat' }], 2);
    assert.deepEqual(memory.get('https://a.example'), [{ id: 'model-k3', kind: 'chat' }, { id: 'model-1.0-video-edit', kind: 'video' }]);
    assert.deepEqual(memory.get('https://b.example'), [{ id: 'other-model', kind: 'chat' }]);
    assert.equal(memory.get('https://c.example'), undefined);
    assert.deepEqual(memento.get(REMEMBERED_MODELS_KEY), {
      'https://b.example': { savedAt: 2, models: [['other-model', 'chat']] },
      'https://a.example': { savedAt: 1, models: [['model-k3', 'chat'], ['model-1.0-video-edit', 'video']] },
    });
  });

  it('writes only when the list changed', async () => {
    const memento = new MemoryMemento();
    const memory = new RememberedModels(memento);
    await memory.remember('https://a.example', [{ id: 'model-k3', kind: 'chat' }], 1);
    await memory.remember('https://a.example', [{ id: 'model-k3', kind: 'chat' }], 2);
    assert.equal(memento.writes.length, 1);
    await memory.remember('https://a.example', [{ id: 'model-5.2', kind: 'chat' }], 3);
    assert.equal(memento.writes.length, 2);
  });

  it('forgets the gateways saved longest ago beyond the limit, and bounds each list', async () => {
    const memento = new MemoryMemento();
    const memory = new RememberedModels(memento);
    for (let i = 0; i < MAX_ORIGINS + 2; i++) await memory.remember(`https://gw${i}.example`, [{ id: `m${i}`, kind: 'chat' }], i);
    assert.equal(memory.get('https://gw0.example'), undefined);
    assert.equal(memory.get('https://gw1.example'), undefined);
    assert.deepEqual(memory.get(`https://gw${MAX_ORIGINS + 1}.example`), [{ id: `m${MAX_ORIGINS + 1}`, kind: 'chat' }]);
    assert.equal(Object.keys(memento.get<object>(REMEMBERED_MODELS_KEY) ?? {}).length, MAX_ORIGINS);

    const many = Array.from({ length: MAX_MODELS + 10 }, (_, i) => ({ id: `m${i}`, kind: 'chat' as const }));
    await memory.remember('https://big.example', many, 100);
    assert.equal(memory.get('https://big.example')?.length, MAX_MODELS);
  });

  it('drops what it cannot trust when reading back', async () => {
    const memento = new MemoryMemento();
    await memento.update(REMEMBERED_MODELS_KEY, {
      'https://a.example': { savedAt: 1, models: [['ok', 'chat'], ['', 'chat'], ['bad\nid', 'chat'], ['x', 'weird'], 'not-a-pair', ['y'.repeat(300), 'chat']] },
      'https://b.example': { savedAt: 'yesterday', models: [['ok', 'chat']] },
      'https://c.example': 42,
    });
    const memory = new RememberedModels(memento);
    assert.deepEqual(memory.get('https://a.example'), [{ id: 'ok', kind: 'chat' }]);
    assert.equal(memory.get('https://b.example'), undefined);
    assert.equal(memory.get('https://c.example'), undefined);
    await memento.update(REMEMBERED_MODELS_KEY, ['not', 'a', 'map']);
    assert.equal(memory.get('https://a.example'), undefined);
  });
});

describe('ModelCatalog.known', () => {
  it('offers the list remembered from an earlier session without asking, then the loaded one', async () => {
    const memento = new MemoryMemento();
    const source0 = new FakeSource();
    const first = new ModelCatalog(source0, new FakeClock(), undefined, new RememberedModels(memento));
    const loading = first.load();
    await flush();
    (source0.gateway as ManualGateway).answer([model('model-k3'), model('model-5.2'), model('model-1.0-video-edit')]);
    await loading;
    await flush();
    first.dispose();

    // After a restart of VS Code: nothing asked yet.
    const source = new FakeSource();
    const gateway = source.gateway as ManualGateway;
    const catalog = new ModelCatalog(source, new FakeClock(), undefined, new RememberedModels(memento));
    const known = catalog.known();
    assert.equal(known?.remembered, true);
    assert.equal(known?.origin, 'https://gw.example');
    assert.deepEqual(known?.models.map((m) => [m.id, m.kind]), [['model-k3', 'chat'], ['model-5.2', 'chat'], ['model-1.0-video-edit', 'video']]);
    assert.equal(gateway.listCalls, 0, 'nothing was sent');
    assert.equal(catalog.current, undefined, 'a remembered list is not a loaded one');
    assert.equal(catalog.isFresh(), false);

    const reload = catalog.load();
    await flush();
    gateway.answer([model('model-k3')]);
    const loaded = await reload;
    assert.equal(catalog.known(), loaded);
    assert.equal(catalog.known()?.remembered, undefined);

    // Another gateway has nothing remembered.
    source.switchTo('https://other.example', new ManualGateway());
    assert.equal(catalog.known(), undefined);
    catalog.dispose();
  });
});
