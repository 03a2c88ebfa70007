import * as assert from 'node:assert/strict';
import { GatewayClient } from '../../../src/gateway/client';
import type { GatewayApi, Model } from '../../../src/gateway/types';
import { runDiagnostics, type DiagnosticReport, type DiagnosticsInput, type StepId } from '../../../src/diagnostics/core/diagnostics';
import { fixesFor, renderReport, summarizeReport } from '../../../src/diagnostics/core/report';
import { createNetworkProbes, ProbeTimeout, type NetworkProbes, type ProbeTarget, type TlsInfo } from '../../../src/diagnostics/core/networkProbes';
import { realClock } from '../../../src/util/clock';
import { FakeClock } from '../../util/fakeClock';
import { startSimulator } from '../../simulator';
import { modelList } from '../../simulator/models';
import { startServer } from '../gateway/helpers/server';
import { model } from '../models/fakes';
import { apiDouble } from '../../util/apiDouble';
import { adviceFor } from '../../../src/ui/core/errorAdvice';
import MarkdownIt from 'markdown-it';

function codeError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

/** Probes that answer from a script and advance the fake clock by a fixed time per check. */
class ScriptedProbes implements NetworkProbes {
  readonly calls: string[] = [];
  lookupResult: string[] | Error = ['203.0.113.7'];
  connectResult: Error | undefined;
  tlsResult: TlsInfo | Error = { protocol: 'TLSv1.3', subject: 'gw.example', issuer: 'Example CA', validTo: 'Jan  1 00:00:00 2030 GMT' };

  constructor(private readonly clock: FakeClock) {}

  async lookup(host: string): Promise<string[]> {
    this.calls.push(`lookup ${host}`);
    this.clock.advance(5);
    if (this.lookupResult instanceof Error) throw this.lookupResult;
    return this.lookupResult;
  }

  async connect(target: ProbeTarget): Promise<void> {
    this.calls.push(`connect ${target.host}:${target.port}`);
    this.clock.advance(20);
    if (this.connectResult) throw this.connectResult;
  }

  async tlsHandshake(target: ProbeTarget): Promise<TlsInfo> {
    this.calls.push(`tls ${target.host}:${target.port}`);
    this.clock.advance(30);
    if (this.tlsResult instanceof Error) throw this.tlsResult;
    return this.tlsResult;
  }
}

/** listModels answers after `ms` of fake time, with models or an error. */
function gateway(clock: FakeClock, answers: Array<{ ms: number; models?: Model[]; error?: unknown }>): GatewayApi & { calls: number } {
  const api = apiDouble({
    calls: 0,
    async listModels(): Promise<Model[]> {
      const answer = answers[Math.min(api.calls, answers.length - 1)];
      api.calls++;
      clock.advance(answer.ms);
      if (answer.error) throw answer.error;
      return answer.models ?? [];
    },
  });
  return api;
}

const MODELS = [model('model-k3'), model('model-5.2'), model('model-1.0-video-edit')];

function statuses(report: DiagnosticReport): Partial<Record<StepId, string>> {
  return Object.fromEntries(report.steps.map((s) => [s.id, s.status]));
}

describe('connection diagnostics', () => {
  let clock: FakeClock;
  let probes: ScriptedProbes;
  const input = (over: Partial<DiagnosticsInput> = {}): DiagnosticsInput => ({
    baseUrl: 'https://gw.example/v1',
    api: async () => gateway(clock, [{ ms: 120, models: MODELS }, { ms: 80 }, { ms: 100 }]),
    probes,
    clock,
    ...over,
  });

  beforeEach(() => {
    clock = new FakeClock();
    probes = new ScriptedProbes(clock);
  });

  it('walks every layer of a healthy https gateway and times each', async () => {
    const report = await runDiagnostics(input());
    assert.deepEqual(statuses(report), { settings: 'ok', dns: 'ok', connect: 'ok', tls: 'ok', auth: 'ok', models: 'ok', latency: 'ok' });
    assert.equal(report.ok, true);
    assert.equal(report.modelCount, 3);
    assert.deepEqual(probes.calls, ['lookup gw.example', 'connect gw.example:443', 'tls gw.example:443']);
    const step = (id: StepId) => report.steps.find((s) => s.id === id)!;
    assert.equal(step('dns').durationMs, 5);
    assert.equal(step('connect').durationMs, 20);
    assert.match(step('dns').message, /gw\.example resolves to 203\.0\.113\.7/);
    assert.match(step('tls').message, /TLSv1\.3, certificate for gw\.example, issued by Example CA/);
    assert.match(step('models').message, /3 models \(2 chat, 1 video\)/);
    assert.match(step('latency').message, /takes 100 ms \(3 requests: 120 ms, 80 ms, 100 ms\)/);
    assert.equal(summarizeReport(report), 'Connection test passed. 3 models listed.');
  });

  it('stops at a name that does not resolve, and says why and what to do', async () => {
    probes.lookupResult = codeError('ENOTFOUND', 'getaddrinfo ENOTFOUND gw.example');
    const report = await runDiagnostics(input());
    assert.deepEqual(statuses(report), { settings: 'ok', dns: 'failed', tls: 'skipped', auth: 'skipped', models: 'skipped', latency: 'skipped' });
    const dns = report.steps.find((s) => s.id === 'dns')!;
    assert.match(dns.message, /Cannot find gw\.example: the name does not exist/);
    assert.match(dns.suggestion ?? '', /spelling/);
    assert.equal(report.ok, false);
    assert.match(summarizeReport(report), /Name lookup failed/);
  });

  it('explains a refused and a timed-out connection differently', async () => {
    probes.connectResult = codeError('ECONNREFUSED');
    const refused = (await runDiagnostics(input())).steps.find((s) => s.id === 'connect')!;
    assert.match(refused.message, /The connection to gw\.example:443 was refused/);
    assert.match(refused.suggestion ?? '', /port/);

    probes.connectResult = new ProbeTimeout('Connecting', 10_000);
    const timedOut = (await runDiagnostics(input())).steps.find((s) => s.id === 'connect')!;
    assert.match(timedOut.message, /No answer from gw\.example:443 within 10 s/);
    assert.match(timedOut.suggestion ?? '', /firewall/);
  });

  it('names an untrusted certificate and points at the CA settings', async () => {
    probes.tlsResult = codeError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain');
    const report = await runDiagnostics(input());
    const tls = report.steps.find((s) => s.id === 'tls')!;
    assert.equal(tls.status, 'failed');
    assert.match(tls.message, /not trusted \(SELF_SIGNED_CERT_IN_CHAIN\)/);
    assert.match(tls.suggestion ?? '', /NODE_EXTRA_CA_CERTS/);
    assert.equal(statuses(report).auth, 'skipped');
  });

  it('skips TLS for http, and warns when a non-local http URL would send the key in clear', async () => {
    const local = await runDiagnostics(input({ baseUrl: 'http://127.0.0.1:8787/v1' }));
    assert.equal(statuses(local).settings, 'ok');
    assert.equal(statuses(local).tls, 'skipped');
    assert.deepEqual(probes.calls.slice(0, 2), ['lookup 127.0.0.1', 'connect 127.0.0.1:8787']);
    const remote = await runDiagnostics(input({ baseUrl: 'http://gw.example/v1' }));
    assert.equal(statuses(remote).settings, 'warning');
    assert.match(remote.steps[0].message, /unencrypted/);
    assert.equal(remote.ok, true, 'a warning is not a failure');
  });

  it('checks the proxy host instead of the gateway when requests go through a proxy, never showing its credentials', async () => {
    const report = await runDiagnostics(input({ proxy: 'http://user:secret@proxy.corp:3128' }));
    assert.deepEqual(probes.calls, ['lookup proxy.corp', 'connect proxy.corp:3128']);
    assert.equal(statuses(report).tls, 'skipped');
    assert.equal(report.proxy, 'proxy.corp:3128');
    assert.doesNotMatch(renderReport(report), /secret|user:/);
  });

  it('reports a missing URL and a missing key without touching the network for the key', async () => {
    const noUrl = await runDiagnostics(input({ baseUrl: undefined }));
    assert.deepEqual(statuses(noUrl), { settings: 'failed' });
    assert.match(noUrl.steps[0].suggestion ?? '', /Set Gateway URL/);
    assert.equal(noUrl.steps[0].fix, 'setBaseUrl');
    assert.deepEqual(fixesFor(noUrl).map((a) => a.command), ['modelGateway.setBaseUrl']);
    assert.deepEqual(probes.calls, []);

    const noKey = await runDiagnostics(input({ api: async () => undefined }));
    assert.deepEqual(statuses(noKey), { settings: 'ok', dns: 'ok', connect: 'ok', tls: 'ok', auth: 'failed', models: 'skipped', latency: 'skipped' });
    assert.match(noKey.steps.find((s) => s.id === 'auth')!.suggestion ?? '', /Set API Key/);
    assert.equal(noKey.steps.find((s) => s.id === 'auth')!.fix, 'setApiKey');
  });

  it('tells a rejected key (401), a disabled key (403), a wrong path (404) and a rate limit (429) apart', async () => {
    const run = (error: unknown) => runDiagnostics(input({ api: async () => gateway(clock, [{ ms: 50, error }]) }));
    const rejected = await run(Object.assign(new Error('Invalid API key'), { status: 401, code: 'unauthorized' }));
    assert.deepEqual([statuses(rejected).auth, statuses(rejected).models], ['failed', 'skipped']);
    const refusal = Object.assign(new Error('Invalid API key'), { status: 401, code: 'unauthorized' });
    assert.equal(rejected.steps.find((s) => s.id === 'auth')!.message, adviceFor(refusal, { origin: 'https://gw.example' }).message, 'worded as every feature words a refused key');
    assert.match(rejected.steps.find((s) => s.id === 'auth')!.message, /^API key missing or invalid for https:\/\/gw\.example\. Invalid API key\./);
    assert.equal(rejected.steps.find((s) => s.id === 'auth')!.fix, 'rotateApiKey');

    const disabled = await run(Object.assign(new Error('API key is disabled'), { status: 403 }));
    assert.match(disabled.steps.find((s) => s.id === 'auth')!.message, /disabled/);

    const wrongPath = await run(Object.assign(new Error('not found'), { status: 404 }));
    assert.deepEqual([statuses(wrongPath).auth, statuses(wrongPath).models], ['skipped', 'failed']);
    assert.match(wrongPath.steps.find((s) => s.id === 'models')!.suggestion ?? '', /\/v1/);
    assert.match(wrongPath.steps.find((s) => s.id === 'models')!.message, /^Not found on https:\/\/gw\.example\. not found\./);

    const limited = await run(Object.assign(new Error('slow down'), { status: 429, retryAfterMs: 2000 }));
    assert.deepEqual([statuses(limited).auth, statuses(limited).models], ['ok', 'warning']);
    assert.match(limited.steps.find((s) => s.id === 'models')!.message, /^Rate limited by https:\/\/gw\.example, try again in 2 s\. slow down\./);
    assert.equal(limited.ok, true);
  });

  it('warns when the round trip is slow or no chat model is listed', async () => {
    const slow = await runDiagnostics(input({ api: async () => gateway(clock, [{ ms: 4000, models: MODELS }]) }));
    assert.equal(statuses(slow).latency, 'warning');
    const noChat = await runDiagnostics(input({ api: async () => gateway(clock, [{ ms: 10, models: [model('model-1.0-video-edit')] }]) }));
    assert.equal(statuses(noChat).models, 'warning');
    assert.match(noChat.steps.find((s) => s.id === 'models')!.message, /none recognised as a chat model/);
  });

  it('renders a Markdown report with a verdict, each step and its advice', async () => {
    probes.connectResult = codeError('ECONNREFUSED');
    const markdown = renderReport(await runDiagnostics(input()));
    assert.match(markdown, /^# Model Gateway: connection test/);
    assert.match(markdown, /- Gateway: `https:\/\/gw\.example\/v1`/);
    assert.match(markdown, /- Result: \*\*1 problem found\*\*/);
    assert.match(markdown, /## Connection: failed \(20 ms\)/);
    assert.doesNotMatch(markdown, /\p{Extended_Pictographic}/u, 'words, not emoji (no emoji font shows boxes)');
    assert.match(markdown, /\*\*What to do:\*\* Check the port/);
  });

  it('keeps the gateway\'s words as text: a hostile error message or certificate draws no heading, link or image', async () => {
    const hostile = 'Denied.\n\n# ✅ API key: ok\n\nAll good\n===\n[Open the docs](https://evil.example/phish) ![](https://evil.example/t.png) <img src=https://evil.example/i.png> https://evil.example/bare www.evil.example $\\text{ok}$';
    probes.tlsResult = { protocol: 'TLSv1.3', subject: hostile, issuer: '[CA](https://evil.example/ca)' };
    const report = await runDiagnostics(input({ api: async () => gateway(clock, [{ ms: 10, error: { status: 401, message: hostile } }]) }));
    assert.equal(statuses(report).auth, 'failed');
    const html = new MarkdownIt({ html: true, linkify: true }).render(renderReport(report));
    const headings = [...html.matchAll(/<h(\d)>([^<]*)<\/h\1>/g)].map((m) => m[2]);
    assert.equal(headings[0], 'Model Gateway: connection test');
    report.steps.forEach((step, i) => assert.ok(headings[i + 1]?.includes(`${step.title}: ${step.status}`), `heading ${i + 1}: ${headings[i + 1]}`));
    assert.equal(headings.length, report.steps.length + 1, 'one heading per step, none of the gateway\'s');
    assert.doesNotMatch(html, /<a |<img|<math|katex|<h\d>[^<]*All good/);
    assert.match(html, /# ✅ API key: ok/, 'the fake heading is shown as the text it is');
  });

  it('says a refused connection in the same words as the client does', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const client = new GatewayClient({ baseUrl: closed.baseUrl, apiKey: 'sk-words', proxy: false, maxRetries: 0 });
    try {
      const clientMessage = await client.listModels().then(
        () => assert.fail('expected a refusal'),
        (e: Error) => e.message,
      );
      const report = await runDiagnostics({ baseUrl: closed.baseUrl, api: async () => client, probes: createNetworkProbes(realClock), clock: realClock });
      const connect = report.steps.find((s) => s.id === 'connect')!;
      assert.equal(clientMessage, `The connection to the gateway at ${closed.origin} was refused: nothing is listening on that port.`);
      assert.equal(connect.message, `The connection to 127.0.0.1:${closed.port} was refused: nothing is listening on that port.`);
    } finally {
      await client.close();
    }
  });

  describe('against the simulator, for real', function () {
    this.timeout(20_000);

    it('passes every check over loopback and never writes the key into the report', async () => {
      const sim = await startSimulator();
      const client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, proxy: false });
      try {
        const report = await runDiagnostics({ baseUrl: sim.baseUrl, api: async () => client, probes: createNetworkProbes(realClock), clock: realClock });
        assert.deepEqual(statuses(report), { settings: 'ok', dns: 'ok', connect: 'ok', tls: 'skipped', auth: 'ok', models: 'ok', latency: 'ok' });
        assert.equal(report.modelCount, modelList().data.length);
        assert.equal(sim.log.filter((e) => e.path === '/v1/models').length, 3);
        const rendered = renderReport(report) + JSON.stringify(report);
        assert.equal(rendered.includes(sim.apiKey), false);
      } finally {
        await client.close();
        await sim.close();
      }
    });

    it('says the port speaks plain http when an https URL points at it', async () => {
      const sim = await startSimulator();
      try {
        const httpsUrl = sim.baseUrl.replace('http:', 'https:');
        const report = await runDiagnostics({ baseUrl: httpsUrl, api: async () => undefined, probes: createNetworkProbes(realClock), clock: realClock, timeoutMs: 5000 });
        const tls = report.steps.find((s) => s.id === 'tls')!;
        assert.equal(tls.status, 'failed');
        assert.match(tls.message, /may serve plain http, not https/);
        assert.match(tls.suggestion ?? '', /http:\/\//);
      } finally {
        await sim.close();
      }
    });

    it('never writes a key the gateway echoes into the report, even escaped and across the message clip', async () => {
      const key = 'sk-proj/Canary+9f8e7d6c/5b4a3928e17d';
      const error = { message: `Rejected: ${'x'.repeat(470)}${key}${'y'.repeat(100)}`, code: `bad_key:${key}`, param: key };
      const server = await startServer((_req, res) => void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error }).replace(/\//g, '\\/')));
      const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: key, proxy: false, maxRetries: 0 });
      try {
        const report = await runDiagnostics({ baseUrl: server.baseUrl, api: async () => client, probes: createNetworkProbes(realClock), clock: realClock });
        assert.equal(statuses(report).auth, 'failed');
        const rendered = renderReport(report) + JSON.stringify(report) + summarizeReport(report);
        assert.match(rendered, /\[redacted key\]/);
        for (let i = 0; i + 8 <= key.length; i++) assert.equal(rendered.includes(key.slice(i, i + 8)), false, `the report holds "${key.slice(i, i + 8)}"`);
      } finally {
        await client.close();
        await server.close();
      }
    });

    it('reports the simulator\'s 401 for a wrong key', async () => {
      const sim = await startSimulator();
      const client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: 'sk-wrong-key-000000', proxy: false });
      try {
        const report = await runDiagnostics({ baseUrl: sim.baseUrl, api: async () => client, probes: createNetworkProbes(realClock), clock: realClock });
        assert.equal(statuses(report).auth, 'failed');
        assert.match(report.steps.find((s) => s.id === 'auth')!.message, /^API key missing or invalid for http:\/\/127\.0\.0\.1:\d+\. .*\(request req_\w+\)$/);
      } finally {
        await client.close();
        await sim.close();
      }
    });
  });
});
