// Contract tests of the video dialects against a server nobody on this project wrote: @copilotkit/aimock speaks the
// openai (/v1/videos), openrouter (/api/v1/videos) and xai (/v1/videos/generations) video dialects. Each dialect's
// adapter drives a real HTTP submit → poll → result through the project's own gateway client and result fetcher.
// A second local server stands for a signed storage host, to see which requests carry the key.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LLMock } from '@copilotkit/aimock';
import { GatewayClient } from '../../../src/gateway/client';
import { openResult } from '../../../src/gateway/resultFetch';
import type { VideoJob, VideoRequest } from '../../../src/gateway/types';
import { dialectOf, pollWire, submitWire, type DialectJobExtras, type DialectName } from '../../../src/videos/core/dialects';
import { isFinalStatus } from '../../../src/videos/core/dialects/status';

const FIXTURES = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'aimock', 'videos.json');
const KEY = 'sk-contract-test-key';
const MP4 = Buffer.from('AAAAGGZ0eXBpc29tAAACAGlzb21tcDQy', 'base64');
type Job = VideoJob & DialectJobExtras;

describe('video dialects against aimock (contract)', function () {
  let mock: LLMock;
  let storage: Server;
  let storageOrigin: string;
  const storageAuth: Array<string | undefined> = [];
  const clients: GatewayClient[] = [];

  before(async () => {
    storage = createServer((req, res) => {
      storageAuth.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': MP4.length });
      res.end(MP4);
    });
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    storageOrigin = `http://127.0.0.1:${(storage.address() as AddressInfo).port}`;
    const progression = { pollsBeforeInProgress: 1, pollsBeforeCompleted: 2 };
    mock = new LLMock({ port: 0, host: '127.0.0.1', openRouterVideo: progression, grokVideo: progression, logLevel: 'silent' });
    const file = JSON.parse(readFileSync(FIXTURES, 'utf8').replaceAll('{{STORAGE}}', storageOrigin)) as { fixtures: unknown[] };
    mock.addFixturesFromJSON(JSON.stringify(file.fixtures));
    await mock.start();
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await mock?.stop().catch(() => undefined);
    await new Promise((resolve) => storage?.close(resolve));
  });

  beforeEach(() => {
    mock.clearRequests();
    storageAuth.length = 0;
  });

  /** Submits through the dialect's adapter and the gateway client, then polls (at most 8 times) until final. */
  async function runJob(name: DialectName, basePath: string, prompt: string): Promise<{ submitted: Job; polls: Job[]; baseUrl: string }> {
    const baseUrl = `${mock.url}${basePath}`;
    const client = new GatewayClient({ baseUrl, apiKey: KEY, maxRetries: 0 });
    clients.push(client);
    const dialect = dialectOf(name);
    const ctx = { baseUrl, now: 1_800_000_000_000 };
    const accounted: VideoRequest = { model: 'video-model', input: { prompt } };
    const submitted = (await client.submitVideo(accounted, { wire: submitWire(dialect, { model: 'video-model', prompt, durationSeconds: 4, resolution: '720p' }, ctx) })) as Job;
    const polls: Job[] = [];
    let last = submitted;
    while (!isFinalStatus(last.status) && polls.length < 8) {
      last = (await client.getVideo(submitted.id, { wire: pollWire(dialect, submitted.id, ctx, submitted.pollUrl) })) as Job;
      polls.push(last);
    }
    return { submitted, polls, baseUrl };
  }

  async function fetchBytes(url: string, withKeyFor?: string): Promise<{ status: number; bytes: Buffer }> {
    const credentials = withKeyFor ? { origin: withKeyFor, headers: { authorization: `Bearer ${KEY}` } } : undefined;
    const response = await openResult(url, { proxy: false, ...(credentials && { credentials }) });
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return { status: response.status, bytes: Buffer.concat(chunks) };
  }

  describe('openrouter', () => {
    it('submits to /api/v1/videos, follows polling_url through pending, in_progress and completed, and reports usage.cost', async () => {
      const { submitted, polls } = await runJob('openrouter', '/api/v1', 'a lighthouse at dusk');
      assert.equal(submitted.gatewayStatus, 'pending');
      assert.equal(submitted.status, 'queued');
      assert.ok(submitted.pollUrl?.startsWith(`${mock.url}/api/v1/videos/`), submitted.pollUrl);
      assert.deepEqual(polls.map((job) => job.gatewayStatus), ['in_progress', 'completed']);
      const done = polls.at(-1)!;
      assert.equal(done.status, 'completed');
      assert.equal(done.costUsd, 0.25);
      const sent = mock.getRequests().find((entry) => entry.method === 'POST');
      assert.equal(sent?.path, '/api/v1/videos');
      assert.ok(sent?.headers.authorization, 'the submission carries the key (aimock journals it redacted)');
    });

    it("fetches unsigned_urls with the key on the gateway's origin; without it the gateway answers 401", async () => {
      const { polls } = await runJob('openrouter', '/api/v1', 'a lighthouse at dusk');
      const done = polls.at(-1)!;
      const url = done.data![0].url;
      assert.deepEqual(done.keyedUrls, [url]);
      assert.equal(new URL(url).origin, mock.url);
      assert.equal((await fetchBytes(url)).status, 401);
      const kept = await fetchBytes(url, new URL(mock.url).origin);
      assert.equal(kept.status, 200);
      assert.ok(kept.bytes.length > 0);
    });

    it("ends a failed job with the gateway's own words", async () => {
      const { polls } = await runJob('openrouter', '/api/v1', 'a storm the moderator refuses');
      const failed = polls.at(-1)!;
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error?.message, 'The prompt was refused by content moderation.');
    });
  });

  describe('xai', () => {
    it('submits a flat body to /v1/videos/generations, polls /v1/videos/{request_id} with progress until done, and reads the cost in ticks', async () => {
      const { submitted, polls } = await runJob('xai', '/v1', 'a lighthouse at dusk');
      assert.equal(submitted.status, 'queued');
      assert.deepEqual(polls.map((job) => job.gatewayStatus), ['pending', 'done']);
      assert.equal(polls[0].progress, 50);
      const done = polls.at(-1)!;
      assert.equal(done.status, 'completed');
      assert.equal(done.progress, 100);
      assert.equal(done.costUsd, 0.25);
      const sent = mock.getRequests().find((entry) => entry.method === 'POST');
      assert.equal(sent?.path, '/v1/videos/generations');
      assert.ok(mock.getRequests().some((entry) => entry.method === 'GET' && entry.path === `/v1/videos/${submitted.id}`));
    });

    it("fetches video.url, a signed storage link, without the key, even when the gateway's credentials are at hand", async () => {
      const { polls } = await runJob('xai', '/v1', 'a lighthouse at dusk');
      const done = polls.at(-1)!;
      assert.deepEqual(done.keyedUrls, []);
      assert.ok(done.data![0].url.startsWith(`${storageOrigin}/signed/`));
      const kept = await fetchBytes(done.data![0].url, new URL(mock.url).origin);
      assert.deepEqual([kept.status, kept.bytes.equals(MP4)], [200, true]);
      assert.deepEqual(storageAuth, [undefined]);
    });

    it("ends a failed job with the gateway's own words", async () => {
      const { polls } = await runJob('xai', '/v1', 'a storm the moderator refuses');
      const failed = polls.at(-1)!;
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error?.message, 'The prompt was refused by content moderation.');
    });
  });

  describe('openai', () => {
    it('submits {model, prompt, seconds} to /v1/videos and polls /v1/videos/{id}; the result is the content endpoint, which needs the key', async () => {
      const { submitted, polls, baseUrl } = await runJob('openai', '/v1', 'a lighthouse at dusk');
      const sent = mock.getRequests().find((entry) => entry.method === 'POST');
      assert.equal(sent?.path, '/v1/videos');
      // aimock's openai video mock answers the fixture's final status at once.
      const done = polls.at(-1) ?? submitted;
      assert.equal(done.status, 'completed');
      assert.equal(done.data![0].url, `${baseUrl}/videos/${submitted.id}/content?variant=video`);
      assert.deepEqual(done.keyedUrls, [`${baseUrl}/videos/${submitted.id}/content?variant=video`, `${baseUrl}/videos/${submitted.id}/content?variant=thumbnail`]);
      assert.equal(done.thumbnailUrl, `${baseUrl}/videos/${submitted.id}/content?variant=thumbnail`);
    });

    it("keeps the gateway's direct link as a signed one, fetched without the key", async () => {
      const { submitted, polls } = await runJob('openai', '/v1', 'a lighthouse at dusk');
      const done = polls.at(-1) ?? submitted;
      const direct = done.data!.find((item) => item.url.startsWith(storageOrigin));
      assert.ok(direct, JSON.stringify(done.data));
      const kept = await fetchBytes(direct.url, new URL(mock.url).origin);
      assert.equal(kept.status, 200);
      assert.deepEqual(storageAuth, [undefined]);
    });

    it('ends a failed job as failed', async () => {
      const { submitted, polls } = await runJob('openai', '/v1', 'a storm the moderator refuses');
      assert.equal((polls.at(-1) ?? submitted).status, 'failed');
    });
  });

  it("never sends a dialect's request off the gateway's origin", async () => {
    const client = new GatewayClient({ baseUrl: `${mock.url}/api/v1`, apiKey: KEY, maxRetries: 0 });
    clients.push(client);
    const wire = { url: `${storageOrigin}/api/v1/videos/x`, headers: {}, read: () => ({ id: 'x', status: 'queued' }) };
    await assert.rejects(client.getVideo('x', { wire }), /not to the gateway's own origin/);
    assert.deepEqual(storageAuth, []);
  });
});
