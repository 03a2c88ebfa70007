// Every request the simulator sees, with the client's credentials redacted, and a way to wait for one.
import type { IncomingHttpHeaders } from 'node:http';

export interface RequestLogEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
  startedAt: number;
  endedAt?: number;
  aborted: boolean;
  fault?: string;
  authorization?: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

interface Waiter {
  predicate: (entry: RequestLogEntry) => boolean;
  resolve: (entry: RequestLogEntry) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization']);

/** `Bearer sk-sim…1a2b`: enough to tell keys apart, never enough to use one. */
export function redactCredential(value: string): string {
  const match = /^(\S+)\s+(.+)$/.exec(value.trim());
  const [scheme, token] = match ? [`${match[1]} `, match[2]] : ['', value.trim()];
  const masked = token.length >= 16 ? `${token.slice(0, 6)}…${token.slice(-4)}` : `…(${token.length} chars)`;
  return scheme + masked;
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  const copy: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADERS.has(name) || value === undefined) copy[name] = value;
    else copy[name] = Array.isArray(value) ? value.map(redactCredential) : redactCredential(value);
  }
  return copy;
}

export class RequestLog {
  readonly entries: RequestLogEntry[] = [];
  private seq = 0;
  private readonly waiters = new Set<Waiter>();

  open(method: string, path: string, headers: IncomingHttpHeaders): RequestLogEntry {
    const redacted = redactHeaders(headers);
    const authorization = redacted['authorization'];
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      method,
      path,
      status: 0,
      startedAt: Date.now(),
      aborted: false,
      headers: redacted,
      ...(typeof authorization === 'string' ? { authorization } : {}),
    };
    this.entries.push(entry);
    this.changed(entry);
    return entry;
  }

  /** Called after every change to an entry so waiters see entries that only later match. */
  changed(entry: RequestLogEntry): void {
    for (const waiter of [...this.waiters]) {
      if (!waiter.predicate(entry)) continue;
      this.settle(waiter);
      waiter.resolve(entry);
    }
  }

  clear(): void {
    this.entries.length = 0;
  }

  waitFor(predicate: (entry: RequestLogEntry) => boolean, timeoutMs = 5000): Promise<RequestLogEntry> {
    const existing = this.entries.find(predicate);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.settle(waiter);
          reject(new Error(`waitForLog: no matching request within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  rejectWaiters(reason: string): void {
    for (const waiter of [...this.waiters]) {
      this.settle(waiter);
      waiter.reject(new Error(reason));
    }
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
  }
}
