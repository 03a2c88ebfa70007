// Several windows (extension hosts) on one profile: one JobStore each, over one folder. Each window has its own
// fake gateway, so the tests see which window sent what; all of them answer from one table of jobs, as one
// gateway would.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VideoJob, VideoRequest } from '../../../src/gateway/types';
import { Emitter } from '../../../src/util/events';
import { FakeClock, settle } from '../../util/fakeClock';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { JobStore, VIDEO_JOBS_STORAGE_KEY, type SharingOptions } from '../../../src/videos/core/jobStore';
import { JobFiles } from '../../../src/videos/core/jobFiles';
import { PollLease } from '../../../src/videos/core/pollLease';
import type { Presence } from '../../../src/videos/core/windowPresence';
import { deferred, FakeGateway, MemoryMemento, removeTempFolders, storedJobs, tempFolder, withoutKey } from './fakes';

const A = 'https://a.example';

/** Whether the window is there, set by the test (windowPresence.ts has its own tests). */
class FakePresence implements Presence {
  attached = true;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;
  set(attached: boolean): void {
    this.attached = attached;
    this.emitter.fire(attached);
  }
}

function videoRequest(prompt: string): VideoRequest {
  return { model: 'model-1.0-video-edit', input: { prompt }, parameters: { resolution: '720p', duration: 5 } };
}

interface Window {
  store: JobStore;
  gateway: FakeGateway;
  /** Jobs this window announced. */
  finished: VideoJobRecord[];
  /** The keys of every change event. */
  changes: string[][];
}

interface WindowOptions {
  clock?: FakeClock;
  /** Without a key for the gateway (another browser profile, or a key that was never set here). */
  noKey?: boolean;
  sharing?: SharingOptions;
  legacy?: MemoryMemento;
  presence?: Presence;
}

describe('JobStore with several windows on one folder', () => {
  let clock: FakeClock;
  let folder: string;
  let server: Map<string, VideoJob>;
  let nextId: number;
  let windows: Window[];
  let clocks: FakeClock[];

  /** A window whose store has read the folder (see JobStore.ready); `changes` starts after that read. */
  async function openWindow(options: WindowOptions = {}): Promise<Window> {
    const window = openWindowNow(options);
    await window.store.ready;
    window.changes.length = 0;
    return window;
  }

  /** A window whose store is still reading the folder. */
  function openWindowNow(options: WindowOptions = {}): Window {
    const windowClock = options.clock ?? clock;
    const gateway = new FakeGateway(windowClock);
    gateway.onSubmit = () => {
      const id = `vid_${nextId++}`;
      server.set(id, { id, status: 'queued' });
      return { id, object: 'video.generation.job', status: 'queued' };
    };
    gateway.onGet = (id) => ({ ...(server.get(id) ?? { id, status: 'queued' }) });
    const store = new JobStore({
      folder,
      clock: windowClock,
      apiFor: (origin) => (options.noKey ? withoutKey(origin) : gateway),
      scheduler: { random: () => 0, minGapMs: 0 },
      // Deterministic by default: other windows' changes are read when a test calls rescan().
      sharing: { watch: false, rescanMs: 0, ...options.sharing },
      ...(options.legacy && { legacy: { storage: options.legacy } }),
      presence: options.presence,
    });
    const window: Window = { store, gateway, finished: [], changes: [] };
    store.onDidFinish((record) => window.finished.push(record));
    store.onDidChange((change) => window.changes.push(change.keys));
    windows.push(window);
    return window;
  }

  function complete(id: string): void {
    server.set(id, { id, status: 'completed', data: [{ url: `https://cdn.example/${id}.mp4` }] });
  }

  /** Lets every store finish its writes, then read what the others wrote. */
  async function syncAll(): Promise<void> {
    for (const w of windows) await w.store.flush();
    for (const w of windows) await w.store.rescan();
  }

  beforeEach(() => {
    clock = new FakeClock();
    clocks = [clock];
    folder = tempFolder();
    server = new Map();
    nextId = 1;
    windows = [];
  });

  afterEach(async () => {
    for (const w of windows) w.store.dispose();
    for (const c of clocks) assert.equal(c.pendingTimers, 0, 'dispose leaves no timer behind');
    for (const w of windows) await w.store.flush();
    removeTempFolders();
  });

  describe('one file per job', () => {
    it('keeps every job two windows submit at the same time, and a window opened later lists them all', async () => {
      const a = await openWindow();
      const b = await openWindow();
      const submitted = await Promise.all([
        a.store.submit(A, videoRequest('a1')),
        b.store.submit(A, videoRequest('b1')),
        a.store.submit(A, videoRequest('a2')),
        b.store.submit(A, videoRequest('b2')),
      ]);
      await syncAll();
      const keys = submitted.map((job) => job.key).sort();
      assert.deepEqual(storedJobs(folder).map((job) => job.key).sort(), keys);
      for (const w of [a, b]) assert.deepEqual(w.store.jobs().map((job) => job.key).sort(), keys, 'each window shows the other window\'s jobs');
      const later = await openWindow();
      assert.deepEqual(later.store.jobs().map((job) => job.prompt).sort(), ['a1', 'a2', 'b1', 'b2']);
    });

    it('lists a job another window writes while its first read of the folder is under way (activation does not wait for that read)', async () => {
      const a = await openWindow();
      const before = await a.store.submit(A, videoRequest('before'));
      // Built while a's next write is on its way: the folder is watched before the first read starts, so the job is
      // in that read or in the one its file's watch event sets off.
      const writing = a.store.submit(A, videoRequest('meanwhile'));
      const b = openWindowNow({ sharing: { watch: true, rescanMs: 0 } });
      assert.deepEqual(b.store.jobs(), [], 'nothing is read while the window activates');
      const meanwhile = await writing;
      await b.store.ready;
      assert.ok(b.store.get(before.key), 'the first read brings what was there');
      await waitFor(() => b.store.get(meanwhile.key) !== undefined, 'the job written during the first read');
      assert.ok(b.changes.flat().includes(before.key), 'listeners hear of the jobs the first read found');
    });

    it('picks up another window\'s new and removed jobs from a watch of the folder, without a re-scan timer', async () => {
      const a = await openWindow();
      const b = await openWindow({ sharing: { watch: true, rescanMs: 0 } });
      const job = await a.store.submit(A, videoRequest('watched'));
      await waitFor(() => b.store.get(job.key)?.status === 'queued', 'the watch to bring the job');
      await a.store.remove(job.key);
      await waitFor(() => b.store.get(job.key) === undefined, 'the watch to take the job away');
      assert.ok(b.changes.some((keys) => keys.includes(job.key)));
    });

    it('picks up another window\'s jobs on the periodic re-scan when no watch is running', async () => {
      const a = await openWindow();
      const b = await openWindow({ sharing: { watch: false, rescanMs: 5_000 } });
      const job = await a.store.submit(A, videoRequest('scanned'));
      await b.store.flush();
      assert.equal(b.store.get(job.key), undefined);
      await clock.advanceAsync(5_000);
      await b.store.flush();
      assert.equal(b.store.get(job.key)?.prompt, 'scanned');
    });

    it('lists exactly the changed records in a change, and a poll that brings no news changes nothing', async () => {
      const a = await openWindow();
      const b = await openWindow();
      const jobs = [];
      for (const prompt of ['one', 'two', 'three']) jobs.push(await a.store.submit(A, videoRequest(prompt)));
      await syncAll();
      a.changes.length = 0;
      b.changes.length = 0;
      await clock.advanceAsync(2_000); // every job polled once: still queued
      assert.equal(a.gateway.gets().length, 3);
      assert.deepEqual(a.changes, [], 'no news, no change event');
      await a.store.flush();
      assert.deepEqual(storedJobs(folder).map((job) => job.updatedAt), jobs.map((job) => job.updatedAt).reverse(), 'and no write');

      server.set(jobs[1].id!, { id: jobs[1].id!, status: 'in_progress' });
      await clock.advanceAsync(4_000);
      assert.equal(a.gateway.gets().length, 6);
      assert.deepEqual(a.changes, [[jobs[1].key]]);
      await syncAll();
      assert.deepEqual(b.changes, [[jobs[1].key]], 'the other window hears of exactly that job');
      assert.equal(b.store.get(jobs[1].key)?.status, 'in_progress');
    });

    it('never brings back a job another window removed, even when a poll answer of this window lands afterwards', async () => {
      const a = await openWindow();
      const job = await a.store.submit(A, videoRequest('removed elsewhere'));
      const b = await openWindow();
      const answer = deferred<VideoJob>();
      a.gateway.onGet = () => answer.promise;
      await clock.advanceAsync(2_000); // a (the poller) asks; the answer is on its way
      assert.equal(a.gateway.gets().length, 1);
      assert.equal(await b.store.remove(job.key), true);
      answer.resolve({ id: job.id!, status: 'in_progress' });
      await settle();
      await a.store.flush();
      assert.equal(a.store.get(job.key), undefined, 'the poller dropped it when its write found it removed');
      assert.deepEqual(storedJobs(folder), []);
      assert.deepEqual((await openWindow()).store.jobs(), []);
    });

    it('deletes a file written while another window removed the job (the tombstone is checked after the rename)', async () => {
      const files = new JobFiles(folder);
      const writing = files.write('job-race', '{}');
      const removing = files.remove('job-race'); // lands between this write's first check and its rename
      assert.deepEqual(await Promise.all([writing, removing]), ['removed', undefined]);
      assert.equal(existsSync(join(folder, 'jobs', 'job-race.json')), false);
    });

    it('leaves another window\'s submission on its way alone, and makes it uncertain once that window is gone', async () => {
      const a = await openWindow();
      a.gateway.onSubmit = () => new Promise<VideoJob>(() => undefined);
      void a.store.submit(A, videoRequest('never answered'));
      await a.store.flush();
      const b = await openWindow();
      assert.equal(b.store.jobs()[0].localState, 'submitting', 'window a is still waiting for the answer');
      a.store.dispose();
      await b.store.rescan();
      assert.equal(b.store.jobs()[0].localState, 'uncertain');
      await b.store.flush();
      assert.equal(storedJobs(folder)[0].localState, 'uncertain');
    });
  });

  describe('one window polls', () => {
    it('polls from the window holding the gateway\'s lease only; the other takes over within a heartbeat when it closes', async () => {
      const a = await openWindow();
      const job = await a.store.submit(A, videoRequest('polled once'));
      const b = await openWindow();
      await b.store.submit(A, videoRequest('submitted in b'));
      await syncAll();
      await clock.advanceAsync(60_000);
      assert.equal(a.store.isPolling(A), true);
      assert.equal(b.store.isPolling(A), false);
      assert.ok(a.gateway.gets().length >= 10, 'window a polls both jobs');
      assert.equal(b.gateway.gets().length, 0, 'window b polls nothing');
      assert.equal(new Set(a.gateway.gets().map((c) => c.id)).size, 2);

      a.store.dispose();
      const closedAt = clock.now();
      await clock.advanceAsync(1_000);
      assert.equal(b.store.isPolling(A), true, 'taken over at the next heartbeat');
      await clock.advanceAsync(2_000);
      const first = b.gateway.gets()[0];
      assert.ok(first && first.at - closedAt <= 3_000, 'window b polls within the first interval after the takeover');
      complete(job.id!);
      await clock.advanceAsync(4_000);
      assert.equal(b.store.get(job.key)?.status, 'completed');
    });

    it('takes over from a window that stopped renewing its lease (crashed or hung), and the hung one steps down when it wakes', async () => {
      const clockA = new FakeClock(clock.now());
      clocks.push(clockA);
      const a = await openWindow({ clock: clockA });
      await a.store.submit(A, videoRequest('crash'));
      const b = await openWindow();
      assert.equal(a.store.isPolling(A), true);
      assert.equal(b.store.isPolling(A), false);

      // Window a stops: its clock stands still, so it renews nothing; window b's time goes on.
      await clock.advanceAsync(5_000);
      assert.equal(b.store.isPolling(A), false, 'a heartbeat 5 s old is not stale yet');
      await clock.advanceAsync(1_000 + 250);
      assert.equal(b.store.isPolling(A), true, 'stale after 5 s, taken over by the next look plus the settle time');
      await clock.advanceAsync(2_000);
      assert.equal(b.gateway.gets().length, 1);

      const aPolls = a.gateway.gets().length;
      clockA.jumpTo(clock.now() - 1);
      await clockA.advanceAsync(1);
      assert.equal(a.store.isPolling(A), false, 'window a found the lease taken');
      for (let second = 0; second < 60; second++) {
        await clock.advanceAsync(1_000);
        await clockA.advanceAsync(1_000);
      }
      assert.equal(a.gateway.gets().length, aPolls, 'and polls no more');
      assert.equal(b.store.isPolling(A), true);
    });

    it('leaves polling to a window that has a key when it has none', async () => {
      const first = await openWindow();
      const job = await first.store.submit(A, videoRequest('keyed elsewhere'));
      await first.store.flush();
      first.store.dispose();
      const noKey = await openWindow({ noKey: true });
      const b = await openWindow();
      assert.equal(noKey.store.isPolling(A), true, 'the first window to start took the lease');
      assert.equal(b.store.isPolling(A), false);
      await clock.advanceAsync(2_000); // its poll fails without a request: no key here
      assert.equal(noKey.store.isAuthBlocked(A), true);
      assert.equal(noKey.store.isPolling(A), false, 'so it let the lease go');
      await clock.advanceAsync(1_000);
      assert.equal(b.store.isPolling(A), true);
      complete(job.id!);
      await clock.advanceAsync(2_000);
      assert.equal(b.store.get(job.key)?.status, 'completed');
      await syncAll();
      assert.equal(noKey.store.get(job.key)?.status, 'completed', 'and the keyless window shows the result');
    });

    it('leaves polling and announcing to the others while its window is gone (a closed browser tab), and takes part again when it is back', async () => {
      const presence = new FakePresence();
      const a = await openWindow({ presence });
      const job = await a.store.submit(A, videoRequest('tab closed'));
      const b = await openWindow();
      assert.equal(a.store.isPolling(A), true);
      presence.set(false);
      assert.equal(a.store.isPolling(A), false, 'let go at once');
      await clock.advanceAsync(1_000);
      assert.equal(b.store.isPolling(A), true, 'taken over at the next heartbeat');
      const aPolls = a.gateway.gets().length;
      complete(job.id!);
      await clock.advanceAsync(2_000);
      await syncAll();
      await clock.advanceAsync(5_000);
      assert.equal(a.gateway.gets().length, aPolls, 'the window that is gone sent nothing');
      assert.equal(a.store.get(job.key)?.status, 'completed', 'its store still follows the folder');
      assert.deepEqual([a.finished.length, b.finished.length], [0, 1], 'announced where someone sees it');

      const second = await b.store.submit(A, videoRequest('after the reconnection'));
      await syncAll();
      presence.set(true);
      await clock.advanceAsync(1_000);
      assert.equal(a.finished.length, 0, 'back, it does not announce what another window did');
      assert.equal(a.store.isPolling(A), false, 'and it waits for the lease like any window');
      b.store.dispose();
      await clock.advanceAsync(1_000);
      assert.equal(a.store.isPolling(A), true);
      assert.ok(a.store.get(second.key));
    });

    it('has a job checked now by the polling window when another window asks', async () => {
      const a = await openWindow();
      const job = await a.store.submit(A, videoRequest('refresh me'));
      const b = await openWindow();
      await clock.advanceAsync(2_000);
      const before = a.gateway.gets().length;
      assert.equal(b.store.refresh(job.key), true);
      await a.store.rescan();
      await settle();
      assert.equal(a.gateway.gets().length, before + 1, 'the polling window checked it at once');
      b.store.refreshAll();
      await a.store.rescan();
      await settle();
      assert.equal(a.gateway.gets().length, before + 2);
      assert.equal(b.gateway.gets().length, 0, 'the asking window sent nothing itself');
      assert.deepEqual(readdirSync(join(folder, 'jobs')).filter((name) => name.endsWith('.refresh')), [], 'requests are taken away');
    });

    it('of two windows taking over a stale lease at once, exactly one ends up holding it', () => {
      const leases = join(folder, 'leases');
      mkdirSync(leases);
      const stale = new PollLease({ folder: leases, resource: A, owner: 'gone', clock: new FakeClock(clock.now()) });
      assert.equal(stale.held, true);
      const one = new PollLease({ folder: leases, resource: A, owner: 'one', clock });
      const two = new PollLease({ folder: leases, resource: A, owner: 'two', clock });
      for (let t = 0; t < 20; t++) clock.advance(500);
      assert.equal(Number(one.held) + Number(two.held), 1);
      one.dispose();
      two.dispose();
      assert.equal(existsSync(join(leases, readdirSync(leases)[0] ?? 'none')), false, 'the holder deletes the lock when it closes');
    });
  });

  describe('one announcement per finished job', () => {
    it('announces in the focused window, not in the unfocused one that polled', async () => {
      const poller = await openWindow();
      const job = await poller.store.submit(A, videoRequest('announce me'));
      const focused = await openWindow();
      poller.store.setFocused(false);
      complete(job.id!);
      await clock.advanceAsync(60_000); // unfocused, a job is checked every minute at most
      assert.equal(poller.store.get(job.key)?.status, 'completed');
      await syncAll();
      assert.equal(focused.finished.length, 1, 'the focused window saw the end and announced it at once');
      await clock.advanceAsync(5_000);
      assert.equal(poller.finished.length, 0, 'the unfocused window found it announced');
    });

    it('announces once when no window is focused, and in the polling window when it is alone', async () => {
      const a = await openWindow();
      const job = await a.store.submit(A, videoRequest('nobody looking'));
      const b = await openWindow();
      const second = await b.store.submit(A, videoRequest('alone later'));
      await syncAll();
      a.store.setFocused(false);
      b.store.setFocused(false);
      complete(job.id!);
      await clock.advanceAsync(60_000);
      await syncAll();
      await clock.advanceAsync(2_000);
      assert.equal(a.finished.length + b.finished.length, 1);

      b.store.dispose();
      complete(second.id!);
      await clock.advanceAsync(70_000);
      assert.deepEqual(a.finished.map((r) => r.key).filter((key) => key === second.key), [second.key]);
    });
  });

  describe('moving jobs out of globalState', () => {
    const legacyRecord = (key: string, prompt: string) => ({
      key, id: `vid_${key}`, origin: A, model: 'model-1.0-video-edit', prompt, parameters: { resolution: '720p' },
      status: 'in_progress', resultUrls: [], createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
      lastPolledAt: 1_700_000_000_000, nextPollAt: 1_700_000_030_000, pollCount: 7,
    });

    it('moves every job into the folder on first start, drops the old poll schedule, and clears the old key', async () => {
      const memento = new MemoryMemento();
      await memento.update(VIDEO_JOBS_STORAGE_KEY, [legacyRecord('job-1', 'first'), { broken: true }, legacyRecord('job-2', 'second')]);
      const a = await openWindow({ legacy: memento });
      assert.deepEqual(a.store.jobs().map((job) => job.prompt).sort(), ['first', 'second']);
      const files = storedJobs(folder);
      assert.equal(files.length, 2);
      for (const file of files) for (const old of ['nextPollAt', 'pollCount', 'lastPolledAt']) assert.ok(!(old in file), `${old} is gone`);
      await settle();
      assert.equal(memento.get(VIDEO_JOBS_STORAGE_KEY), undefined);
      // The entry it could not read is kept, not cleared with the key.
      const aside = readdirSync(join(folder, 'set-aside')).filter((name) => name.startsWith('globalState-jobs.'));
      assert.equal(aside.length, 1);
      assert.deepEqual(JSON.parse(readFileSync(join(folder, 'set-aside', aside[0]!), 'utf8')), [{ broken: true }]);
    });

    it('moves them once: two windows migrating at once make no duplicates, and a removed job does not come back', async () => {
      const list = [legacyRecord('job-1', 'first'), legacyRecord('job-2', 'second')];
      const copies = [new MemoryMemento(), new MemoryMemento(), new MemoryMemento()];
      for (const copy of copies) await copy.update(VIDEO_JOBS_STORAGE_KEY, list);
      const a = await openWindow({ legacy: copies[0] });
      const b = await openWindow({ legacy: copies[1] });
      assert.equal(storedJobs(folder).length, 2);
      assert.equal(b.store.jobs().length, 2);
      await a.store.remove('job-1');
      // A window that read the old list before anyone cleared it.
      const late = await openWindow({ legacy: copies[2] });
      assert.deepEqual(late.store.jobs().map((job) => job.key), ['job-2']);
      assert.deepEqual((await openWindow({ legacy: copies[0] })).store.jobs().map((job) => job.key), ['job-2']);
    });
  });
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
