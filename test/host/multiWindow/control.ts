// The test's end of the channel to the agents (see protocol.ts): a loopback HTTP server where each agent waits for
// its next command. `call(window, command)` sends one to the window's current extension host and resolves with
// its reply; a reload starts a new extension host, whose first request `nextAgent` waits for.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentId, Command, Envelope, Reply } from './protocol';

interface Waiting {
  id: AgentId;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

const IDLE_ANSWER_MS = 20_000;

export class AgentControl {
  private readonly server: Server;
  private readonly waiting = new Map<string, Waiting>();
  private readonly current = new Map<string, AgentId>();
  private readonly arrivals: Array<{ window: string; notPid?: number; resolve: (id: AgentId) => void }> = [];
  /** Commands for windows whose agent is busy or not there yet. */
  private readonly pending = new Map<string, Envelope[]>();
  private readonly replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; window: string }>();
  private nextId = 1;
  url = '';

  constructor() {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The window's agent, once one (other than the extension host with pid `notPid`) asks for work. */
  nextAgent(window: string, notPid?: number): Promise<AgentId> {
    const known = this.current.get(window);
    if (known && known.pid !== notPid) return Promise.resolve(known);
    return new Promise((resolve) => this.arrivals.push({ window, notPid, resolve }));
  }

  agent(window: string): AgentId | undefined {
    return this.current.get(window);
  }

  /** Sends a command to the window's agent (waiting until it asks for work) and resolves with its result. */
  async call<T>(window: string, command: Command): Promise<T> {
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) => this.replies.set(id, { resolve, reject, window }));
    const deliver = (waiting: Waiting) => {
      clearTimeout(waiting.timer);
      this.waiting.delete(window);
      send(waiting.res, { id, command } satisfies Envelope);
    };
    const waiting = this.waiting.get(window);
    if (waiting) deliver(waiting);
    else this.pending.set(window, [...(this.pending.get(window) ?? []), { id, command }]);
    return (await result) as T;
  }

  /** Fails what a window's agent still owes (its page was closed or reloaded). */
  forget(window: string): void {
    for (const [id, entry] of this.replies) {
      if (entry.window !== window) continue;
      this.replies.delete(id);
      entry.reject(new Error(`window ${window} went away`));
    }
    this.pending.delete(window);
    this.current.delete(window);
    const waiting = this.waiting.get(window);
    if (waiting) clearTimeout(waiting.timer);
    this.waiting.delete(window);
  }

  async close(): Promise<void> {
    for (const waiting of this.waiting.values()) clearTimeout(waiting.timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (req.url === '/next') {
      const id = body as AgentId;
      if (process.env.HOST_VERBOSE && this.current.get(id.window)?.pid !== id.pid) process.stderr.write(`[control] agent of ${id.window}: extension host ${id.pid}\n`);
      this.current.set(id.window, id);
      for (const arrival of [...this.arrivals]) {
        if (arrival.window !== id.window || arrival.notPid === id.pid) continue;
        this.arrivals.splice(this.arrivals.indexOf(arrival), 1);
        arrival.resolve(id);
      }
      const queued = this.pending.get(id.window);
      if (queued?.length) {
        send(res, queued.shift()!);
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.delete(id.window);
        send(res, null);
      }, IDLE_ANSWER_MS);
      this.waiting.set(id.window, { id, res, timer });
      return;
    }
    if (req.url === '/reply') {
      const reply = body as Reply;
      const entry = this.replies.get(reply.id);
      this.replies.delete(reply.id);
      if (entry) {
        if (reply.ok) entry.resolve(reply.value);
        else entry.reject(new Error(`agent: ${reply.error}`));
      }
      send(res, {});
      return;
    }
    res.writeHead(404).end();
  }
}

function send(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
