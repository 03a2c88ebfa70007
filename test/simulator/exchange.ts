// One request and its response: reading the body, writing JSON, bytes or SSE, and applying the injected fault.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { errorBody, type SimError } from './errors';
import { HTML_ERROR_PAGE, MIDSTREAM_ERROR, OPENROUTER_MIDSTREAM_ERROR, type FaultName } from './faults';
import type { RequestLog, RequestLogEntry } from './requestLog';

export interface FaultPlan {
  name: FaultName;
  /** Frames (or for plain bodies: half the bytes) sent before a drop, stall or malformed frame. */
  after: number;
  delayMs: number;
  retryAfterSeconds: number;
}

/** One SSE event, pre-serialized; `paced` events wait their turn under `tokensPerSecond`. */
export interface SseFrame {
  text: string;
  paced: boolean;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const BATCH_CHARS = 64 * 1024;
const MALFORMED_SSE_FRAME = 'data: {"id":"chatcmpl-broken","object":"chat.completion.chunk","choices":[{"delta":{"content":"oops\n\n';

export const SSE_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

export class Exchange {
  readonly entry: RequestLogEntry;
  readonly requestId = `req_${randomBytes(12).toString('hex')}`;
  readonly url: URL;
  rawBody = '';
  /** The body's bytes as they came (a multipart form's audio is not text). */
  rawBytes: Buffer = Buffer.alloc(0);
  /** Parsed JSON body, or undefined when the body is empty or not JSON (see `bodyError`). */
  body: unknown;
  bodyError: string | undefined;
  fault: FaultPlan | null = null;
  private closedFlag = false;
  private closedBySimulator = false;
  private readonly closeListeners = new Set<() => void>();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly log: RequestLog,
    private readonly shuttingDown: () => boolean,
  ) {
    this.url = new URL(req.url ?? '/', 'http://simulator.invalid');
    this.entry = log.open(req.method ?? 'GET', this.url.pathname, req.headers);
    res.setHeader('x-request-id', this.requestId);
    res.on('close', () => this.onClose());
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  async readBody(): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    await new Promise<void>((resolve, reject) => {
      this.req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      this.req.on('end', resolve);
      this.req.on('error', reject);
      this.onClosed(() => reject(new Error('client closed before the body was read')));
    });
    if (size > MAX_BODY_BYTES) {
      this.bodyError = `Request body exceeds ${MAX_BODY_BYTES} bytes`;
      return;
    }
    this.rawBytes = Buffer.concat(chunks);
    this.rawBody = this.rawBytes.toString('utf8');
    if ((this.header('content-type') ?? '').startsWith('multipart/')) return;
    if (this.rawBody.trim() === '') return;
    if ((this.header('content-type') ?? '').startsWith('multipart/form-data')) {
      this.entry.body = `(multipart, ${this.rawBytes.length} bytes)`;
      return;
    }
    try {
      this.body = JSON.parse(this.rawBody);
      this.entry.body = this.body;
    } catch (error) {
      this.entry.body = this.rawBody;
      this.bodyError = `Request body is not valid JSON: ${(error as Error).message}`;
    }
  }

  head(status: number, headers: OutgoingHttpHeaders = {}): void {
    this.res.writeHead(status, headers);
    this.entry.status = status;
    this.log.changed(this.entry);
  }

  sendError(error: SimError): void {
    this.sendPlain(error.status, 'application/json', JSON.stringify(errorBody(error.code, error.message)), error.headers);
  }

  sendPlain(status: number, contentType: string, text: string, headers: OutgoingHttpHeaders = {}): void {
    if (this.closed) return;
    const bytes = Buffer.from(text, 'utf8');
    this.head(status, { ...headers, 'content-type': contentType, 'content-length': bytes.length });
    this.res.end(bytes);
  }

  /** A successful JSON body; the body-level faults (malformed, empty, drop, stall) apply here. */
  sendJson(value: unknown, headers: OutgoingHttpHeaders = {}, status = 200): void {
    const text = JSON.stringify(this.fault?.name === 'error-chunk' ? MIDSTREAM_ERROR : value);
    if (this.fault?.name === 'malformed-json') {
      this.sendPlain(status, 'application/json', text.slice(0, Math.max(1, Math.floor(text.length / 2))), headers);
      return;
    }
    this.sendBytes(status, { ...headers, 'content-type': 'application/json' }, Buffer.from(text, 'utf8'));
  }

  sendBytes(status: number, headers: OutgoingHttpHeaders, bytes: Buffer, includeBody = true): void {
    if (this.closed) return;
    const fault = this.fault?.name;
    if (fault === 'empty-body') {
      this.head(status, { ...headers, 'content-length': 0 });
      this.res.end();
      return;
    }
    this.head(status, { ...headers, 'content-length': bytes.length });
    if (!includeBody) {
      this.res.end();
      return;
    }
    const half = bytes.subarray(0, Math.floor(bytes.length / 2));
    if (fault === 'drop-mid-stream') this.res.write(half, () => this.destroy());
    else if (fault === 'stall') this.res.write(half);
    else this.res.end(bytes);
  }

  /** Streams SSE frames; `tokensPerSecond` 0 writes as fast as the socket takes them, in large batches. */
  async sendStream(frames: SseFrame[], tokensPerSecond: number): Promise<void> {
    if (this.closed) return;
    this.head(200, SSE_HEADERS);
    this.res.flushHeaders();
    const fault = this.fault?.name;
    if (fault === 'empty-body') {
      this.res.end();
      return;
    }
    const interruptAt =
      fault === 'drop-mid-stream' || fault === 'stall' || fault === 'malformed-json' || fault === 'error-chunk' || fault === 'openrouter-error-chunk'
        ? Math.min(this.fault?.after ?? 3, Math.max(0, frames.length - 1))
        : -1;
    const intervalMs = tokensPerSecond > 0 ? 1000 / tokensPerSecond : 0;
    const startedAt = Date.now();
    let pacedCount = 0;
    let batch = '';
    for (let i = 0; i < frames.length; i++) {
      if (this.closed) return;
      if (i === interruptAt) {
        if (fault === 'malformed-json') {
          batch += MALFORMED_SSE_FRAME;
        } else if (fault === 'error-chunk' || fault === 'openrouter-error-chunk') {
          this.res.end(`${batch}data: ${JSON.stringify(fault === 'error-chunk' ? MIDSTREAM_ERROR : OPENROUTER_MIDSTREAM_ERROR)}\n\n`);
          return;
        } else {
          if (fault === 'drop-mid-stream') this.res.write(batch, () => this.destroy());
          else this.res.write(batch);
          return;
        }
      }
      const frame = frames[i];
      if (intervalMs > 0 && frame.paced) {
        pacedCount++;
        if (batch) await this.write(batch);
        batch = '';
        if (!(await this.sleep(startedAt + pacedCount * intervalMs - Date.now()))) return;
      }
      batch += frame.text;
      if (batch.length >= BATCH_CHARS || intervalMs > 0) {
        await this.write(batch);
        batch = '';
      }
    }
    if (this.closed) return;
    this.res.end(batch);
  }

  sendHtmlError(): void {
    this.sendPlain(502, 'text/html; charset=utf-8', HTML_ERROR_PAGE, { server: 'nginx' });
  }

  /** The simulator hangs up on purpose (not a client abort). */
  destroy(): void {
    this.closedBySimulator = true;
    this.res.destroy();
    this.req.socket.destroy();
  }

  /** TCP reset before any response byte. */
  reset(): void {
    this.closedBySimulator = true;
    const socket = this.req.socket as typeof this.req.socket & { resetAndDestroy?: () => void };
    if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
  }

  /** Resolves true after `ms`, or false as soon as the connection closes. */
  sleep(ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onClose = (): void => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.closeListeners.delete(onClose);
        resolve(true);
      }, ms);
      this.onClosed(onClose);
    });
  }

  markFault(name: string): void {
    this.entry.fault = name;
    this.log.changed(this.entry);
  }

  private write(text: string): Promise<void> {
    if (this.closed || this.res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.closeListeners.delete(done);
        resolve();
      };
      this.res.on('drain', done);
      this.onClosed(done);
    });
  }

  private onClosed(listener: () => void): void {
    if (this.closedFlag) listener();
    else this.closeListeners.add(listener);
  }

  private onClose(): void {
    this.closedFlag = true;
    if (!this.res.writableFinished && !this.closedBySimulator && !this.shuttingDown()) this.entry.aborted = true;
    this.entry.endedAt ??= Date.now();
    for (const listener of [...this.closeListeners]) listener();
    this.closeListeners.clear();
    this.log.changed(this.entry);
  }
}
