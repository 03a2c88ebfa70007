// The job store's learned schedule and the gateway's timing hints, end to end: the real gateway client against
// the gateway simulator, on a virtual clock shared by the store and the simulator's video schedule.
import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import type { GatewayApi, VideoRequest } from '../../../src/gateway/types';
import { FakeClock } from '../../util/fakeClock';
import { DurationHistory, MemoryJsonStore } from '../../../src/videos/core/durationHistory';
import { isRunning } from '../../../src/videos/core/jobPresentation';
import { JobStore } from '../../../src/videos/core/jobStore';
import { startSimulator, type Simulator } from '../../simulator';
import type { VideoSchedule } from '../../simulator/video';
import { removeTempFolders, tempFolder } from './fakes';
import { VirtualTime } from './virtualTime';

const S = 1_000;
const REQUEST: VideoRequest = { model: 'model-1.0-video-edit', input: { prompt: 'a harbour at dawn' }, parameters: { resolution: '720p', duration: 4 } };

describe('Learned polling against the gateway simulator', function () {
  this.timeout(20_000);
  let clock: FakeClock;
  let time: VirtualTime;
  let sim: Simulator;
  let client: GatewayClient;
  let api: GatewayApi;
  let history: DurationHistory;
  let historyStore: MemoryJsonStore;
  let store: JobStore;
  let schedule: VideoSchedule;

  before(async () => {
    clock = new FakeClock();
    sim = await startSimulator({ video: () => schedule, now: () => clock.now() });
  });

  after(async () => {
    await sim?.close();
  });

  beforeEach(async () => {
    time = new VirtualTime(clock);
    client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
    api = time.wrap(client);
    historyStore = new MemoryJsonStore();
    history = new DurationHistory({ store: historyStore });
    await history.load();
    store = new JobStore({ folder: tempFolder(), clock, apiFor: () => api, scheduler: { random: () => 0, history }, sharing: { watch: false, rescanMs: 0 } });
    sim.clearLog();
  });

  afterEach(async () => {
    store.dispose();
    await client.close();
    assert.equal(clock.pendingTimers, 0);
    await store.flush();
    removeTempFolders();
  });

  /** Submits a job and runs until it is final; returns its poll times in ms after the submission. */
  async function runJob(): Promise<number[]> {
    const from = time.requests.length;
    const job = await store.submit(sim.origin, REQUEST);
    await time.runWhile(() => store.jobs().some(isRunning), 30 * 60_000);
    const [submit, ...polls] = time.requests.slice(from);
    assert.equal(submit.jobId, job.id);
    assert.equal(store.get(job.key)!.status, 'completed');
    return polls.map((r) => r.startedAt - submit.startedAt);
  }

  it('waits for the Retry-After the gateway sends with a 200', async () => {
    schedule = { queuedMs: 30 * S, inProgressMs: 60 * S, progress: false, retryAfterSeconds: 25 };
    const polls = await runJob();
    const gaps = polls.slice(1).map((t, i) => t - polls[i]);
    assert.ok(gaps.every((gap) => gap >= 25 * S), `gaps: ${gaps.join(', ')}`);
    assert.equal(polls[1] - polls[0], 25 * S, 'the second poll comes exactly when the gateway said');
  });

  it('polls at the eta the gateway gives', async () => {
    schedule = { queuedMs: 30 * S, inProgressMs: 60 * S, progress: false, eta: true };
    const polls = await runJob();
    assert.deepEqual(polls, [2 * S, 90 * S], 'the eta at 2 s says 88 s more: one poll then, and it is done');
  });

  it('learns how long jobs take and polls the next one around that time, and saves what it learned', async () => {
    schedule = { queuedMs: 20 * S, inProgressMs: 70 * S, progress: false };
    const first = await runJob();
    assert.deepEqual(first.slice(0, 5), [2, 6, 14, 30, 60].map((s) => s * S), 'no history: the plain backoff');
    await runJob();
    await runJob();
    const learned = await runJob();
    assert.ok(learned.length <= 2, `polls: ${learned.join(', ')}`);
    assert.ok(learned[0] >= 88 * S && learned.at(-1)! - 90 * S <= 2 * S, `polls: ${learned.join(', ')}`);
    await history.flush();
    const saved = new DurationHistory({ store: historyStore });
    await saved.load();
    assert.deepEqual(saved.durationsMs({ origin: sim.origin, model: REQUEST.model, resolution: '720p', duration: 4 }), [90 * S, 90 * S, 90 * S, 90 * S]);
  });
});
