// Per-attempt plumbing: the abort controller that ties the caller's signal, the header timeout and the idle
// watchdog to one undici request, and a bounded body reader.

import type { Dispatcher } from 'undici';
import type { Clock, TimerHandle } from '../util/clock';

type Body = Dispatcher.ResponseData['body'];

export type AbortCause = 'aborted' | 'timeout' | 'idle';

/** Abort wiring, header timeout and idle watchdog of one attempt. */
export class AttemptControl {
  readonly controller = new AbortController();
  cause: AbortCause | undefined;
  #headerTimer: TimerHandle | undefined;
  #idleTimer: TimerHandle | undefined;
  #lastActivity = 0;
  #disposed = false;
  readonly #onUserAbort = (): void => this.abort('aborted');

  constructor(
    private readonly clock: Clock,
    private readonly userSignal: AbortSignal | undefined,
    timeoutMs: number,
    private readonly idleTimeoutMs: number,
  ) {
    userSignal?.addEventListener('abort', this.#onUserAbort, { once: true });
    this.#headerTimer = clock.setTimeout(() => this.abort('timeout'), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  abort(cause: AbortCause): void {
    if (this.cause !== undefined || this.#disposed) return;
    this.cause = cause;
    this.controller.abort(new Error(`request ${cause}`));
  }

  /** Headers arrived: stop the header timer, start watching the body for silence. */
  headersArrived(): void {
    if (this.#headerTimer !== undefined) this.clock.clearTimeout(this.#headerTimer);
    this.#headerTimer = undefined;
    this.#lastActivity = this.clock.now();
    this.#armIdle(this.idleTimeoutMs);
  }

  touch(): void {
    this.#lastActivity = this.clock.now();
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.userSignal?.removeEventListener('abort', this.#onUserAbort);
    if (this.#headerTimer !== undefined) this.clock.clearTimeout(this.#headerTimer);
    if (this.#idleTimer !== undefined) this.clock.clearTimeout(this.#idleTimer);
  }

  #armIdle(ms: number): void {
    this.#idleTimer = this.clock.setTimeout(() => {
      this.#idleTimer = undefined;
      if (this.#disposed) return;
      const quiet = this.clock.now() - this.#lastActivity;
      if (quiet >= this.idleTimeoutMs) this.abort('idle');
      else this.#armIdle(this.idleTimeoutMs - quiet);
    }, ms);
  }
}

/** Reads a body as UTF-8 text, up to `limit` bytes (the rest is dropped and the connection closed). */
export async function readText(body: Body, control: AttemptControl, limit: number): Promise<string> {
  return (await readBytes(body, control, limit)).bytes.toString('utf8');
}

/**
 * Reads a body up to `limit` bytes. `overflow` is true when the body was longer: the rest is then dropped and the
 * connection closed, so no more than `limit` bytes (plus one chunk) are ever held.
 */
export function readBytes(body: Body, control: AttemptControl, limit: number): Promise<{ bytes: Buffer; overflow: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    body.on('data', (chunk: Buffer) => {
      control.touch();
      if (done) return;
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        done = true;
        body.destroy();
        resolve({ bytes: Buffer.concat(chunks), overflow: true });
      }
    });
    body.on('end', () => {
      if (done) return;
      done = true;
      resolve({ bytes: Buffer.concat(chunks), overflow: false });
    });
    body.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
  });
}
