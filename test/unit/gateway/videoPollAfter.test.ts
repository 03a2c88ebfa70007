import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayClient } from '../../../src/gateway/client';
import { dialectOf, pollWire } from '../../../src/videos/core/dialects';

describe('a dialect poll and openai-poll-after-ms', () => {
  let server: Server;
  let baseUrl: string;
  let headers: Record<string, string>;
  let client: GatewayClient;

  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify({ id: 'v-1', object: 'video', status: 'in_progress', progress: 40 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    client = new GatewayClient({ baseUrl, apiKey: 'sk-test', maxRetries: 0 });
  });

  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function poll(): Promise<number[]> {
    const asked: number[] = [];
    await client.getVideo('v-1', { wire: pollWire(dialectOf('openai'), 'v-1', { baseUrl, now: 0 }), onRetryAfter: (ms) => asked.push(ms) });
    return asked;
  }

  it('hands the wait the gateway asks for between polls to the scheduler', async () => {
    headers = { 'openai-poll-after-ms': '1500' };
    assert.deepEqual(await poll(), [1500]);
  });

  it('prefers a Retry-After, and ignores a poll-after that is not a number', async () => {
    headers = { 'retry-after-ms': '700', 'openai-poll-after-ms': '1500' };
    assert.deepEqual(await poll(), [700]);
    headers = { 'openai-poll-after-ms': 'soon' };
    assert.deepEqual(await poll(), []);
  });
});
