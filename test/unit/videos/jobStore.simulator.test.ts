// The job store with the real gateway client against the gateway simulator, on a virtual clock shared by the
// store and the simulator's video schedule.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import type { GatewayApi, VideoRequest } from '../../../src/gateway/types';
import { FakeClock } from '../../util/fakeClock';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { isRunning } from '../../../src/videos/core/jobPresentation';
import { JobStore, type JobStoreOptions } from '../../../src/videos/core/jobStore';
import type { AuthRequired, PauseChange } from '../../../src/videos/core/pollScheduler';
import { startSimulator, type Simulator } from '../../simulator';
import { MemoryMemento, removeTempFolders, tempFolder } from './fakes';
import { requestsInsideRetryAfter, VirtualTime } from './virtualTime';

const QUEUED_MS = 3_000;
const IN_PROGRESS_MS = 5_000;

function videoRequest(prompt: string): VideoRequest {
  return { model: 'model-1.0-video-edit', input: { prompt }, parameters: { resolution: '720p', duration: 4 } };
}

describe('JobStore against the gateway simulator', function () {
  this.timeout(20_000);
  let clock: FakeClock;
  let time: VirtualTime;
  let sim: Simulator;
  let client: GatewayClient;
  let api: GatewayApi;
  let store: JobStore;
  let folder: string;

  /** A store that has read the folder (see JobStore.ready). */
  async function createStore(options: Partial<JobStoreOptions> = {}): Promise<JobStore> {
    store = new JobStore({ folder, clock, apiFor: () => api, scheduler: { random: () => 0.5 }, sharing: { watch: false, rescanMs: 0 }, ...options });
    await store.ready;
    return store;
  }

  function running(): boolean {
    return store.jobs().some(isRunning);
  }

  /** Polls the store sent (through the wrapped client). */
  function storePolls(): number {
    return time.requests.filter((r) => r.method === 'get').length;
  }

  function simGets(): number {
    return sim.log.filter((e) => e.method === 'GET' && e.path.startsWith('/v1/videos/generations/')).length;
  }

  before(async () => {
    clock = new FakeClock();
    sim = await startSimulator({ video: { queuedMs: QUEUED_MS, inProgressMs: IN_PROGRESS_MS }, now: () => clock.now() });
  });

  after(async () => {
    await sim?.close();
  });

  beforeEach(async () => {
    time = new VirtualTime(clock);
    // The scheduler owns retries for polls, so the client must not hide a 429 behind its own waits.
    client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
    api = time.wrap(client);
    folder = tempFolder();
    sim.clearLog();
    sim.setRateLimit(null);
    sim.force429(0, 0);
    await createStore();
  });

  afterEach(async () => {
    store.dispose();
    await client.close();
    assert.equal(clock.pendingTimers, 0);
    await store.flush();
    removeTempFolders();
  });

  it('follows a job from queued to completed with the result URL, then stops polling', async () => {
    const finished: VideoJobRecord[] = [];
    store.onDidFinish((job) => finished.push(job));
    const submitted = await store.submit(sim.origin, videoRequest('a lighthouse at dusk'));
    assert.equal(submitted.status, 'queued');
    assert.match(submitted.id!, /^vid_/);
    const seen = new Set<string>();
    store.onDidChange(() => seen.add(store.jobs()[0].status));

    await time.runWhile(() => running(), 10 * 60_000);
    const [job] = store.jobs();
    assert.equal(job.status, 'completed');
    assert.equal(job.resultUrls.length, 1);
    assert.match(job.resultUrls[0], new RegExp(`^${sim.origin}/files/${job.id}\\.mp4\\?sig=`));
    assert.ok(seen.has('in_progress'));
    assert.equal(finished.length, 1);
    assert.equal(simGets(), storePolls());

    const polls = simGets();
    await time.runUntil(clock.now() + 30 * 60_000);
    assert.equal(simGets(), polls, 'no request once the job is final');
    assert.equal(clock.pendingTimers, 0, 'no timer while nothing is pending');
  });

  it('reports a failed job with the gateway’s error', async () => {
    await store.submit(sim.origin, videoRequest('[fail] a melting clock'));
    await time.runWhile(() => running(), 10 * 60_000);
    const [job] = store.jobs();
    assert.equal(job.status, 'failed');
    assert.equal(job.error?.code, 'generation_failed');
    assert.deepEqual(job.resultUrls, []);
  });

  it('sends no request while a 429 Retry-After is running, then resumes', async () => {
    const pauses: PauseChange[] = [];
    store.onDidChangePause((p) => pauses.push(p));
    for (let i = 0; i < 5; i++) await store.submit(sim.origin, videoRequest(`storm ${i}`));
    sim.force429(4, 2);
    await time.runWhile(() => running(), 10 * 60_000);
    assert.ok(pauses.some((p) => p.pausedUntil !== undefined), 'the pause was announced');
    assert.equal(pauses.at(-1)!.pausedUntil, undefined, 'and its end too');
    assert.equal(time.requests.filter((r) => r.errorStatus === 429).length, 2);
    assert.equal(requestsInsideRetryAfter(time.requests), 0);
    assert.equal(store.jobs().filter((j) => j.status === 'completed').length, 5);
  });

  it('marks a job the gateway does not know as not found (a job migrated from an earlier version)', async () => {
    const memento = new MemoryMemento();
    await memento.update('modelGateway.videoJobs.v1', [
      {
        key: 'k1', id: 'vid_unknown', origin: sim.origin, model: 'model-1.0-video-edit', prompt: 'lost', parameters: {},
        status: 'queued', resultUrls: [], createdAt: clock.now() - 60_000, updatedAt: clock.now() - 60_000, pollCount: 2,
      },
    ]);
    store.dispose();
    await createStore({ legacy: { storage: memento } });
    await time.runWhile(() => running(), 60_000);
    assert.equal(store.jobs()[0].localState, 'not_found');
    assert.equal(simGets(), 1);
  });

  it('waits for a new key after a 401 and resumes with it', async () => {
    await store.submit(sim.origin, videoRequest('a key rotation'));
    const auth: AuthRequired[] = [];
    store.onAuthRequired((a) => auth.push(a));
    const badClient = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: 'sk-wrong-key-0000000000', maxRetries: 0 });
    api = time.wrap(badClient);
    await time.runUntil(clock.now() + 5 * 60_000);
    assert.equal(auth.length, 1);
    assert.equal(auth[0].status, 401);
    assert.equal(simGets(), 1, 'one refused poll, then silence');
    await badClient.close();

    api = time.wrap(client);
    store.resumeAuth(sim.origin);
    await time.runWhile(() => running(), 10 * 60_000);
    assert.equal(store.jobs()[0].status, 'completed');
  });

  it('shows a submit whose answer was cut off as uncertain and never sends it twice', async () => {
    const job = await store.submit(sim.origin, videoRequest('[fault:drop-mid-stream] a cut-off answer'));
    assert.equal(job.localState, 'uncertain');
    await time.runUntil(clock.now() + 5 * 60_000);
    assert.equal(sim.log.filter((e) => e.method === 'POST').length, 1);
    assert.equal(simGets(), 0);
  });

  it('drops the job and rethrows when the gateway refuses the submit', async () => {
    await assert.rejects(store.submit(sim.origin, { ...videoRequest('x'), model: 'model-unknown' }), (error: { status?: number }) => error.status === 404);
    assert.deepEqual(store.jobs(), []);
  });

  it('survives a reload: the restored store picks the job up where it was', async () => {
    await store.submit(sim.origin, videoRequest('across a reload'));
    await time.runUntil(clock.now() + 4_000);
    const before = store.jobs()[0];
    assert.equal(storePolls(), 1);
    await store.flush();
    store.dispose();
    await createStore();
    assert.deepEqual(store.jobs(), [before]);
    await time.runWhile(() => running(), 10 * 60_000);
    assert.equal(store.jobs()[0].status, 'completed');
    assert.equal(simGets(), storePolls());
  });
});
