// Every place a gateway reports a call's cost is read (../shared/spec/dialects.md, "Where cost is reported"): the
// pure reader on each shape, then chat (streamed and not, OpenRouter's usage.cost with cost_details, LiteLLM's header
// from a stream's headers) and images through the real client into the call's report.
import * as assert from 'node:assert/strict';
import { callReport } from '../../../src/gateway/callFigures';
import { GatewayClient } from '../../../src/gateway/client';
import { costOfHeader, costOfUsage, reportedCostOf } from '../../../src/gateway/reportedCost';
import type { ChatResult, ImageGeneration } from '../../../src/gateway/types';
import { chunkFrame, DONE_FRAME, finishFrame, sendJson, sseHead, startServer, type TestServer } from './helpers/server';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('gateway: reported cost, wherever the gateway puts it', () => {
  it('reads usage.cost, with the upstream cost added when the key is the user own (is_byok)', () => {
    assert.equal(costOfUsage({ prompt_tokens: 10, cost: 0.00042 }), 0.00042);
    assert.equal(costOfUsage({ cost: 0.0001, is_byok: true, cost_details: { upstream_inference_cost: 0.002 } }), 0.0001 + 0.002);
    assert.equal(costOfUsage({ cost: 0.0001, is_byok: false, cost_details: { upstream_inference_cost: 0.002 } }), 0.0001);
    assert.equal(costOfUsage({ cost: '0.5' }), 0.5);
    assert.equal(costOfUsage({ cost: -1 }), undefined);
    assert.equal(costOfUsage({ cost: 'a lot' }), undefined);
    assert.equal(costOfUsage(null), undefined);
  });

  it("reads xAI's cost_in_usd_ticks (10^10 a dollar) and Together's outputs.cost", () => {
    assert.equal(reportedCostOf({ usage: { cost_in_usd_ticks: 5_000_000_000 } }), 0.5);
    assert.equal(reportedCostOf({ outputs: { cost: 0.28 } }), 0.28);
    assert.equal(reportedCostOf({ usage: { cost: 1.2, seconds: 30 } }), 1.2, 'OpenRouter transcription and video');
    assert.equal(reportedCostOf({ usage: { prompt_tokens: 3 } }), undefined, 'tokens only: the cost is not reported');
  });

  it("reads LiteLLM's cost header, and nothing from a header that is not a plain amount", () => {
    assert.equal(costOfHeader('0.0042'), 0.0042);
    assert.equal(costOfHeader(' 1e-5 '), 0.00001);
    assert.equal(costOfHeader(undefined), undefined);
    assert.equal(costOfHeader('NaN'), undefined);
    assert.equal(costOfHeader('-3'), undefined);
  });

  describe('through the client into the call report', () => {
    let server: TestServer;
    let handler: (res: import('node:http').ServerResponse) => void;
    before(async () => (server = await startServer((_req, res) => handler(res))));
    after(() => server.close());

    async function reportOf(method: 'chat' | 'generateImage', args: unknown[], call: (client: GatewayClient, onHeaders: (read: (name: string) => string | undefined) => void) => Promise<unknown>) {
      const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-cost' });
      let header: (name: string) => string | undefined = () => undefined;
      try {
        const value = await call(client, (read) => (header = read));
        return callReport({ origin: server.origin, profile: 'default', method, args, ok: true, value, header: (name) => header(name) });
      } finally {
        await client.close();
      }
    }

    it("a stream's last chunk with OpenRouter's usage.cost and cost_details", async () => {
      handler = (res) => {
        sseHead(res);
        const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, cost: 0.0003, is_byok: true, cost_details: { upstream_inference_cost: 0.0007 } };
        res.end(chunkFrame('hi') + finishFrame() + `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage })}\n\n` + DONE_FRAME);
      };
      const request = { model: 'm', messages: [], stream: true };
      const report = await reportOf('chat', [request, {}], (client, onResponseHeaders) => client.chat(request as never, { onResponseHeaders }) as Promise<ChatResult>);
      assert.equal(report.usageCost, 0.0003 + 0.0007);
    });

    it("LiteLLM's cost header on a stream (it comes with the headers, before the body)", async () => {
      handler = (res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-litellm-response-cost': '0.0042' });
        res.end(chunkFrame('hi') + finishFrame() + DONE_FRAME);
      };
      const request = { model: 'm', messages: [], stream: true };
      const report = await reportOf('chat', [request, {}], (client, onResponseHeaders) => client.chat(request as never, { onResponseHeaders }));
      assert.equal(report.header('x-litellm-response-cost'), '0.0042');
    });

    it('a non-streamed reply with usage.cost', async () => {
      handler = (res) => sendJson(res, 200, { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, cost: 0.01 } });
      const request = { model: 'm', messages: [] };
      const report = await reportOf('chat', [request, {}], (client, onResponseHeaders) => client.chat(request as never, { onResponseHeaders }));
      assert.equal(report.usageCost, 0.01);
    });

    it("an image answer's usage.cost", async () => {
      handler = (res) => sendJson(res, 200, { created: 1, data: [{ b64_json: PNG_1X1 }], usage: { input_tokens: 10, output_tokens: 100, cost: 0.04 } });
      const request = { model: 'img', prompt: 'a cat' };
      const report = await reportOf('generateImage', [request, {}], (client, onResponseHeaders) => client.generateImage(request, { onResponseHeaders }) as Promise<ImageGeneration>);
      assert.equal(report.usageCost, 0.04);
    });
  });
});
