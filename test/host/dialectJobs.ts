// Shared by the host tests of the video dialects: a profile of one dialect with its key, a job submitted through
// Generate Video's argument form under that profile, followed until it ends (and its result is kept), and the
// usage ledger's video records.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { listenOnLoopback } from '../util/loopbackServer';
import * as path from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../src/extension';
import type { VideoJob } from '../../src/videos/core/api';
import type { VideoJobRecord } from '../../src/videos/core/jobRecord';
import type { VideoTestHooks } from '../../src/videos/vscode/feature';
import type { ProfileStore } from '../../src/auth/core/profileStore';
import type { UsageRecord } from '../../src/usage/core/recordTypes';
import type { UsageService } from '../../src/usage/vscode/usageService';
import { until } from './helpers';
import { startSimulator } from '../simulator';
import { VIDEO_MODEL } from '../simulator/models';

/** The contract tests' aimock fixtures (test/fixtures/aimock/videos.json). */
const AIMOCK_FIXTURES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'aimock', 'videos.json');

export type DialectName = 'spec' | 'openai' | 'openrouter' | 'xai' | 'dashscope';

const videoHooks = (api: ModelGatewayApi) => api.testing.videos as VideoTestHooks;

/** Creates a profile of `dialect` on `baseUrl` and stores `key` for it; resolves with its id. */
export async function dialectProfile(api: ModelGatewayApi, dialect: DialectName, baseUrl: string, key: string): Promise<string> {
  const id = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: `Dialect ${dialect}`, baseUrl, dialect })) as string;
  assert.ok(id, `the ${dialect} profile was created`);
  await until(() => api.connections.profile(id), `the connections to see the ${dialect} profile`);
  assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', key, id), true);
  return id;
}

/** Removes the profile's jobs on `origin` (so it is deleted, not retired), then the profile. */
export async function removeDialectProfile(api: ModelGatewayApi, id: string | undefined, origin: string): Promise<void> {
  if (!id) return;
  const store = videoHooks(api).feature.store;
  for (const job of store.jobs().filter((j) => j.origin === origin)) await store.remove(job.key);
  const profiles = await (api.testing.profiles as Promise<ProfileStore>);
  if (profiles.get(id)) await vscode.commands.executeCommand('modelGateway.profiles.delete', id, { confirm: false });
  await until(() => !profiles.all.some((p) => p.id === id), 'the dialect profile to be gone, not retired');
}

/** Generate Video's argument for a dialect test's job under `profile`. */
export function videoArgument(profile: string, prompt: string, model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { profile, prompt, model, duration: 4, resolution: '720p', ...extra };
}

/** Generate Video with an argument, under `profile`. */
export async function generate(profile: string, prompt: string, model: string, extra: Record<string, unknown> = {}): Promise<VideoJobRecord> {
  const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', videoArgument(profile, prompt, model, extra))) as VideoJobRecord | undefined;
  assert.ok(record?.key, 'the job was accepted');
  return record;
}

/** The job once it has ended: a completed one once its result is kept too. */
export async function finished(api: ModelGatewayApi, key: string, timeoutMs = 40_000): Promise<VideoJob> {
  const service = videoHooks(api).feature.service;
  return until(
    () => {
      const job = service.job(key);
      return job && (job.state === 'failed' || (job.state === 'complete' && job.keptFile)) ? job : undefined;
    },
    `the job ${key} to end (and a completed one's result to be kept)`,
    timeoutMs,
    100,
  );
}

/** The video records the ledger has written since `since`, once `count` of them satisfy `match`. */
export async function videoRecords(api: ModelGatewayApi, since: number, match: (r: UsageRecord) => boolean, what: string, count = 1): Promise<UsageRecord[]> {
  const usage = (api.testing.usage as () => UsageService)();
  const read = async () => {
    await usage.recorder.settled();
    return (await usage.ledger.read()).records.filter((r) => r.time >= since && r.modality === 'video' && match(r));
  };
  return until(async () => ((await read()).length >= count ? read() : undefined), what, 20_000, 200);
}

/** Short polls, so a job that takes seconds is seen to end within them; undefined restores the defaults. */
export async function fastPolling(api: ModelGatewayApi, on: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('modelGateway');
  for (const name of ['video.pollMinSeconds', 'video.pollMaxSeconds']) await config.update(name, on ? 1 : undefined, vscode.ConfigurationTarget.Global);
  const feature = videoHooks(api).feature;
  if (on) {
    await until(() => feature.service.pollBoundsMs.minMs === 1000 && feature.service.pollBoundsMs.maxMs === 1000, 'the store to take the poll settings');
    // A headless browser may not report the window as focused; polling would then slow down on purpose.
    feature.store.setFocused(true);
  }
}

/** The bytes every aimock result is (the contract fixtures' `b64`, and what the storage host serves). */
export const AIMOCK_MP4 = Buffer.from('AAAAGGZ0eXBpc29tAAACAGlzb21tcDQy', 'base64');

export interface Aimock {
  mock: LLMock;
  /** The origin of the local server standing for a signed storage host. */
  storageOrigin: string;
  /** The Authorization header of each request the storage host saw. */
  storageAuth: Array<string | undefined>;
  close(): Promise<void>;
}

/** @copilotkit/aimock on 127.0.0.1 with the contract tests' fixtures, and a storage host its signed links point at. */
export async function startAimock(): Promise<Aimock> {
  const storageAuth: Array<string | undefined> = [];
  const storage = createServer((req, res) => {
    storageAuth.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': AIMOCK_MP4.length });
    res.end(AIMOCK_MP4);
  });
  const storageServer = await listenOnLoopback(storage);
  const storageOrigin = storageServer.origin;
  const progression = { pollsBeforeInProgress: 1, pollsBeforeCompleted: 2 };
  const mock = new LLMock({ port: 0, host: '127.0.0.1', openRouterVideo: progression, grokVideo: progression, logLevel: 'silent' });
  const file = JSON.parse(readFileSync(AIMOCK_FIXTURES, 'utf8').replaceAll('{{STORAGE}}', storageOrigin)) as { fixtures: unknown[] };
  mock.addFixturesFromJSON(JSON.stringify(file.fixtures));
  await mock.start();
  return {
    mock,
    storageOrigin,
    storageAuth,
    close: async () => {
      await mock.stop().catch(() => undefined);
      await storageServer.close();
    },
  };
}

/** A 1×1 PNG: the thumbnail the content front serves. */
export const THUMBNAIL_PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c63f8cfc0f01f0005000201' + 'ffa5f5a50000000049454e44ae426082', 'hex');

export interface ContentFront {
  /** The front's origin: the profile's gateway. */
  url: string;
  /** Each content request it answered: its variant and whether it carried a key. */
  content: Array<{ variant: string; keyed: boolean }>;
  close(): Promise<void>;
}

/**
 * aimock's openai video mock answers the jobs but serves no `/videos/{id}/content`: this front serves that endpoint
 * (the video, or a PNG for `variant=thumbnail`) and hands every other request to aimock unchanged.
 */
export async function startContentFront(aimock: Aimock): Promise<ContentFront> {
  const content: ContentFront['content'] = [];
  const target = new URL(aimock.mock.url);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    if (/^\/v1\/videos\/[^/]+\/content$/.test(url.pathname)) {
      const variant = url.searchParams.get('variant') ?? 'video';
      content.push({ variant, keyed: Boolean(req.headers.authorization) });
      const body = variant === 'thumbnail' ? THUMBNAIL_PNG : AIMOCK_MP4;
      res.writeHead(200, { 'content-type': variant === 'thumbnail' ? 'image/png' : 'video/mp4', 'content-length': body.length });
      res.end(body);
      return;
    }
    const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  const front = await listenOnLoopback(server);
  return { url: front.origin, content, close: front.close };
}

/** A gateway speaking one dialect, for one test: where the profile points, its origin, its key, and a model and prompt it answers. */
export interface DialectGateway {
  baseUrl: string;
  origin: string;
  key: string;
  model: string;
  /** A prompt it completes (aimock answers only its fixtures' prompts). */
  prompt: string;
  close(): Promise<void>;
}

/**
 * The one builder of the dialect tests' gateways: the simulator for spec and dashscope; aimock for openrouter and
 * xai; aimock behind the content front (its openai mock serves no /content) for openai.
 */
export async function dialectGateway(dialect: DialectName): Promise<DialectGateway> {
  if (dialect === 'spec' || dialect === 'dashscope') {
    const sim = await startSimulator(SIMULATOR_OPTIONS);
    return { baseUrl: sim.baseUrl, origin: sim.origin, key: sim.apiKey, model: VIDEO_MODEL, prompt: `a ${dialect} lighthouse at dusk`, close: () => sim.close() };
  }
  const aimock = await startAimock();
  const aimockAnswers = { key: AIMOCK_KEY, model: AIMOCK_MODEL, prompt: 'a lighthouse at dusk' };
  if (dialect === 'openai') {
    const front = await startContentFront(aimock);
    return { ...aimockAnswers, baseUrl: `${front.url}/v1`, origin: front.url, close: async () => (await front.close(), await aimock.close()) };
  }
  return { ...aimockAnswers, baseUrl: `${aimock.mock.url}${dialect === 'openrouter' ? '/api/v1' : '/v1'}`, origin: aimock.mock.url, close: () => aimock.close() };
}

/** Jobs that take about a second on the simulator: long enough to be seen running, short enough for a test. */
export const SIMULATOR_OPTIONS = { video: { queuedMs: 600, inProgressMs: 600 } };

/** The model the aimock fixtures answer for, and a key for aimock's gateways (it checks none: the tests check where it goes). */
export const AIMOCK_MODEL = 'video-model';
export const AIMOCK_KEY = 'sk-dialect-host-test-key';

/** A Memento with nothing in it: a test instance migrates no jobs from the window's own globalState. */
export const EMPTY_MEMENTO: vscode.Memento = { get: () => undefined, update: async () => undefined, keys: () => [] };
