import * as assert from 'node:assert/strict';
import { forwardingApi, GATEWAY_API_METHODS, invoke } from '../../../src/gateway/apiForwarding';
import type { GatewayApi } from '../../../src/gateway/types';
import { MissingApiKeyError } from '../../../src/videos/core/errors';
import { lazyApiFor } from '../../../src/videos/core/lazyApi';

/** An API that answers each call with its method name, `this` and arguments. */
function echoApi(): GatewayApi {
  const api = {} as Record<string, unknown>;
  for (const method of GATEWAY_API_METHODS) {
    api[method] = function (this: unknown, ...args: unknown[]) {
      return Promise.resolve({ method, self: this === api, args });
    };
  }
  return api as unknown as GatewayApi;
}

describe('the gateway API forwarded by one list of its methods', () => {
  it('passes every method, with its arguments, on to the API it wraps (`this` included)', async () => {
    const target = echoApi();
    const seen: string[] = [];
    const api = forwardingApi((method, args) => {
      seen.push(method);
      return invoke(target, method, args);
    });
    assert.deepEqual(Object.keys(api).sort(), [...GATEWAY_API_METHODS].sort());
    assert.deepEqual(await api.getVideo('job-1', { signal: undefined }), { method: 'getVideo', self: true, args: ['job-1', { signal: undefined }] });
    assert.deepEqual(await api.listModels(), { method: 'listModels', self: true, args: [] });
    assert.deepEqual(seen, ['getVideo', 'listModels']);
  });

  it('is not a thenable, so awaiting the API itself gives the API', async () => {
    const api = forwardingApi(async () => undefined);
    assert.equal(await Promise.resolve(api), api);
  });

  it("the job store's lazy API resolves the lane's API on each call, and fails like a 401 without one", async () => {
    const target = echoApi();
    let configured = 'https://a.example';
    const apiFor = lazyApiFor({ accessSlot: async (lane) => (lane === configured ? { ok: true, api: target, origin: lane } : { ok: false, missing: 'key' }) });
    const api = apiFor('https://a.example');
    assert.deepEqual(await api.submitVideo({ model: 'm', input: { prompt: 'p' } } as never), { method: 'submitVideo', self: true, args: [{ model: 'm', input: { prompt: 'p' } }] });
    configured = 'https://b.example';
    const error = await api.getVideo('job-1').catch((e: unknown) => e);
    assert.ok(error instanceof MissingApiKeyError);
    assert.equal(error.status, 401);
  });
});
