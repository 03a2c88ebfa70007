import * as assert from 'node:assert/strict';
import type { ConnectionState } from '../../../src/gateway/connection';
import { ModelAnnouncer } from '../../../src/models/core/lmAnnouncer';
import type { CatalogSnapshot } from '../../../src/models/core/modelCatalog';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { model } from './fakes';

const ORIGIN = 'https://gw.example';
const list = (...ids: string[]): CatalogSnapshot => ({ origin: ORIGIN, models: ids.map((id) => toCatalogModel(model(id))), loadedAt: 0 });
const state = (kind: ConnectionState['kind']): ConnectionState => (kind === 'no-url' ? { kind } : ({ kind, origin: ORIGIN } as ConnectionState));

describe('ModelAnnouncer (when VS Code hears that the chat models changed)', () => {
  it('says nothing about a key change by itself, so no request follows one', () => {
    const announcer = new ModelAnnouncer();
    announcer.provide(list('model-k3'), true);
    announcer.clientChanged();
    assert.equal(announcer.onState(state('unknown')), false);
    assert.equal(announcer.onCatalog(undefined), false);
  });

  it('announces "none" when the key or URL goes away while VS Code holds models', () => {
    const announcer = new ModelAnnouncer();
    assert.equal(announcer.onState(state('no-key')), false, 'VS Code never asked: nothing to take back');
    announcer.provide(list('model-k3'), true);
    assert.equal(announcer.onState(state('no-key')), true);
    assert.equal(announcer.onState(state('no-url')), true);
    announcer.provide(undefined, true);
    assert.equal(announcer.onState(state('no-key')), false, 'VS Code already holds none');
  });

  it('announces after the first successful request with a new client, once', () => {
    const announcer = new ModelAnnouncer();
    assert.equal(announcer.onState(state('connected')), true, 'VS Code has not asked yet');
    announcer.provide(list('model-k3'), true);
    assert.equal(announcer.onState(state('connected')), false, 'VS Code holds a list loaded through this client');
    announcer.onCatalog(undefined); // the key changed
    assert.equal(announcer.onState(state('connected')), true);
    announcer.provide(list('model-k3'), true);
    assert.equal(announcer.onState(state('connected')), false);
  });

  it('announces again after an answer that could not be loaded', () => {
    const announcer = new ModelAnnouncer();
    announcer.provide(undefined, false);
    assert.equal(announcer.onState(state('connected')), true);
  });

  it('announces a loaded list whose chat models differ from what VS Code holds, and ignores other changes', () => {
    const announcer = new ModelAnnouncer();
    assert.equal(announcer.onCatalog(list('model-k3')), true, 'VS Code has none yet; asking is a cache hit');
    announcer.provide(list('model-k3', 'model-1.0-video-edit'), true);
    assert.equal(announcer.onCatalog(list('model-k3')), false, 'only a video model went away');
    assert.equal(announcer.onCatalog(list('model-k3', 'model-5.2')), true);
  });
});
