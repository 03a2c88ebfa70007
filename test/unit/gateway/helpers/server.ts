// A tiny loopback HTTP server for client tests: records every request and lets each test script the response.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The client closed the connection before the response finished. */
  clientClosedEarly: boolean;
  finished: boolean;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: ReceivedRequest) => void | Promise<void>;

export interface TestServer {
  readonly origin: string;
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

export async function startServer(handler: Handler, port = 0): Promise<TestServer> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        clientClosedEarly: false,
        finished: false,
      };
      requests.push(received);
      res.on('close', () => {
        received.finished = res.writableFinished;
        if (!res.writableFinished) received.clientClosedEarly = true;
      });
      Promise.resolve(current(req, res, received)).catch((error) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    port: address.port,
    requests,
    setHandler: (h) => (current = h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Polls (real time, briefly) until the condition holds; fails after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sseHead(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

export function chunkFrame(content: string, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'model-k3', choices: [{ index: 0, delta: { content }, finish_reason: null }], ...extra })}\n\n`;
}

export function finishFrame(reason = 'stop'): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'model-k3', choices: [{ index: 0, delta: {}, finish_reason: reason }] })}\n\n`;
}

export const DONE_FRAME = 'data: [DONE]\n\n';

/** A sleep that records each wait and returns at once (retries without real waiting). */
export function recordingSleep(): { waits: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
    },
  };
}
