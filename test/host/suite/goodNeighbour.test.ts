import * as assert from 'node:assert/strict';
import { startSimulator } from '../../simulator';
import { connectTo, disconnect, extensionApi } from '../helpers';
import { processWideFetchState } from '../index';

// The extension host is shared with every other extension: loading our HTTP stack must not change the
// process-wide fetch dispatcher or globalThis.fetch, which VS Code's proxy support for others relies on.
describe('good neighbour in the shared extension host (issue 3)', () => {
  it('leaves the global dispatcher slot and globalThis.fetch as they were, after activation and a request', async () => {
    const api = await extensionApi();
    const afterActivation = processWideFetchState();
    const sim = await startSimulator();
    try {
      await connectTo(api, sim);
      const client = await api.connection.api();
      assert.ok(client);
      const models = await client.listModels();
      assert.ok(models.length > 0, 'a real request went through undici');
      await client.chat({ model: 'model-k3', messages: [{ role: 'user', content: 'hello' }], stream: true });
      const afterRequest = processWideFetchState();
      const atLoad = (globalThis as Record<string, unknown>).__modelGatewayFetchStateAtLoad as ReturnType<typeof processWideFetchState>;
      for (const [label, state] of [['activation', afterActivation], ['a request', afterRequest]] as const) {
        assert.equal(state.fetch, atLoad.fetch, `globalThis.fetch unchanged after ${label}`);
        assert.equal(state.dispatcher1, atLoad.dispatcher1, `undici.globalDispatcher.1 unchanged after ${label}`);
        assert.equal(state.dispatcher2, atLoad.dispatcher2, `undici.globalDispatcher.2 unchanged after ${label}`);
      }
      // Other code's fetch still works as before.
      const response = await fetch(`${sim.origin}/v1/models`, { headers: { authorization: `Bearer ${sim.apiKey}` } });
      assert.equal(response.status, 200);
    } finally {
      await disconnect();
      await sim.close();
    }
  });
});
