import * as assert from 'node:assert/strict';
import type { GatewayConnections } from '../../../src/gateway/connections';
import type { Model } from '../../../src/gateway/types';
import { toChatInformation } from '../../../src/models/core/lmMapping';
import { profileModels } from '../../../src/models/vscode/lmProfiles';
import { defaultProfile, type Profile } from '../../../src/settings/profile';
import { FakeClock } from '../../util/fakeClock';
import { ApiDouble } from '../../util/apiDouble';
import { FakeConnections, FakeSource, model } from './fakes';
import { ModelCatalogs } from '../../../src/models/core/modelCatalogs';

class ListingGateway extends ApiDouble {
  constructor(private readonly models: Model[]) {
    super();
  }
  override async listModels(): Promise<Model[]> {
    return this.models;
  }
}

/** A profile's connection as profileModels sees it: a key is stored, and its gateway lists `models`. */
class KeyedSource extends FakeSource {
  readonly state = { kind: 'ready' } as const;
  constructor(models: Model[]) {
    super();
    this.gateway = new ListingGateway(models);
  }
  async refreshKeyState(): Promise<{ kind: string }> {
    return this.state;
  }
}

const silent = { info() {}, warn() {}, error() {}, debug() {} };

describe("profileModels: VS Code's chat with several profiles", () => {
  it("offers the setting's effort levels on another profile's models too, as on the active profile's", async () => {
    const personal: Profile = { id: 'p1', name: 'Personal', baseUrl: 'https://b.example', headers: {}, models: {} };
    const active = defaultProfile();
    const sources = new Map([
      [active.id, new KeyedSource([model('model-k3')])],
      [personal.id, new KeyedSource([model('model-k3'), model('model-r1', { supported_parameters: ['tools'] } as Partial<Model>)])],
    ]);
    const fake = new FakeConnections(sources);
    const connections = { profiles: [active, personal], active, connectionFor: (id: string) => sources.get(id) } as unknown as GatewayConnections;
    const catalogs = new ModelCatalogs(fake as never, new FakeClock());
    const levels = ['low', 'high'];
    const activeInfos = [toChatInformation({ id: 'model-k3', raw: { id: 'model-k3' } } as Parameters<typeof toChatInformation>[0], levels)];
    const listed = await profileModels(activeInfos, { connections, catalogs, log: silent as never, effortLevels: () => levels });
    const theirs = listed.find((m) => m.id === 'p1/model-k3');
    assert.ok(theirs, `listed: ${listed.map((m) => m.id).join(', ')}`);
    assert.equal(theirs.name, 'model-k3 (Personal)');
    assert.deepEqual(theirs.configurationSchema?.properties.reasoningEffort.enum.slice(1), levels);
    assert.equal(listed.find((m) => m.id === 'p1/model-r1')?.configurationSchema, undefined, 'a model whose list entry excludes an effort offers none');
  });
});
