// The page's side of the markdown worker: one Worker for every stream of the page, each stream a numbered channel.
import type { FromWorker, ToWorker, WorkerOp } from './workerProtocol';

/** One stream's channel to the worker. */
export interface WorkerChannel {
  /** Normalised text that follows what was sent before. */
  send(text: string, end?: boolean): void;
  /** The stream no longer listens (its ops in flight are dropped). */
  close(): void;
}

interface Listener {
  onOps(ops: WorkerOp[]): void;
  onFailure(): void;
}

export class MarkdownWorker {
  private nextStream = 1;
  private readonly listeners = new Map<number, Listener>();
  private failed = false;

  /** `blobUrl`: the worker's script, revoked when the worker ends. */
  constructor(
    private readonly worker: Worker,
    private readonly blobUrl?: string,
  ) {
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.listeners.get(event.data.stream)?.onOps(event.data.ops);
    worker.onerror = (event) => {
      event.preventDefault();
      this.terminate();
    };
    worker.onmessageerror = () => this.terminate();
  }

  /**
   * The worker from its bundled script at `scriptUrl`, fetched and started from a `blob:` URL: a webview's page may not
   * start a worker from its resource origin, which is not its own (the page's CSP allows `worker-src blob:` and
   * `connect-src` to its resource root for exactly this). Undefined when the script cannot be had.
   */
  static async load(scriptUrl: string): Promise<MarkdownWorker | undefined> {
    try {
      const response = await fetch(scriptUrl);
      if (!response.ok) return undefined;
      const blob = new Blob([await response.text()], { type: 'text/javascript' });
      const url = URL.createObjectURL(blob);
      try {
        return new MarkdownWorker(new Worker(url), url);
      } catch {
        URL.revokeObjectURL(url);
        return undefined;
      }
    } catch {
      return undefined;
    }
  }

  get usable(): boolean {
    return !this.failed;
  }

  open(onOps: (ops: WorkerOp[]) => void, onFailure: () => void): WorkerChannel | undefined {
    if (this.failed) return undefined;
    const stream = this.nextStream++;
    this.listeners.set(stream, { onOps, onFailure });
    let sent = false;
    return {
      send: (text, end) => {
        sent = true;
        this.post({ stream, text, end });
      },
      // A stream the worker never heard of (a reply rendered whole) needs no goodbye.
      close: () => {
        if (this.listeners.delete(stream) && sent) this.post({ stream, close: true });
      },
    };
  }

  /**
   * Ends the worker (also when it failed: it could not load, or threw). It serves no one again: every open stream goes
   * on without it, from what it had applied.
   */
  terminate(): void {
    if (this.failed) return;
    this.failed = true;
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    this.worker.terminate();
    if (this.blobUrl) URL.revokeObjectURL(this.blobUrl);
    for (const listener of listeners) listener.onFailure();
  }

  private post(message: ToWorker): void {
    if (!this.failed) this.worker.postMessage(message);
  }
}
