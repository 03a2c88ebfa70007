// Test Connection: checks the way to the gateway one layer at a time (settings, name lookup, TCP, TLS, the key,
// the model list, round-trip time) and says for each, in a plain sentence, what worked or what to do about it.
// No vscode; the network checks come in as NetworkProbes. The report never contains the API key.
import { adviceFor } from '../gateway/errorAdvice';
import type { GatewayApi, Model } from '../gateway/types';
import type { Clock } from '../util/clock';
import { classifyModel } from './modelKind';
import { summarizeModels } from './modelList';
import type { NetworkProbes, ProbeTarget } from './networkProbes';

export type StepStatus = 'ok' | 'warning' | 'failed' | 'skipped';
export type StepId = 'settings' | 'dns' | 'connect' | 'tls' | 'auth' | 'models' | 'latency';

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

const TITLES: Record<StepId, string> = {
  settings: 'Settings',
  dns: 'Name lookup',
  connect: 'Connection',
  tls: 'TLS',
  auth: 'API key',
  models: 'Model list',
  latency: 'Latency',
};

/** Above this median round trip the latency step is a warning. */
export const SLOW_ROUND_TRIP_MS = 3000;

interface ErrorShape {
  code?: string;
  status?: number;
  message?: string;
}

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
  } else if (!secure && !isLoopback(url.hostname)) {
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
  add('dns', 'ok', addresses.length === 1 && addresses[0] === unbracket(target.host) ? `${via}${target.host} is an IP address; nothing to look up.` : `${via}${target.host} resolves to ${addresses.join(', ')}.`, {
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

  const first = await timed(() => api.listModels());
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
    const again = await timed(() => api.listModels());
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

function reportListFailure(add: AddStep, error: unknown, origin: string, ms: number): void {
  const e = shape(error);
  const advice = adviceFor(error, { origin });
  if (e.status === 401) {
    add('auth', 'failed', `The gateway rejected the API key (HTTP 401).${serverSays(e)}`, { suggestion: 'Run "Model Gateway: Replace API Key" with a valid key.', fix: 'rotateApiKey', durationMs: ms });
    add('models', 'skipped', 'Needs an accepted API key.');
    return;
  }
  if (e.status === 403) {
    add('auth', 'failed', `The key is disabled or may not list models (HTTP 403).${serverSays(e)}`, {
      suggestion: 'Enable the key in the gateway console, or replace it with "Model Gateway: Replace API Key".',
      fix: 'rotateApiKey',
      durationMs: ms,
    });
    add('models', 'skipped', 'Needs an accepted API key.');
    return;
  }
  if (e.status === 429) {
    add('auth', 'ok', 'The gateway accepted the API key (it answered with a rate limit, not an authentication error).');
    add('models', 'warning', `The gateway is rate limiting this key (HTTP 429).${serverSays(e)}`, { suggestion: 'Wait a moment and test again.', durationMs: ms });
    return;
  }
  const answered = typeof e.status === 'number' && e.status > 0;
  add('auth', 'skipped', answered ? `Not confirmed: the gateway answered HTTP ${e.status}.` : 'Not confirmed: no answer from the gateway.');
  if (e.status === 404) {
    add('models', 'failed', `GET /models was not found (HTTP 404).${serverSays(e)}`, { suggestion: 'Check that the gateway URL is the API base, usually ending in /v1.', durationMs: ms });
    return;
  }
  add('models', 'failed', advice.message, { suggestion: suggestionFor(advice.kind), durationMs: ms });
}

function suggestionFor(kind: ReturnType<typeof adviceFor>['kind']): string {
  switch (kind) {
    case 'timeout':
      return 'The gateway connected but did not answer in time. Try again; if it persists, raise modelGateway.timeoutSeconds or ask the gateway owner.';
    case 'network':
      return 'Check the network, VPN or proxy settings (http.proxy), then test again.';
    case 'server':
      return 'The gateway has a problem of its own; try again later. The log (Model Gateway: Open Logs) has the request id.';
    case 'bad_response':
      return 'Something between you and the gateway may be answering instead of it (a proxy or captive portal). Check the URL.';
    default:
      return 'See the log (Model Gateway: Open Logs) for the request and its answer.';
  }
}

function serverSays(e: ErrorShape): string {
  return e.message ? ` The gateway says: ${e.message.replace(/[.\s]+$/, '')}.` : '';
}

function lookupFailure(host: string, error: unknown, timeoutMs: number): string {
  const code = shape(error).code;
  if (code === 'ETIMEDOUT') return `Looking up ${host} took longer than ${seconds(timeoutMs)} s.`;
  if (code === 'EAI_AGAIN') return `The name ${host} could not be looked up right now (temporary DNS failure).`;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return `The name ${host} does not exist, or your DNS server does not know it.`;
  return `Looking up ${host} failed: ${messageOf(error)}.`;
}

function lookupAdvice(error: unknown): string {
  const code = shape(error).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'Check the spelling of the gateway URL. A company-internal name may need your VPN.';
  return 'Check your network connection and DNS settings; a VPN may be needed for internal names.';
}

function connectFailure(target: ProbeTarget, error: unknown, timeoutMs: number): string {
  const where = `${target.host}:${target.port}`;
  switch (shape(error).code) {
    case 'ECONNREFUSED':
      return `${where} refused the connection: nothing is listening on that port.`;
    case 'ETIMEDOUT':
      return `No answer from ${where} within ${seconds(timeoutMs)} s.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `There is no network route to ${where}.`;
    case 'ECONNRESET':
      return `${where} closed the connection straight away.`;
    default:
      return `Could not connect to ${where}: ${messageOf(error)}.`;
  }
}

function connectAdvice(error: unknown, viaProxy: boolean): string {
  if (viaProxy) return 'Check the proxy settings (http.proxy or HTTPS_PROXY) and that the proxy is running.';
  switch (shape(error).code) {
    case 'ECONNREFUSED':
      return 'Check the port in the gateway URL and that the gateway is running.';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'A firewall, VPN or missing proxy may be in the way. If you need a proxy, set http.proxy.';
    default:
      return 'A firewall or proxy may be refusing the connection.';
  }
}

const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

const PLAIN_HTTP_SIGNS = new Set(['EPROTO', 'ECONNRESET', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

function tlsFailure(host: string, error: unknown, timeoutMs: number): string {
  const code = shape(error).code ?? '';
  if (UNTRUSTED.has(code)) return `The certificate of ${host} is not trusted (${code}).`;
  if (code === 'CERT_HAS_EXPIRED') return `The certificate of ${host} has expired.`;
  if (code === 'CERT_NOT_YET_VALID') return `The certificate of ${host} is not valid yet (check this computer's clock).`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `The certificate does not name ${host}.`;
  if (code === 'ETIMEDOUT') return `The TLS handshake with ${host} did not finish within ${seconds(timeoutMs)} s.`;
  if (PLAIN_HTTP_SIGNS.has(code) || /wrong version number|packet length too long/i.test(messageOf(error))) {
    return `${host} did not complete a TLS handshake: the port may serve plain http, not https.`;
  }
  return `The TLS handshake with ${host} failed: ${messageOf(error)}.`;
}

function tlsAdvice(error: unknown): string {
  const code = shape(error).code ?? '';
  if (UNTRUSTED.has(code)) {
    return 'If your network inspects HTTPS traffic or the gateway uses a private CA, make its root certificate trusted (for example NODE_EXTRA_CA_CERTS) and restart VS Code.';
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'Tell the gateway owner; check that the URL uses the gateway\'s proper host name.';
  if (code === 'CERT_NOT_YET_VALID') return 'Correct the system clock, then test again.';
  return 'Check whether the gateway URL should start with http:// instead of https://, or whether a proxy is required.';
}

function shape(error: unknown): ErrorShape {
  return typeof error === 'object' && error !== null ? (error as ErrorShape) : { message: String(error) };
}

function messageOf(error: unknown): string {
  return (shape(error).message ?? String(error)).replace(/[.\s]+$/, '');
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
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

function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function isLoopback(hostname: string): boolean {
  const host = unbracket(hostname).toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

const ICONS: Record<StepStatus, string> = { ok: '✅', warning: '⚠️', failed: '❌', skipped: '➖' };

/** The report as a Markdown document. */
export function renderReport(report: DiagnosticReport): string {
  const problems = report.steps.filter((s) => s.status === 'failed').length;
  const warnings = report.steps.filter((s) => s.status === 'warning').length;
  const verdict = problems > 0 ? `${problems} problem${problems === 1 ? '' : 's'} found` : warnings > 0 ? `Working, with ${warnings} warning${warnings === 1 ? '' : 's'}` : 'Everything works';
  const lines = [
    '# Model Gateway: connection test',
    '',
    `- Gateway: ${report.baseUrl ? `\`${report.baseUrl}\`` : 'not set'}`,
    ...(report.proxy ? [`- Proxy: \`${report.proxy}\``] : []),
    `- Tested: ${new Date(report.startedAt).toISOString()}`,
    `- Result: **${verdict}**`,
    '',
  ];
  for (const step of report.steps) {
    const time = step.durationMs !== undefined ? ` (${step.durationMs} ms)` : '';
    lines.push(`## ${ICONS[step.status]} ${step.title}: ${step.status}${time}`, '', step.message, '');
    if (step.suggestion) lines.push(`**What to do:** ${step.suggestion}`, '');
  }
  return lines.join('\n');
}

/** One line for a notification: the verdict and the first problem, if any. */
export function summarizeReport(report: DiagnosticReport): string {
  const failed = report.steps.find((s) => s.status === 'failed');
  if (failed) return `Connection test: ${failed.title} failed. ${failed.message}`;
  const warning = report.steps.find((s) => s.status === 'warning');
  const count = report.modelCount !== undefined ? ` ${report.modelCount} model${report.modelCount === 1 ? '' : 's'} listed.` : '';
  return warning ? `Connection test passed with a warning: ${warning.message}` : `Connection test passed.${count}`;
}
