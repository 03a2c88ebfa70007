// The low-level checks of Test Connection: name lookup, TCP connect and TLS handshake, each with a deadline.
// Node built-ins only; no vscode. Failures reject with the Node error (its `code` says what happened).
import { lookup as dnsLookup } from 'node:dns/promises';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { unbracketHost } from '../../gateway/proxy';
import type { Clock } from '../../util/clock';

export interface TlsInfo {
  protocol?: string;
  /** The certificate's subject common name, if any. */
  subject?: string;
  issuer?: string;
  /** As the certificate states it, e.g. "Jan  1 00:00:00 2030 GMT". */
  validTo?: string;
}

export interface ProbeTarget {
  host: string;
  port: number;
}

export interface NetworkProbes {
  /** Every address the name resolves to (an IP literal resolves to itself). */
  lookup(host: string, timeoutMs: number): Promise<string[]>;
  connect(target: ProbeTarget, timeoutMs: number): Promise<void>;
  /** A TLS handshake that verifies the certificate against the host name, as the client does. */
  tlsHandshake(target: ProbeTarget, timeoutMs: number): Promise<TlsInfo>;
}

export class ProbeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(what: string, timeoutMs: number) {
    super(`${what} took longer than ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** `extraTls` exists for tests (a private CA); the real command passes nothing, so Node's trust store applies. */
export function createNetworkProbes(clock: Clock, extraTls: ConnectionOptions = {}): NetworkProbes {
  return {
    async lookup(host, timeoutMs) {
      const bare = unbracketHost(host);
      if (isIP(bare)) return [bare];
      const found = await withDeadline(clock, timeoutMs, `Looking up ${host}`, dnsLookup(bare, { all: true }), () => undefined);
      return found.map((a) => a.address);
    },

    async connect(target, timeoutMs) {
      const socket = netConnect({ host: unbracketHost(target.host), port: target.port });
      await settleSocket(clock, socket, 'connect', timeoutMs, `Connecting to ${target.host}:${target.port}`);
      socket.destroy();
    },

    async tlsHandshake(target, timeoutMs) {
      const host = unbracketHost(target.host);
      const socket = tlsConnect({ host, port: target.port, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'], ...extraTls });
      try {
        await settleSocket(clock, socket, 'secureConnect', timeoutMs, `The TLS handshake with ${target.host}:${target.port}`);
        return tlsInfo(socket);
      } finally {
        socket.destroy();
      }
    },
  };
}

function tlsInfo(socket: TLSSocket): TlsInfo {
  const info: TlsInfo = {};
  const protocol = socket.getProtocol();
  if (protocol) info.protocol = protocol;
  const cert = socket.getPeerCertificate();
  const subject = textOf(cert?.subject?.CN);
  const issuer = textOf(cert?.issuer?.O) ?? textOf(cert?.issuer?.CN);
  if (subject) info.subject = subject;
  if (issuer) info.issuer = issuer;
  if (cert?.valid_to) info.validTo = cert.valid_to;
  return info;
}

function textOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Resolves on `event`, rejects on error, close or deadline; the socket is destroyed on failure. */
function settleSocket(clock: Clock, socket: Socket, event: 'connect' | 'secureConnect', timeoutMs: number, what: string): Promise<void> {
  socket.on('error', () => undefined); // errors after the outcome is known (or during destroy) are not news
  const settled = new Promise<void>((resolve, reject) => {
    socket.once(event, () => resolve());
    socket.once('error', reject);
    socket.once('close', () => reject(Object.assign(new Error(`${what} failed: the connection closed`), { code: 'ECONNRESET' })));
  });
  return withDeadline(clock, timeoutMs, what, settled, () => socket.destroy());
}

function withDeadline<T>(clock: Clock, timeoutMs: number, what: string, work: Promise<T>, onTimeout: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      onTimeout();
      reject(new ProbeTimeout(what, timeoutMs));
    }, timeoutMs);
    work.then(
      (value) => {
        clock.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clock.clearTimeout(timer);
        reject(error);
      },
    );
  });
}
