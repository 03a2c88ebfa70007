import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { GatewayApi, VideoJob, VideoRequest } from '../../../src/gateway/types';
import { FakeClock, settle } from '../../util/fakeClock';
import { displayStatus, type VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { requestFromRecord } from '../../../src/videos/core/jobRequest';
import { isRunning } from '../../../src/videos/core/jobPresentation';
import { JobStore, type JobStoreOptions, type SetAsideBatch } from '../../../src/videos/core/jobStore';
import type { AuthRequired } from '../../../src/videos/core/pollScheduler';
import { deferred, FakeGateway, FakeGatewayError, removeTempFolders, storedJobs, tempFolder, withoutKey } from './fakes';

const A = 'https://a.example';
const B = 'https://b.example';

const request: VideoRequest = {
  model: 'model-1.0-video-edit',
  input: { prompt: 'a cat surfing', video_url: 'https://cdn.example/src.mp4' },
  parameters: { resolution: '720p', duration: 5, seed: 42 },
};

describe('JobStore', () => {
  let clock: FakeClock;
  let gateway: FakeGateway;
  let folder: string;
  let apis: Map<string, GatewayApi>;
  let stores: JobStore[];

  /** A store that has read the folder (see JobStore.ready). */
  async function createStore(options: Partial<JobStoreOptions> = {}): Promise<JobStore> {
    const store = buildStore(options);
    await store.ready;
    return store;
  }

  /** A store still reading the folder. */
  function buildStore(options: Partial<JobStoreOptions> = {}): JobStore {
    const store = new JobStore({
      folder,
      clock,
      apiFor: (origin) => apis.get(origin) ?? withoutKey(origin),
      scheduler: { random: () => 0, minGapMs: 0 },
      // One store here: nothing to watch for (jobStore.windows.test.ts has several).
      sharing: { watch: false, rescanMs: 0 },
      ...options,
    });
    stores.push(store);
    return store;
  }

  function stored(): VideoJobRecord[] {
    return storedJobs(folder);
  }

  function running(store: JobStore): number {
    return store.jobs().filter(isRunning).length;
  }

  beforeEach(() => {
    clock = new FakeClock();
    gateway = new FakeGateway(clock);
    folder = tempFolder();
    apis = new Map<string, GatewayApi>([[A, gateway]]);
    stores = [];
  });

  afterEach(async () => {
    for (const store of stores) store.dispose();
    assert.equal(clock.pendingTimers, 0, 'dispose leaves no timer behind');
    for (const store of stores) await store.flush();
    removeTempFolders();
  });

  describe('submit', () => {
    it('stores a submitting record before sending, and the queued job before any event or return', async () => {
      const store = await createStore();
      const seenAtSend: VideoJobRecord[][] = [];
      gateway.onSubmit = () => {
        seenAtSend.push(stored());
        return { id: 'vid_1', object: 'video.generation.job', status: 'queued' };
      };
      const storedAtEvent: Array<Array<Pick<VideoJobRecord, 'id' | 'status' | 'localState'>>> = [];
      store.onDidChange(() => storedAtEvent.push(stored().map(({ id, status, localState }) => ({ id, status, localState }))));

      const job = await store.submit(A, request);

      assert.equal(seenAtSend[0].length, 1);
      assert.equal(seenAtSend[0][0].localState, 'submitting');
      assert.equal(displayStatus(seenAtSend[0][0]), 'submitting');
      assert.deepEqual(storedAtEvent, [
        [{ id: undefined, status: '', localState: 'submitting' }],
        [{ id: 'vid_1', status: 'queued', localState: undefined }],
      ]);
      assert.equal(job.id, 'vid_1');
      assert.equal(job.status, 'queued');
      assert.equal(displayStatus(job), 'queued');
      assert.deepEqual(stored()[0].id, 'vid_1');
      assert.equal(running(store), 1);
      assert.equal(stored()[0].submitter, undefined, 'only a submission on its way names its window');
    });

    it('keeps the request so a resubmission sends the same body', async () => {
      const store = await createStore();
      const job = await store.submit(A, request);
      assert.equal(job.model, request.model);
      assert.equal(job.prompt, 'a cat surfing');
      assert.equal(job.sourceVideoUrl, 'https://cdn.example/src.mp4');
      assert.deepEqual(job.parameters, { resolution: '720p', duration: 5, extra: { seed: 42 } });
      assert.deepEqual(requestFromRecord(job), request);
    });

    it('shows the job as uncertain when the outcome is unknown, and never retries the submit', async () => {
      const store = await createStore();
      gateway.onSubmit = () => new FakeGatewayError(undefined, 'network', { outcomeUnknown: true });
      const job = await store.submit(A, request);
      assert.equal(job.localState, 'uncertain');
      assert.equal(displayStatus(job), 'submission uncertain');
      assert.equal(job.id, undefined);
      assert.equal(stored()[0].localState, 'uncertain');
      await clock.advanceAsync(10 * 60_000);
      assert.equal(gateway.calls.length, 1, 'one submit, no retry, no poll');
      assert.equal(running(store), 0);
      assert.equal(clock.pendingTimers, 0);
    });

    it('follows an uncertain submission once the user gives the job id the gateway created', async () => {
      const store = await createStore();
      gateway.onSubmit = () => new FakeGatewayError(undefined, 'network', { outcomeUnknown: true });
      const uncertain = await store.submit(A, request);
      gateway.script('vid_found', 'in_progress', { id: 'vid_found', status: 'completed', data: [{ url: 'https://cdn.example/out.mp4' }] });
      const adopted = await store.adopt(uncertain.key, ' vid_found ');
      assert.equal(adopted.id, 'vid_found');
      assert.equal(adopted.localState, undefined);
      assert.equal(adopted.status, 'in_progress');
      assert.equal(stored()[0].id, 'vid_found');
      await clock.advanceAsync(60_000);
      assert.equal(store.get(uncertain.key)?.status, 'completed', 'polling took over');
      assert.deepEqual(store.get(uncertain.key)?.resultUrls, ['https://cdn.example/out.mp4']);
      assert.equal(gateway.calls.filter((c) => c.method === 'submit').length, 1, 'nothing was resubmitted');
    });

    it('refuses a job id the gateway does not know, keeping the submission uncertain', async () => {
      const store = await createStore();
      gateway.onSubmit = () => new FakeGatewayError(undefined, 'network', { outcomeUnknown: true });
      const uncertain = await store.submit(A, request);
      gateway.onGet = () => new FakeGatewayError(404, 'not_found');
      await assert.rejects(store.adopt(uncertain.key, 'vid_nope'));
      assert.equal(store.get(uncertain.key)?.localState, 'uncertain');
      assert.equal(clock.pendingTimers, 0);
    });

    it('treats a 5xx answer to a submit as uncertain (the job may exist)', async () => {
      const store = await createStore();
      gateway.onSubmit = () => new FakeGatewayError(502, 'bad_gateway');
      const job = await store.submit(A, request);
      assert.equal(job.localState, 'uncertain');
      assert.equal(job.error?.status, 502);
    });

    for (const [status, code] of [[400, 'invalid_request'], [401, 'unauthorized'], [429, 'rate_limited']] as const) {
      it(`removes the record and rethrows on a definite refusal (${status})`, async () => {
        const store = await createStore();
        const refusal = new FakeGatewayError(status, code);
        gateway.onSubmit = () => refusal;
        const changes: string[][] = [];
        store.onDidChange((c) => changes.push(c.keys));
        await assert.rejects(store.submit(A, request), (error) => error === refusal);
        assert.deepEqual(store.jobs(), []);
        assert.deepEqual(stored(), []);
        assert.equal(changes.length, 2, 'added, then removed');
        assert.equal(gateway.calls.length, 1);
      });
    }

    it('refuses to submit without an API key, keeping nothing', async () => {
      const store = await createStore();
      await assert.rejects(store.submit(B, request), /No API key/);
      assert.deepEqual(store.jobs(), []);
      assert.deepEqual(stored(), []);
    });

    it('resubmit replaces an uncertain job with a new one', async () => {
      const store = await createStore();
      gateway.onSubmit = () => new FakeGatewayError(undefined, 'network', { outcomeUnknown: true });
      const uncertain = await store.submit(A, request);
      const sent: VideoRequest[] = [];
      gateway.onSubmit = (body) => {
        sent.push(body);
        return { id: 'vid_2', status: 'queued' };
      };
      const fresh = await store.resubmit(uncertain.key);
      assert.deepEqual(sent, [request]);
      assert.equal(fresh.id, 'vid_2');
      assert.deepEqual(store.jobs().map((j) => j.id), ['vid_2']);
      assert.deepEqual(stored().map((j) => j.id), ['vid_2']);
    });

    it('resubmit of a failed job adds a new job and keeps the old one', async () => {
      const store = await createStore();
      gateway.onSubmit = () => ({ id: 'vid_1', status: 'queued' });
      gateway.script('vid_1', 'failed');
      await store.submit(A, request);
      await clock.advanceAsync(2_000);
      const [failed] = store.jobs();
      assert.equal(failed.status, 'failed');
      gateway.onSubmit = () => ({ id: 'vid_2', status: 'queued' });
      clock.advance(1);
      await store.resubmit(failed.key);
      assert.deepEqual(store.jobs().map((j) => j.id), ['vid_2', 'vid_1']);
    });

    it('a job that is final in the submit answer is never polled', async () => {
      const store = await createStore();
      const finished: VideoJobRecord[] = [];
      store.onDidFinish((job) => finished.push(job));
      gateway.onSubmit = () => ({ id: 'vid_1', status: 'failed', error: { code: 'content_policy', message: 'refused' } });
      const job = await store.submit(A, request);
      assert.equal(job.status, 'failed');
      assert.deepEqual(job.error, { code: 'content_policy', message: 'refused' });
      assert.equal(finished.length, 1);
      await clock.advanceAsync(60_000);
      assert.equal(gateway.gets().length, 0);
    });
  });

  describe('polling', () => {
    it('follows a job to completion, then fires onDidFinish once and stops', async () => {
      const store = await createStore();
      const finished: VideoJobRecord[] = [];
      store.onDidFinish((job) => finished.push(job));
      gateway.script('vid_1', 'queued', 'in_progress', {
        id: 'vid_1',
        status: 'completed',
        data: [{ url: 'https://cdn.example/out.mp4' }],
      });
      gateway.onSubmit = () => ({ id: 'vid_1', status: 'queued' });
      await store.submit(A, request);
      await clock.advanceAsync(6_000);
      assert.equal(store.jobs()[0].status, 'in_progress');
      assert.equal(running(store), 1);
      await clock.advanceAsync(8_000);
      const [job] = store.jobs();
      assert.equal(job.status, 'completed');
      assert.deepEqual(job.resultUrls, ['https://cdn.example/out.mp4']);
      assert.equal(job.completedAt, clock.now());
      assert.equal(finished.length, 1);
      assert.equal(running(store), 0);
      await store.flush();
      assert.equal(stored()[0].status, 'completed');
      await clock.advanceAsync(60 * 60_000);
      assert.equal(gateway.gets().length, 3);
      assert.equal(store.refresh(job.key), false);
    });

    it('marks a job not found on 404, as a final local state', async () => {
      const store = await createStore();
      const finished: VideoJobRecord[] = [];
      store.onDidFinish((job) => finished.push(job));
      gateway.script('vid_1', new FakeGatewayError(404, 'not_found'));
      await store.submit(A, request);
      await clock.advanceAsync(60_000);
      const [job] = store.jobs();
      assert.equal(job.localState, 'not_found');
      assert.equal(displayStatus(job), 'not found on the gateway');
      assert.equal(finished.length, 1);
      assert.equal(gateway.gets().length, 1);
    });

    it('keeps showing an unknown status as-is', async () => {
      const store = await createStore();
      gateway.script('vid_1', 'rendering_frames');
      await store.submit(A, request);
      await clock.advanceAsync(2_000);
      assert.equal(displayStatus(store.jobs()[0]), 'rendering_frames');
      assert.equal(running(store), 1);
    });

    it('waits for a key when the origin has none, then resumes', async () => {
      const store = await createStore();
      const auth: AuthRequired[] = [];
      store.onAuthRequired((a) => auth.push(a));
      await store.submit(A, request);
      apis.delete(A);
      await clock.advanceAsync(10 * 60_000);
      assert.equal(auth.length, 1);
      assert.equal(auth[0].origin, A);
      assert.equal(store.isAuthBlocked(A), true);
      assert.equal(gateway.gets().length, 0);
      apis.set(A, gateway);
      store.resumeAuth(A);
      await clock.advanceAsync(2_000);
      assert.equal(gateway.gets().length, 1);
      assert.equal(store.isAuthBlocked(A), false);
    });

    it('exposes a rate-limit pause of the origin', async () => {
      const store = await createStore();
      const pauses: Array<number | undefined> = [];
      store.onDidChangePause((p) => pauses.push(p.pausedUntil));
      gateway.script('vid_1', new FakeGatewayError(429, 'rate_limited', { retryAfterMs: 10_000 }), 'queued');
      await store.submit(A, request);
      await clock.advanceAsync(2_000);
      assert.equal(store.pausedUntil(A), clock.now() + 10_000);
      await clock.advanceAsync(10_000);
      assert.equal(store.pausedUntil(A), undefined);
      assert.equal(pauses.length, 2);
      assert.equal(pauses[1], undefined);
    });

    it('refresh polls a pending job now; refreshAll polls every pending job', async () => {
      const store = await createStore();
      const first = await store.submit(A, request);
      await store.submit(A, request);
      assert.equal(store.refresh(first.key), true);
      await settle();
      assert.deepEqual(gateway.gets().map((c) => c.id), ['vid_1']);
      store.refreshAll();
      await settle();
      assert.equal(gateway.gets().length, 3);
    });
  });

  describe('persistence', () => {
    it('restores every job after a reload, and polls the pending ones again on the scheduler\'s own schedule', async () => {
      const first = await createStore();
      gateway.onSubmit = () => ({ id: `vid_${gateway.calls.length}`, status: 'queued' });
      gateway.script('vid_1', 'queued', 'completed');
      gateway.script('vid_2', 'in_progress');
      await first.submit(A, request);
      clock.advance(1);
      await first.submit(A, { ...request, input: { prompt: 'second' } });
      await clock.advanceAsync(6_000); // vid_1 completes; vid_2 polled twice
      await first.flush();
      const before = first.jobs();
      first.dispose();
      const callsBefore = gateway.gets().length;

      clock.advance(3_000);
      const second = await createStore();
      assert.deepEqual(second.jobs(), before);
      assert.equal(running(second), 1);
      await clock.advanceAsync(1_999);
      assert.equal(gateway.gets().length, callsBefore, 'no burst of polls on start');
      await clock.advanceAsync(1);
      assert.deepEqual(gateway.gets().slice(callsBefore).map((c) => c.id), ['vid_2']);
    });

    it('polls a job saved before the store was built with the focus and poll bounds given while the folder was read', async () => {
      const first = await createStore();
      gateway.script('vid_1', 'in_progress');
      await first.submit(A, request);
      await first.flush();
      first.dispose();
      const callsBefore = gateway.gets().length;

      // Given before the first read ends (polling is built once it finds the job): the scheduler gets them.
      const second = buildStore();
      second.setPollIntervals({ minIntervalMs: 20_000, maxIntervalMs: 40_000 });
      assert.equal(second.isPolling(A), false);
      await second.ready;
      assert.equal(second.isPolling(A), true);
      assert.equal(running(second), 1);
      await clock.advanceAsync(19_999);
      assert.equal(gateway.gets().length, callsBefore, 'the first poll keeps to the bounds given before the read');
      await clock.advanceAsync(1);
      assert.deepEqual(gateway.gets().slice(callsBefore).map((c) => c.id), ['vid_1']);
    });

    it('a job still submitting when the window closed comes back as uncertain', async () => {
      const first = await createStore();
      gateway.onSubmit = () => new Promise<VideoJob>(() => undefined);
      void first.submit(A, request);
      await first.flush();
      assert.equal(stored()[0].localState, 'submitting');
      first.dispose();
      const second = await createStore();
      assert.equal(second.jobs()[0].localState, 'uncertain');
      await second.flush();
      assert.equal(stored()[0].localState, 'uncertain');
    });

    it('sets damaged job files aside, never deletes them, and says so once', async () => {
      const first = await createStore();
      const good = await first.submit(A, request);
      await first.flush();
      first.dispose();
      const jobs = join(folder, 'jobs');
      const damaged = {
        'other.json': JSON.stringify({ ...stored()[0], key: 'elsewhere' }),
        'torn.json': '{"key":"torn","orig',
        'shape.json': JSON.stringify({ key: 'shape', nonsense: true }),
      };
      for (const [name, text] of Object.entries(damaged)) writeFileSync(join(jobs, name), text);
      writeFileSync(join(jobs, '..json'), '{}');
      const batches: SetAsideBatch[] = [];
      // Listeners added as the store is built hear what its first read of the folder set aside.
      const store = buildStore();
      store.onDidSetAside((batch) => batches.push(batch));
      await store.ready;
      await settle();

      assert.deepEqual(store.jobs().map((job) => job.key), [good.key]);
      assert.equal(batches.length, 1, 'one notice for the batch');
      assert.equal(batches[0].folder, join(folder, 'set-aside'));
      const moved = batches[0].files.map((file) => [basename(file).split('.')[0], readFileSync(file, 'utf8')]).sort();
      assert.deepEqual(moved, Object.entries(damaged).map(([name, text]) => [name.split('.')[0], text]).sort(), 'moved as they were');
      assert.deepEqual(readdirSync(jobs).sort(), ['..json', `${good.key}.json`]);

      const again = await createStore();
      again.onDidSetAside((batch) => batches.push(batch));
      await settle();
      assert.equal(batches.length, 1, 'nothing more to say after a reload');
    });

    it('sets aside a job file that is damaged while the store runs', async () => {
      const store = await createStore();
      const batches: SetAsideBatch[] = [];
      store.onDidSetAside((batch) => batches.push(batch));
      const job = await store.submit(A, request);
      await store.flush();
      const file = join(folder, 'jobs', `${job.key}.json`);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.slice(0, 40)); // truncated
      await store.rescan();
      await settle();
      assert.equal(batches.length, 1);
      assert.equal(readFileSync(batches[0].files[0], 'utf8'), text.slice(0, 40));
      assert.equal(existsSync(file), false);
    });

    it('writes back members it does not know, unchanged, and backs up a newer version\'s file before rewriting it', async () => {
      const jobs = join(folder, 'jobs');
      mkdirSync(jobs, { recursive: true });
      const newer = {
        schemaVersion: 2,
        key: 'k1',
        id: 'vid_1',
        origin: A,
        model: 'model-1.0-video-edit',
        prompt: 'a cat',
        parameters: { resolution: '720p', aspect: { w: 16, h: 9 } },
        status: 'queued',
        error: { message: 'earlier', hint: 'x' },
        resultUrls: [],
        createdAt: clock.now() - 1_000,
        updatedAt: clock.now() - 1_000,
        thumbnails: [{ at: 1, url: 'https://cdn.example/t.png' }],
        priority: 'high',
      };
      const original = JSON.stringify(newer, null, 2);
      writeFileSync(join(jobs, 'k1.json'), original);
      gateway.script('vid_1', 'in_progress');
      const store = await createStore();
      await clock.advanceAsync(2_000);
      await store.flush();

      const written = JSON.parse(readFileSync(join(jobs, 'k1.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(written.status, 'in_progress');
      assert.equal(written.schemaVersion, 2);
      for (const member of ['thumbnails', 'priority', 'parameters', 'error']) assert.deepEqual(written[member], newer[member as keyof typeof newer], member);
      assert.equal(readFileSync(join(jobs, 'k1.v2.bak.json'), 'utf8'), original, 'the newer version\'s text, beside it');
    });

    it('keeps unknown members of a file of its own version, without a backup', async () => {
      const jobs = join(folder, 'jobs');
      mkdirSync(jobs, { recursive: true });
      const own = { key: 'k1', id: 'vid_1', origin: A, model: 'm', prompt: 'p', parameters: {}, status: 'queued', resultUrls: [], createdAt: clock.now(), note: { by: 'a script' } };
      writeFileSync(join(jobs, 'k1.json'), JSON.stringify(own));
      gateway.script('vid_1', 'in_progress');
      const store = await createStore();
      await clock.advanceAsync(2_000);
      await store.flush();
      const written = JSON.parse(readFileSync(join(jobs, 'k1.json'), 'utf8')) as Record<string, unknown>;
      assert.equal(written.status, 'in_progress');
      assert.deepEqual(written.note, own.note);
      assert.deepEqual(readdirSync(jobs), ['k1.json']);
    });

    it('leaves a newer version\'s file it cannot read where it is, and reports it once', async () => {
      const jobs = join(folder, 'jobs');
      mkdirSync(jobs, { recursive: true });
      const text = JSON.stringify({ schemaVersion: 3, key: 'k1', request: { model: 'm' } });
      writeFileSync(join(jobs, 'k1.json'), text);
      const errors: unknown[] = [];
      const batches: SetAsideBatch[] = [];
      const store = await createStore({ onPersistError: (error) => errors.push(error), sharing: { watch: false, rescanMs: 1_000 } });
      store.onDidSetAside((batch) => batches.push(batch));
      await clock.advanceAsync(3_000);
      writeFileSync(join(jobs, 'k1.json'), text.replace('"m"', '"m2"'));
      await clock.advanceAsync(3_000);
      assert.deepEqual(store.jobs(), []);
      assert.equal(readFileSync(join(jobs, 'k1.json'), 'utf8'), text.replace('"m"', '"m2"'));
      assert.deepEqual(batches, []);
      assert.equal(errors.length, 1, String(errors));
      assert.match(String(errors[0]), /newer version/);
    });

    it('sends nothing when the job cannot be saved first, and names the folder', async () => {
      const errors: unknown[] = [];
      const store = await createStore({ onPersistError: (error) => errors.push(error) });
      await store.flush(); // the start-up sweep of old temp files
      const jobs = join(folder, 'jobs');
      rmSync(jobs, { recursive: true });
      writeFileSync(jobs, 'not a folder'); // every write into it fails, as on a read-only folder or a full disk
      const changes: string[][] = [];
      store.onDidChange((change) => changes.push(change.keys));

      await assert.rejects(store.submit(A, request), (error: Error) => {
        assert.equal(error.name, 'JobStorageError');
        assert.ok(error.message.includes(jobs), error.message);
        assert.match(error.message, /not sent/i);
        return true;
      });
      assert.equal(gateway.calls.length, 0, 'no request left');
      assert.deepEqual(store.jobs(), [], 'no job lives only in memory');
      assert.deepEqual(changes, []);

      rmSync(jobs);
      await store.flush();
      assert.equal(existsSync(jobs), false, 'the failed record is not written later, nor its removal');
    });

    it('keeps working from memory when a later write fails, reports it, and writes the job with the next change', async () => {
      const errors: unknown[] = [];
      const store = await createStore({ onPersistError: (error) => errors.push(error) });
      gateway.script('vid_1', 'in_progress', 'completed');
      const job = await store.submit(A, request);
      const jobs = join(folder, 'jobs');
      renameSync(jobs, `${jobs}.away`);
      writeFileSync(jobs, 'not a folder');
      await clock.advanceAsync(2_000); // in_progress: the write fails
      await store.flush();
      assert.equal(store.get(job.key)?.status, 'in_progress');
      assert.equal(errors.length, 1, `the write of the polled record failed: ${errors.join('; ')}`);
      rmSync(jobs);
      renameSync(`${jobs}.away`, jobs);
      await clock.advanceAsync(4_000); // completed
      await store.flush();
      assert.equal(stored()[0].status, 'completed', 'the next write stored the job');
    });
  });

  describe('listing and removal', () => {
    it('lists jobs newest first, per origin', async () => {
      const other = new FakeGateway(clock);
      apis.set(B, other);
      const store = await createStore();
      await store.submit(A, { ...request, input: { prompt: 'one' } });
      clock.advance(10);
      await store.submit(B, { ...request, input: { prompt: 'two' } });
      clock.advance(10);
      await store.submit(A, { ...request, input: { prompt: 'three' } });
      assert.deepEqual(store.jobs().map((j) => j.prompt), ['three', 'two', 'one']);
      assert.deepEqual(store.jobs(A).map((j) => j.prompt), ['three', 'one']);
      assert.deepEqual(store.jobs(B).map((j) => j.prompt), ['two']);
    });

    it('remove forgets a job and stops its polling', async () => {
      const store = await createStore();
      const job = await store.submit(A, request);
      assert.equal(await store.remove(job.key), true);
      assert.deepEqual(store.jobs(), []);
      assert.deepEqual(stored(), []);
      await clock.advanceAsync(60_000);
      assert.equal(gateway.gets().length, 0);
      assert.equal(clock.pendingTimers, 0);
      assert.equal(await store.remove(job.key), false);
    });

    it('clearFinished removes final jobs only (completed, failed, not found)', async () => {
      const store = await createStore();
      gateway.onSubmit = () => ({ id: `vid_${gateway.calls.filter((c) => c.method === 'submit').length}`, status: 'queued' });
      gateway.script('vid_1', 'completed');
      gateway.script('vid_2', 'failed');
      gateway.script('vid_3', new FakeGatewayError(404, 'not_found'));
      gateway.script('vid_4', 'in_progress');
      for (let i = 0; i < 4; i++) await store.submit(A, request);
      gateway.onSubmit = () => new FakeGatewayError(undefined, 'network', { outcomeUnknown: true });
      await store.submit(A, request);
      await clock.advanceAsync(2_000);
      assert.equal(await store.clearFinished(), 3);
      const left = store.jobs().map((j) => j.id ?? j.localState).sort();
      assert.deepEqual(left, ['uncertain', 'vid_4']);
      assert.equal(stored().length, 2);
      assert.equal(await store.clearFinished(), 0);
    });

    it('returns copies: editing a listed job does not change the store', async () => {
      const store = await createStore();
      await store.submit(A, request);
      store.jobs()[0].status = 'completed';
      assert.equal(store.jobs()[0].status, 'queued');
    });

    it('a job removed while its submit is on the way is not brought back', async () => {
      const store = await createStore();
      const answer = deferred<VideoJob>();
      gateway.onSubmit = () => answer.promise;
      const submitting = store.submit(A, request);
      await settle();
      await store.remove(store.jobs()[0].key);
      answer.resolve({ id: 'vid_1', status: 'queued' });
      await submitting;
      assert.deepEqual(store.jobs(), []);
      await clock.advanceAsync(60_000);
      assert.equal(gateway.gets().length, 0);
    });
  });
});
