// The gateway's own figures for a key: LiteLLM's /key/info, OpenRouter's /key and /credits, read from the simulator
// the way the usage service asks (the key sent to the gateway's own origin only), asked rarely unless the user asks.
import * as assert from 'node:assert/strict';
import { fetchResultBytes } from '../../../src/gateway/resultFetch';
import { keyAccountUrls, liteLlmKeyAccount, openRouterKeyAccount } from '../../../src/gateway/keyAccount';
import { accountLine, GatewayAccounts, MIN_INTERVAL_MS } from '../../../src/usage/core/gatewayAccount';
import { SIM_KEY_ACCOUNT, startSimulator, type Simulator } from '../../simulator';

describe("usage: the gateway's own account for the key", () => {
  it('asks LiteLLM at the root and OpenRouter under its base URL (by host or dialect)', () => {
    assert.deepEqual(keyAccountUrls('http://127.0.0.1:4000/v1', undefined), { gateway: 'LiteLLM', key: 'http://127.0.0.1:4000/key/info' });
    assert.deepEqual(keyAccountUrls('https://openrouter.ai/api/v1/', 'auto'), { gateway: 'OpenRouter', key: 'https://openrouter.ai/api/v1/key', credits: 'https://openrouter.ai/api/v1/credits' });
    assert.equal(keyAccountUrls('http://gw.test/v1', 'openrouter').gateway, 'OpenRouter');
  });

  it('reads what each answer says, and nothing from what is not one', () => {
    assert.deepEqual(liteLlmKeyAccount({ key: 'k', info: { spend: 10.51, max_budget: 10 } }), { gateway: 'LiteLLM', spent: 10.51, limit: 10 });
    assert.deepEqual(liteLlmKeyAccount({ info: { spend: 3, max_budget: null } }), { gateway: 'LiteLLM', spent: 3 });
    assert.equal(liteLlmKeyAccount({ error: { message: 'Not Found' } }), undefined);
    assert.deepEqual(openRouterKeyAccount({ data: { usage: 1, limit: null, limit_remaining: null } }, { data: { total_credits: 5, total_usage: 1.5 } }), { gateway: 'OpenRouter', spent: 1, credits: 3.5 });
    assert.equal(openRouterKeyAccount({ data: [] }), undefined);
    assert.equal(accountLine({ gateway: 'LiteLLM', spent: 10.51, limit: 10 }), "LiteLLM's own figures for this key: $10.51 spent of $10.00");
    assert.equal(accountLine({ gateway: 'OpenRouter', spent: 1, credits: 3.5 }), "OpenRouter's own figures for this key: $1.00 spent (no limit), $3.50 of credits on the account");
  });

  describe('from the simulator', () => {
    let sim: Simulator;
    before(async () => (sim = await startSimulator({ quiet: true })));
    after(() => sim.close());

    function accounts(dialect: string | undefined, now: { t: number }, asked: string[]) {
      return new GatewayAccounts({
        now: () => now.t,
        gatewayOf: () => ({ baseUrl: sim.baseUrl, ...(dialect && { dialect }) }),
        fetchJson: async (_profile, url) => {
          asked.push(new URL(url).pathname);
          const { bytes } = await fetchResultBytes(url, { proxy: false, credentials: { origin: sim.origin, headers: { authorization: `Bearer ${sim.apiKey}` } }, maxBytes: 65536, accept: 'application/json' });
          return JSON.parse(bytes.toString('utf8')) as unknown;
        },
      });
    }

    it("reads LiteLLM's spend and budget, and asks again only after a while or when told to", async () => {
      const now = { t: 1_000_000 };
      const asked: string[] = [];
      const gateway = accounts(undefined, now, asked);
      assert.equal(gateway.last('default'), undefined, 'nothing is asked before someone asks');
      assert.deepEqual(await gateway.refresh('default'), { gateway: 'LiteLLM', spent: SIM_KEY_ACCOUNT.spend, limit: SIM_KEY_ACCOUNT.maxBudget });
      await gateway.refresh('default');
      assert.deepEqual(asked, ['/key/info'], 'asked once in the interval');
      now.t += MIN_INTERVAL_MS;
      await gateway.refresh('default');
      await gateway.refresh('default', true);
      assert.deepEqual(asked, ['/key/info', '/key/info', '/key/info']);
    });

    it("reads OpenRouter's key usage and limit and the account's credits", async () => {
      const asked: string[] = [];
      const account = await accounts('openrouter', { t: 0 }, asked).refresh('p');
      assert.deepEqual(account, { gateway: 'OpenRouter', spent: 1.25, limit: 20, remaining: 18.75, credits: 37.5 });
      assert.deepEqual(asked, ['/v1/key', '/v1/credits']);
    });

    it('says nothing when the gateway keeps no account it will tell (a 404), and never rejects', async () => {
      const gateway = new GatewayAccounts({ now: () => 0, gatewayOf: () => ({ baseUrl: sim.baseUrl }), fetchJson: async () => Promise.reject(new Error('HTTP 404')) });
      assert.equal(await gateway.refresh('p'), undefined);
    });
  });
});
