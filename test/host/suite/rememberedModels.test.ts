// VS Code's chat model picker after a restart of VS Code: filled from the list remembered per gateway, with no
// request, and refreshed from the gateway once a request since the restart has worked.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { GatewayConnection } from '../../../src/gateway/connection';
import type { GatewayChatModelProvider } from '../../../src/models/vscode/lmProvider';
import type { ModelCatalog } from '../../../src/models/core/modelCatalog';
import { REMEMBERED_MODELS_KEY } from '../../../src/models/core/rememberedModels';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { connectTo, disconnect, extensionApi, until } from '../helpers';

interface NextSession {
  connection: GatewayConnection;
  catalog: ModelCatalog;
  provider: GatewayChatModelProvider;
  dispose(): void;
}

const ask = (provider: GatewayChatModelProvider) => provider.provideLanguageModelChatInformation({ silent: true });
const modelRequests = (sim: Simulator) => sim.log.filter((e) => e.path === '/v1/models').length;

describe('models remembered per gateway across a restart of VS Code', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let next: NextSession | undefined;

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    await connectTo(api, sim);
  });

  afterEach(() => {
    next?.dispose();
    next = undefined;
  });

  after(async () => {
    await disconnect();
    await sim.close();
  });

  it('offers the remembered chat models without a request, then reloads them after the first request that works', async () => {
    await (api.testing.models as ModelCatalog).load({ force: true });
    const globalState = api.testing.globalState as vscode.Memento;
    const remembered = await until(() => globalState.get<Record<string, { models: unknown[] }>>(REMEMBERED_MODELS_KEY)?.[sim.origin], 'the list to be remembered');
    assert.deepEqual(remembered.models, [['model-k3', 'chat'], ['model-5.2', 'chat'], ['model-1.0-video-edit', 'video'], ['model-image-1.0', 'image'], ['model-speech-1.0', 'speech'], ['model-transcribe-1.0', 'other']], 'ids and kinds only');

    next = (api.testing.createModelsForTest as () => NextSession)();
    assert.equal(next.connection.state.kind, 'unknown', 'after the restart, nothing has talked to the gateway yet');
    const before = modelRequests(sim);
    const offered = await ask(next.provider);
    assert.deepEqual(offered.map((m) => m.id), ['model-k3', 'model-5.2']);
    assert.equal(modelRequests(sim), before, 'nothing was asked of the gateway');

    const announced = new Promise<void>((resolve) => {
      const subscription = next!.provider.onDidChangeLanguageModelChatInformation(() => (subscription.dispose(), resolve()));
    });
    const gateway = await next.connection.api();
    await gateway!.chat({ model: 'model-k3', messages: [{ role: 'user', content: '[echo] first use' }] });
    await announced;
    const refreshed = await ask(next.provider);
    assert.equal(modelRequests(sim), before + 1, 'the list was loaded once the gateway had answered');
    assert.deepEqual(refreshed.map((m) => m.id), ['model-k3', 'model-5.2']);
    assert.equal(next.catalog.known()?.remembered, undefined, 'a loaded list now');
  });

  it('offers nothing, and asks nothing, when the key is gone', async () => {
    next = (api.testing.createModelsForTest as () => NextSession)();
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    try {
      const before = modelRequests(sim);
      assert.deepEqual(await ask(next.provider), []);
      assert.equal(modelRequests(sim), before);
    } finally {
      await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    }
  });

  it('keeps each gateway\'s list apart', async () => {
    const other = await startSimulator();
    try {
      await connectTo(api, other);
      // Whatever this window lists from the other gateway is forgotten first. Its own list may follow the switch at
      // any moment (VS Code asks the provider again), so that listing is finished and written before it is forgotten:
      // one landing after the forgetting made this test fail under load. The list then stays fresh for its TTL.
      const globalState = api.testing.globalState as vscode.Memento;
      await (api.testing.models as ModelCatalog).load();
      await until(() => (globalState.get<Record<string, unknown>>(REMEMBERED_MODELS_KEY) ?? {})[other.origin] !== undefined, "the window's own list of the new gateway to be remembered");
      const { [other.origin]: _forgotten, ...rest } = globalState.get<Record<string, unknown>>(REMEMBERED_MODELS_KEY) ?? {};
      await globalState.update(REMEMBERED_MODELS_KEY, rest);
      next = (api.testing.createModelsForTest as () => NextSession)();
      assert.equal(next.catalog.known(), undefined, 'nothing remembered for this gateway');
      assert.ok((rest as Record<string, unknown>)[sim.origin], 'the first gateway\'s list is still kept');
      const before = modelRequests(other);
      await ask(next.provider);
      // At least one: this window's own model list may follow the switch of gateway as well.
      assert.ok(modelRequests(other) >= before + 1, 'without a remembered list, VS Code\'s question is answered from the gateway');
    } finally {
      await connectTo(api, sim);
      await other.close();
    }
  });
});
