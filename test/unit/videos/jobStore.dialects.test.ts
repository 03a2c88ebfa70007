import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VideoCallOptions, VideoJob, VideoRequest, VideoWire } from '../../../src/gateway/types';
import { ApiDouble } from '../../util/apiDouble';
import { FakeClock } from '../../util/fakeClock';
import type { DialectName } from '../../../src/settings/profile';
import { JobStore } from '../../../src/videos/core/jobStore';
import { removeTempFolders, storedJobs, tempFolder } from './fakes';

const A = 'https://a.example';
const request: VideoRequest = { model: 'vendor/video-1', input: { prompt: 'a cat surfing' }, parameters: { duration: 8, resolution: '720p', aspect_ratio: '16:9' } };

/** A gateway that answers a dialect's wire with canned bodies read by that wire (as the client does). */
class WireGateway extends ApiDouble {
  readonly sent: Array<{ url: string; body?: string; spec?: boolean; method?: string }> = [];
  submitBody: unknown;
  polls: unknown[] = [];

  override async submitVideo(req: VideoRequest, options?: VideoCallOptions): Promise<VideoJob> {
    return this.answer(options?.wire, this.submitBody, req);
  }

  override async getVideo(id: string, options?: VideoCallOptions): Promise<VideoJob> {
    return this.answer(options?.wire, this.polls.length > 1 ? this.polls.shift() : this.polls[0], id);
  }

  private answer(wire: VideoWire | undefined, body: unknown, what: unknown): VideoJob {
    if (!wire) {
      this.sent.push({ url: `spec:${JSON.stringify(what)}`, spec: true });
      return body as VideoJob;
    }
    this.sent.push({ url: wire.url, ...(wire.body !== undefined && { body: wire.body }), ...(wire.method && { method: wire.method }) });
    return wire.read(body);
  }
}

describe('JobStore in a profile’s dialect', () => {
  let clock: FakeClock;
  let folder: string;
  let gateway: WireGateway;
  let speaks: { dialect: DialectName; baseUrl: string } | undefined;
  let stores: JobStore[];

  async function createStore(): Promise<JobStore> {
    const store = new JobStore({
      folder,
      clock,
      apiFor: () => gateway,
      dialectFor: () => speaks,
      scheduler: { random: () => 0, minGapMs: 0 },
      sharing: { watch: false, rescanMs: 0 },
    });
    stores.push(store);
    await store.ready;
    return store;
  }

  beforeEach(() => {
    clock = new FakeClock();
    folder = tempFolder();
    gateway = new WireGateway();
    speaks = { dialect: 'openrouter', baseUrl: `${A}/api/v1` };
    stores = [];
  });

  afterEach(async () => {
    for (const store of stores) store.dispose();
    for (const store of stores) await store.flush();
    removeTempFolders();
  });

  it('submits and polls an OpenRouter job at its polling_url, and keeps its progress, keyed links and cost', async () => {
    const store = await createStore();
    gateway.submitBody = { id: 'or-1', polling_url: '/api/v1/videos/or-1', status: 'pending' };
    const record = await store.submit(A, request, 'p-or');
    assert.equal(gateway.sent[0].url, `${A}/api/v1/videos`);
    assert.deepEqual(JSON.parse(gateway.sent[0].body!), { model: 'vendor/video-1', prompt: 'a cat surfing', duration: 8, resolution: '720p', aspect_ratio: '16:9' });
    assert.equal(record.dialect, 'openrouter');
    assert.equal(record.pollUrl, `${A}/api/v1/videos/or-1`);

    gateway.polls = [
      { id: 'or-1', status: 'in_progress' },
      { id: 'or-1', status: 'completed', unsigned_urls: ['/api/v1/videos/or-1/content?index=0'], urls: ['https://storage.example/signed.mp4'], usage: { cost: 0.42 } },
    ];
    // A later change of the profile's dialect leaves the running job in its own.
    speaks = { dialect: 'xai', baseUrl: `${A}/v1` };
    await clock.advanceAsync(60 * 60_000);
    const done = store.get(record.key)!;
    assert.ok(gateway.sent.slice(1).every((s) => s.url === `${A}/api/v1/videos/or-1`), JSON.stringify(gateway.sent));
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.resultUrls, [`${A}/api/v1/videos/or-1/content?index=0`, 'https://storage.example/signed.mp4']);
    assert.deepEqual(done.keyedUrls, [`${A}/api/v1/videos/or-1/content?index=0`]);
    assert.equal(done.costUsd, 0.42);
    await store.flush();
    assert.equal(storedJobs(folder)[0].dialect, 'openrouter');
  });

  it('keeps an xAI job’s progress while it runs', async () => {
    speaks = { dialect: 'xai', baseUrl: `${A}/v1` };
    const store = await createStore();
    gateway.submitBody = { request_id: 'x-1' };
    gateway.polls = [{ status: 'pending', progress: 40 }];
    const record = await store.submit(A, request);
    assert.equal(gateway.sent[0].url, `${A}/v1/videos/generations`);
    await clock.advanceAsync(20_000);
    assert.equal(gateway.sent.at(-1)!.url, `${A}/v1/videos/x-1`);
    assert.equal(store.get(record.key)!.progress, 40);
  });

  it('submits a profile without a dialect, and polls a job of an earlier version, in the spec’s own way', async () => {
    speaks = undefined;
    const store = await createStore();
    gateway.submitBody = { id: 'vid_1', status: 'queued' };
    gateway.polls = [{ id: 'vid_1', status: 'completed', data: [{ url: 'https://cdn.example/1.mp4' }] }];
    const record = await store.submit(A, request);
    await clock.advanceAsync(60 * 60_000);
    assert.ok(gateway.sent.every((s) => s.spec));
    assert.equal(store.get(record.key)!.dialect, undefined);
    assert.equal(store.get(record.key)!.status, 'completed');
  });

  it('keeps a job in a dialect this version does not know as written, and does not poll it', async () => {
    const stored = { key: 'job-new', id: 'n-1', origin: A, model: 'm', prompt: 'p', parameters: {}, status: 'queued', resultUrls: [], createdAt: 1, dialect: 'vertex', future: { a: 1 } };
    mkdirSync(join(folder, 'jobs'), { recursive: true });
    writeFileSync(join(folder, 'jobs', 'job-new.json'), JSON.stringify(stored));
    const store = await createStore();
    await clock.advanceAsync(60 * 60_000);
    assert.equal(gateway.sent.length, 0);
    const record = store.get('job-new')!;
    assert.equal(record.dialect, undefined);
    assert.deepEqual(record.unknown, { future: { a: 1 }, dialect: 'vertex' });
  });

  it('cancels an OpenAI-shaped job with DELETE /videos/{id}, and says why not for a dialect without a way to', async () => {
    speaks = { dialect: 'openai', baseUrl: `${A}/v1` };
    const store = await createStore();
    gateway.submitBody = { id: 'o-1', object: 'video', status: 'queued' };
    gateway.polls = [{ id: 'o-1', object: 'video', status: 'in_progress', progress: 10 }];
    const record = await store.submit(A, request);
    assert.equal(await store.cancelOnGateway(record.key), undefined);
    assert.deepEqual(gateway.sent.at(-1), { url: `${A}/v1/videos/o-1`, method: 'DELETE' });
    assert.equal(store.get(record.key)!.status, 'cancelled');

    speaks = { dialect: 'xai', baseUrl: `${A}/v1` };
    gateway.submitBody = { request_id: 'x-2' };
    const other = await store.submit(A, request);
    const sent = gateway.sent.length;
    assert.match((await store.cancelOnGateway(other.key))!, /xai dialect has no way to cancel/);
    assert.equal(gateway.sent.length, sent);
  });
});
