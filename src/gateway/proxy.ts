// Which proxy, if any, a request to the gateway goes through: the explicit `proxy` option, else the usual
// environment variables (https_proxy/HTTPS_PROXY or http_proxy/HTTP_PROXY by the target's scheme) unless
// no_proxy/NO_PROXY exempts the host. As in Go's net/http, loopback targets (localhost, 127.0.0.0/8, ::1) never
// use a proxy from the environment. NO_PROXY follows Go's rules too: `*` matches everything, a name
// matches itself and its subdomains, a leading `.` (or `*.`) matches subdomains only, an optional `:port`
// narrows the entry, and IP addresses or CIDR ranges match addresses.

import { BlockList, isIP } from 'node:net';

export type ProxyEnv = Record<string, string | undefined>;

/** VS Code's proxy settings: `http.proxy` (undefined: the environment's) and `http.proxyStrictSSL`. */
export interface ProxySetting {
  url?: string;
  strictSSL: boolean;
}

/** The proxy URL to use for `target`, or undefined to connect directly. `explicit: false` disables proxies. */
export function resolveProxy(target: URL, explicit: string | false | undefined, env: ProxyEnv): string | undefined {
  if (explicit === false) return undefined;
  if (explicit !== undefined && explicit !== '') return withScheme(explicit);
  const fromEnv =
    target.protocol === 'https:' ? envValue(env, 'https_proxy', 'HTTPS_PROXY') : envValue(env, 'http_proxy', 'HTTP_PROXY');
  if (fromEnv === undefined || isLoopback(target)) return undefined;
  const noProxy = envValue(env, 'no_proxy', 'NO_PROXY');
  if (noProxy !== undefined && matchesNoProxy(target, noProxy)) return undefined;
  return withScheme(fromEnv);
}

/** What undici's ProxyAgent is given: the proxy, the pool size, and the TLS options of each leg. */
export interface ProxyAgentSettings {
  uri: string;
  connections: number;
  connect: { timeout: number };
  proxyTls: { timeout: number; rejectUnauthorized?: false };
  requestTls: { timeout: number; rejectUnauthorized?: false };
}

/**
 * The ProxyAgent options for a request that goes through `uri`. With VS Code's `http.proxyStrictSSL` off
 * (`strictSSL: false`), certificates are not checked on the proxy path: neither the proxy's own (an https proxy) nor,
 * through its tunnel, the target's, which is what a TLS-inspecting corporate proxy presents, as VS Code does. A
 * direct connection never gets here, so it is always verified.
 */
export function proxyAgentSettings(uri: string, connections: number, connect: { timeout: number }, strictSSL = true): ProxyAgentSettings {
  const tls = strictSSL ? { ...connect } : { ...connect, rejectUnauthorized: false as const };
  return { uri, connections, connect, proxyTls: tls, requestTls: { ...tls } };
}

function envValue(env: ProxyEnv, lower: string, upper: string): string | undefined {
  const value = env[lower]?.trim() || env[upper]?.trim();
  return value ? value : undefined;
}

function withScheme(proxy: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/** A URL's host name without the brackets of an IPv6 literal. */
export function unbracketHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** localhost (and its subdomains), 127.0.0.0/8 or ::1; brackets and case do not matter. */
export function isLoopbackHost(hostname: string): boolean {
  const host = unbracketHost(hostname.toLowerCase());
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

function isLoopback(url: URL): boolean {
  return isLoopbackHost(url.hostname);
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function bareHost(url: URL): string {
  return unbracketHost(url.hostname.toLowerCase());
}

export function matchesNoProxy(target: URL, noProxy: string): boolean {
  const host = bareHost(target);
  const port = defaultPort(target);
  const hostIsIp = isIP(host);
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const { name, entryPort } = splitPort(entry);
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name.includes('/')) {
      if (hostIsIp && inCidr(host, name)) return true;
      continue;
    }
    if (isIP(name)) {
      if (name === host) return true;
      continue;
    }
    if (name.startsWith('*.') || name.startsWith('.')) {
      const suffix = name.startsWith('*.') ? name.slice(1) : name;
      if (host.endsWith(suffix)) return true;
      continue;
    }
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

function splitPort(entry: string): { name: string; entryPort?: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: bracketed[1], entryPort: bracketed[2] };
  if (isIP(entry) === 6 || entry.includes('/')) return { name: entry };
  const colon = entry.lastIndexOf(':');
  if (colon > 0 && /^\d+$/.test(entry.slice(colon + 1))) return { name: entry.slice(0, colon), entryPort: entry.slice(colon + 1) };
  return { name: entry };
}

function inCidr(address: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const family = isIP(network);
  const prefix = Number(bits);
  if (family === 0 || !Number.isInteger(prefix) || family !== isIP(address)) return false;
  const list = new BlockList();
  try {
    list.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
