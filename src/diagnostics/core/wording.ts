// What Test Connection says: the step titles, and for each failure of each network layer the sentence and the
// advice. A failed gateway request is worded by ui/core/errorAdvice.ts like everywhere else; only what to do about it
// in a connection test (listFailureSuggestion) is said here.
// The errno sentences themselves are the gateway's (gateway/networkErrors.ts), shared with the client's errors.
// The network checks time out with ETIMEDOUT (ProbeTimeout), said here with the check's own deadline.
import type { ErrorAdvice } from '../../ui/core/errorAdvice';
import { readError } from '../../gateway/errors';
import { networkFailureSentence } from '../../gateway/networkErrors';
import type { ProbeTarget } from './networkProbes';

export type StepId = 'settings' | 'dns' | 'connect' | 'tls' | 'auth' | 'models' | 'latency' | 'dialect';

export const TITLES: Record<StepId, string> = {
  settings: 'Settings',
  dns: 'Name lookup',
  connect: 'Connection',
  tls: 'TLS',
  auth: 'API key',
  models: 'Model list',
  latency: 'Latency',
  dialect: 'Video dialect',
};

export function lookupFailure(host: string, error: unknown, timeoutMs: number): string {
  const code = readError(error).code;
  if (code === 'ETIMEDOUT') return `Looking up ${host} took longer than ${seconds(timeoutMs)} s.`;
  return networkFailureSentence(code, host) ?? `Looking up ${host} failed: ${messageOf(error)}.`;
}

export function lookupAdvice(error: unknown): string {
  const code = readError(error).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return 'Check the spelling of the gateway URL. A company-internal name may need your VPN.';
  return 'Check your network connection and DNS settings; a VPN may be needed for internal names.';
}

export function connectFailure(target: ProbeTarget, error: unknown, timeoutMs: number): string {
  const where = `${target.host}:${target.port}`;
  const code = readError(error).code;
  if (code === 'ETIMEDOUT') return `No answer from ${where} within ${seconds(timeoutMs)} s.`;
  return networkFailureSentence(code, where) ?? `Could not connect to ${where}: ${messageOf(error)}.`;
}

export function connectAdvice(error: unknown, viaProxy: boolean): string {
  if (viaProxy) return 'Check the proxy settings (http.proxy or HTTPS_PROXY) and that the proxy is running.';
  switch (readError(error).code) {
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

export function tlsFailure(host: string, error: unknown, timeoutMs: number): string {
  const code = readError(error).code ?? '';
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

export function tlsAdvice(error: unknown): string {
  const code = readError(error).code ?? '';
  if (UNTRUSTED.has(code)) {
    return 'If your network inspects HTTPS traffic or the gateway uses a private CA, make its root certificate trusted (for example NODE_EXTRA_CA_CERTS) and restart VS Code.';
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'Tell the gateway owner; check that the URL uses the gateway\'s proper host name.';
  if (code === 'CERT_NOT_YET_VALID') return 'Correct the system clock, then test again.';
  return 'Check whether the gateway URL should start with http:// instead of https://, or whether a proxy is required.';
}

/** What to do about a failed model list request, by the kind of advice the error gets. */
export function listFailureSuggestion(kind: ErrorAdvice['kind']): string {
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

function messageOf(error: unknown): string {
  return (readError(error).message || String(error)).replace(/[.\s]+$/, '');
}

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}
