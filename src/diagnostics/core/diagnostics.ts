// Test Connection: checks the way to the gateway one layer at a time (settings, name lookup, TCP, TLS, the key,
// the model list, round-trip time) and says for each, in a plain sentence, what worked or what to do about it.
// No vscode; the network checks come in as NetworkProbes, the sentences from wording.ts. The report never contains
// the API key.
import { adviceFor } from '../../ui/core/errorAdvice';
import { readError } from '../../gateway/errors';
import { isLoopbackHost, unbracketHost } from '../../gateway/proxy';
import type { GatewayApi, Model } from '../../gateway/types';
import { classifyModel, summarizeModels } from '../../models/core/api';
import type { Clock } from '../../util/clock';
import type { NetworkProbes, ProbeTarget } from './networkProbes';
import { connectAdvice, connectFailure, listFailureSuggestion, lookupAdvice, lookupFailure, TITLES, tlsAdvice, tlsFailure, type StepId } from './wording';

export type { StepId } from './wording';

export type StepStatus = 'ok' | 'warning' | 'failed' | 'skipped';

export interface DiagnosticStep {
  readonly id: StepId;
  readonly title: string;
  readonly status: StepStatus;
  readonly message: string;
  readonly suggestion?: string;
  /** The extension command that fixes this step, when one does. */
  readonly fix?: StepFix;
  readonly durationMs?: number;
}

export type StepFix = 'setBaseUrl' | 'setApiKey' | 'rotateApiKey';

export interface DiagnosticReport {
  readonly baseUrl: string | undefined;
  readonly origin: string | undefined;
  /** Host and port of the proxy the client goes through, if any (never its credentials). */
  readonly proxy: string | undefined;
  readonly startedAt: number;
  readonly steps: readonly DiagnosticStep[];
  /** No step failed (warnings allowed). */
  readonly ok: boolean;
  readonly modelCount?: number;
}

export interface DiagnosticsInput {
  readonly baseUrl: string | undefined;
  api(): Promise<GatewayApi | undefined>;
  /** The proxy URL the client uses for this gateway, if any. */
  readonly proxy?: string;
  readonly probes: NetworkProbes;
  readonly clock: Clock;
  /** Deadline of each network check. Default 10 s. */
  readonly timeoutMs?: number;
  /** Requests timed for the latency figure, the model list request included. Default 3. */
  readonly latencySamples?: number;
}

/** Above this median round trip the latency step is a warning. */
export const SLOW_ROUND_TRIP_MS = 3000;

export async function runDiagnostics(input: DiagnosticsInput): Promise<DiagnosticReport> {
  const { clock, probes } = input;
  const timeoutMs = input.timeoutMs ?? 10_000;
  const startedAt = clock.now();
  const steps: DiagnosticStep[] = [];
  const add = (id: StepId, status: StepStatus, message: string, extra: StepExtra = {}) =>
    steps.push({ id, title: TITLES[id], status, message, ...extra });
  const timed = async <T>(work: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> => {
    const start = clock.now();
    try {
      const value = await work();
      return { value, ms: clock.now() - start };
    } catch (error) {
      return { error, ms: clock.now() - start };
    }
  };
  const finish = (modelCount?: number): DiagnosticReport => ({
    baseUrl: input.baseUrl,
    origin: url?.origin,
    proxy: proxyTarget ? `${proxyTarget.host}:${proxyTarget.port}` : undefined,
    startedAt,
    steps,
    ok: steps.every((s) => s.status !== 'failed'),
    ...(modelCount !== undefined ? { modelCount } : {}),
  });

  const url = parseUrl(input.baseUrl);
  const proxyTarget = input.proxy ? targetOf(parseUrl(input.proxy)) : undefined;
  if (!url) {
    add('settings', 'failed', input.baseUrl ? `The gateway URL "${input.baseUrl}" is not a valid http or https URL.` : 'No gateway URL is set.', {
      suggestion: 'Run "Model Gateway: Set Gateway URL" and enter the base URL, ending in /v1.',
      fix: 'setBaseUrl',
    });
    return finish();
  }
  const secure = url.protocol === 'https:';
  const settingsNotes = [`Gateway ${url.origin}, API base path ${url.pathname.replace(/\/+$/, '') || '/'}.`];
  if (proxyTarget) settingsNotes.push(`Requests go through the proxy ${proxyTarget.host}:${proxyTarget.port}.`);
  if (!url.pathname.replace(/\/+$/, '').endsWith('/v1')) {
    add('settings', 'warning', `${settingsNotes.join(' ')} The path does not end in /v1, which the API expects.`, {
      suggestion: 'If requests fail with "not found", add /v1 to the gateway URL.',
    });
  } else if (!secure && !isLoopbackHost(url.hostname)) {
    add('settings', 'warning', `${settingsNotes.join(' ')} The URL uses plain http, so the API key travels unencrypted.`, {
      suggestion: 'Use an https URL if the gateway offers one.',
    });
  } else {
    add('settings', 'ok', settingsNotes.join(' '));
  }

  // With a proxy the client's own connection goes to the proxy, so that is the one to check.
  const target = proxyTarget ?? targetOf(url)!;
  const via = proxyTarget ? 'the proxy ' : '';
  const lookup = await timed(() => probes.lookup(target.host, timeoutMs));
  if (lookup.error !== undefined) {
    add('dns', 'failed', lookupFailure(target.host, lookup.error, timeoutMs), { suggestion: lookupAdvice(lookup.error), durationMs: lookup.ms });
    skipRest(add, secure, 'the name could not be looked up');
    return finish();
  }
  const addresses = lookup.value ?? [];
  add('dns', 'ok', addresses.length === 1 && addresses[0] === unbracketHost(target.host) ? `${via}${target.host} is an IP address; nothing to look up.` : `${via}${target.host} resolves to ${addresses.join(', ')}.`, {
    durationMs: lookup.ms,
  });

  const connect = await timed(() => probes.connect(target, timeoutMs));
  if (connect.error !== undefined) {
    add('connect', 'failed', connectFailure(target, connect.error, timeoutMs), { suggestion: connectAdvice(connect.error, !!proxyTarget), durationMs: connect.ms });
    skipRest(add, secure, 'no connection could be opened');
    return finish();
  }
  add('connect', 'ok', `Opened a TCP connection to ${via}${target.host}:${target.port}.`, { durationMs: connect.ms });

  if (!secure) {
    add('tls', 'skipped', 'The URL uses http: no TLS.');
  } else if (proxyTarget) {
    add('tls', 'skipped', 'TLS to the gateway runs inside the proxy tunnel; the API key check below covers it.');
  } else {
    const handshake = await timed(() => probes.tlsHandshake(target, timeoutMs));
    if (handshake.error !== undefined) {
      add('tls', 'failed', tlsFailure(target.host, handshake.error, timeoutMs), { suggestion: tlsAdvice(handshake.error), durationMs: handshake.ms });
      skipRest(add, false, 'the TLS handshake failed');
      return finish();
    }
    const info = handshake.value ?? {};
    const details = [info.protocol, info.subject && `certificate for ${info.subject}`, info.issuer && `issued by ${info.issuer}`, info.validTo && `valid until ${info.validTo}`].filter(Boolean);
    add('tls', 'ok', `The certificate is trusted${details.length ? ` (${details.join(', ')})` : ''}.`, { durationMs: handshake.ms });
  }

  const api = await input.api();
  if (!api) {
    add('auth', 'failed', `No API key is stored for ${url.origin}.`, { suggestion: 'Run "Model Gateway: Set API Key".', fix: 'setApiKey' });
    add('models', 'skipped', 'Needs an API key.');
    add('latency', 'skipped', 'Needs an API key.');
    return finish();
  }

  // Test Connection's requests are its own in the usage ledger (free, but requests).
  const first = await timed(() => api.listModels({ surface: 'test-connection' }));
  if (first.error !== undefined) {
    reportListFailure(add, first.error, url.origin, first.ms);
    add('latency', 'skipped', 'Needs a working model list request.');
    return finish();
  }
  const models = first.value ?? [];
  add('auth', 'ok', 'The gateway accepted the API key.');
  addModelsStep(add, models, first.ms);

  const samples = [first.ms];
  for (let i = 1; i < Math.max(1, input.latencySamples ?? 3); i++) {
    const again = await timed(() => api.listModels({ surface: 'test-connection' }));
    if (again.error !== undefined) break;
    samples.push(again.ms);
  }
  const median = medianOf(samples);
  const spread = samples.length > 1 ? ` (${samples.length} requests: ${samples.map((ms) => `${ms} ms`).join(', ')})` : '';
  if (median > SLOW_ROUND_TRIP_MS) {
    add('latency', 'warning', `A GET /models round trip takes ${median} ms${spread}: slow.`, {
      suggestion: 'Replies will start late. Check the network, VPN or proxy; the gateway may also be busy.',
    });
  } else {
    add('latency', 'ok', `A GET /models round trip takes ${median} ms${spread}.`);
  }
  return finish(models.length);
}

type StepExtra = { suggestion?: string; fix?: StepFix; durationMs?: number };
type AddStep = (id: StepId, status: StepStatus, message: string, extra?: StepExtra) => void;

function skipRest(add: AddStep, includeTls: boolean, because: string): void {
  const why = `Not checked: ${because}.`;
  if (includeTls) add('tls', 'skipped', why);
  add('auth', 'skipped', why);
  add('models', 'skipped', why);
  add('latency', 'skipped', why);
}

function addModelsStep(add: AddStep, models: readonly Model[], ms: number): void {
  const kinds = models.map((m) => ({ kind: classifyModel(m) }));
  const summary = summarizeModels(kinds);
  if (models.length === 0) {
    add('models', 'warning', 'The gateway lists no models.', { suggestion: 'Check with the gateway owner that your key has models assigned.', durationMs: ms });
  } else if (!kinds.some((k) => k.kind === 'chat')) {
    add('models', 'warning', `The gateway lists ${summary}, none recognised as a chat model.`, {
      suggestion: 'Chat may still work: pick a model by id in the chat panel or set modelGateway.chat.model.',
      durationMs: ms,
    });
  } else {
    add('models', 'ok', `The gateway lists ${summary}.`, { durationMs: ms });
  }
}

/**
 * A failed model list, said in the one vocabulary (ui/core/errorAdvice.ts): its kind decides which step failed, its
 * message is the step's sentence, and only the suggestion (what to do in a connection test) is this report's own.
 */
function reportListFailure(add: AddStep, error: unknown, origin: string, ms: number): void {
  const e = readError(error);
  const advice = adviceFor(error, { origin });
  switch (advice.kind) {
    case 'auth':
      add('auth', 'failed', advice.message, { suggestion: 'Run "Model Gateway: Replace API Key" with a valid key.', fix: 'rotateApiKey', durationMs: ms });
      add('models', 'skipped', 'Needs an accepted API key.');
      return;
    case 'forbidden':
      add('auth', 'failed', advice.message, { suggestion: 'Enable the key in the gateway console, or replace it with "Model Gateway: Replace API Key".', fix: 'rotateApiKey', durationMs: ms });
      add('models', 'skipped', 'Needs an accepted API key.');
      return;
    case 'rate_limit':
      add('auth', 'ok', 'The gateway accepted the API key (it answered with a rate limit, not an authentication error).');
      add('models', 'warning', advice.message, { suggestion: 'Wait a moment and test again.', durationMs: ms });
      return;
  }
  const answered = typeof e.status === 'number' && e.status > 0;
  add('auth', 'skipped', answered ? `Not confirmed: the gateway answered HTTP ${e.status}.` : 'Not confirmed: no answer from the gateway.');
  if (advice.kind === 'not_found') {
    add('models', 'failed', advice.message, { suggestion: 'Check that the gateway URL is the API base, usually ending in /v1 (GET /models was not found).', durationMs: ms });
    return;
  }
  add('models', 'failed', advice.message, { suggestion: listFailureSuggestion(advice.kind), durationMs: ms });
}

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

function parseUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function targetOf(url: URL | undefined): ProbeTarget | undefined {
  if (!url) return undefined;
  return { host: url.hostname, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
}

