// checkResultLink against the simulator's result links: one that redirects to a second origin (the "CDN"), one that
// is gone (410), one that expired (403 saying so), and transient failures, which are never called gone.
import * as assert from 'node:assert/strict';
import { checkResultLink } from '../../../src/gateway/resultFetch';
import { startSimulator, type Simulator } from '../../simulator';

describe('gateway: checkResultLink (is a result link still there?)', function () {
  this.timeout(20_000);
  let sim: Simulator;
  let clock = 0;

  before(async () => {
    sim = await startSimulator({ video: { queuedMs: 0, inProgressMs: 0 }, now: () => clock });
  });
  after(() => sim.close());

  async function finishedVideo(prompt: string): Promise<string> {
    const auth = { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' };
    const submitted = (await (await fetch(`${sim.baseUrl}/videos/generations`, { method: 'POST', headers: auth, body: JSON.stringify({ model: 'model-1.0-video-edit', input: { prompt } }) })).json()) as { id: string };
    const job = (await (await fetch(`${sim.baseUrl}/videos/generations/${submitted.id}`, { headers: auth })).json()) as { data: Array<{ url: string }> };
    return job.data[0].url;
  }

  it('follows a link that redirects to another origin, and gives where it finally leads', async () => {
    const url = await finishedVideo('waves [redirect]');
    assert.ok(url.startsWith(sim.origin));
    assert.notEqual(sim.cdnOrigin, sim.origin);
    const check = await checkResultLink(url, { proxy: false });
    assert.equal(check.state, 'available');
    assert.ok(check.state === 'available' && check.finalUrl.startsWith(`${sim.cdnOrigin}/files/`), JSON.stringify(check));
    assert.equal(check.state === 'available' && check.contentType, 'video/mp4');
    const plain = await checkResultLink(await finishedVideo('waves'), { proxy: false });
    assert.ok(plain.state === 'available' && plain.finalUrl.startsWith(sim.origin));
  });

  it('calls a link gone only for a definitive answer: 410, or a 403 that says it expired', async () => {
    const gone = await checkResultLink(await finishedVideo('waves [gone]'), { proxy: false });
    assert.deepEqual([gone.state, gone.state === 'gone' && gone.status], ['gone', 410]);
    const url = await finishedVideo('waves');
    clock += 2 * 3600_000;
    const expired = await checkResultLink(url, { proxy: false });
    clock = 0;
    assert.deepEqual([expired.state, expired.state === 'gone' && expired.status], ['gone', 403]);
    const tampered = await checkResultLink(url.replace(/sig=[0-9a-f]/, 'sig=z'), { proxy: false });
    assert.equal(tampered.state, 'unavailable', 'a 403 that does not say it expired is not called gone');
  });

  it('a 503, a reset or a refused connection is unavailable (worth a retry), never gone', async () => {
    const url = await finishedVideo('waves [redirect]');
    for (const fault of ['http-503', 'reset']) {
      sim.setDefaultFault(fault, 2);
      const check = await checkResultLink(url, { proxy: false, timeoutMs: 5000 });
      sim.setDefaultFault(null);
      assert.equal(check.state, 'unavailable', `${fault}: ${JSON.stringify(check)}`);
    }
    const refused = await checkResultLink('http://127.0.0.1:9/files/x.mp4', { proxy: false, timeoutMs: 5000 });
    assert.equal(refused.state, 'unavailable');
    await assert.rejects(checkResultLink(url, { proxy: false, signal: AbortSignal.abort() }), { code: 'aborted' });
  });
});
