// Runs code that talks to a real loopback server on a virtual clock: time stands still while any request is
// on the wire, and jumps to the next timer once everything has settled. Shared by the simulator tests and
// bench/poll.bench.ts.
import type { GatewayApi, RequestOptions, VideoJob, VideoRequest } from '../../../src/gateway/types';
import { FakeClock, settle } from '../../util/fakeClock';

export interface RequestRecord {
  method: 'submit' | 'get';
  id?: string;
  startedAt: number;
  /** Order of starts and ends across all requests. */
  seq: number;
  endedAt?: number;
  endSeq?: number;
  status?: string;
  /** The job id in the answer. */
  jobId?: string;
  errorStatus?: number;
  retryAfterMs?: number;
}

export class VirtualTime {
  readonly requests: RequestRecord[] = [];
  private inFlight = 0;
  private idle: Array<() => void> = [];
  private seq = 0;

  constructor(readonly clock: FakeClock) {}

  /** Wraps an API so that its calls hold virtual time still and are recorded. */
  wrap(api: GatewayApi): GatewayApi {
    return {
      listModels: (options) => this.hold(api.listModels(options)),
      chat: (request, options) => this.hold(api.chat(request, options)),
      submitVideo: (request: VideoRequest, options?: RequestOptions) => this.record({ method: 'submit' }, () => api.submitVideo(request, options)),
      getVideo: (id: string, options?: RequestOptions) => this.record({ method: 'get', id }, () => api.getVideo(id, options)),
      generateImage: (request, options) => this.hold(api.generateImage(request, options)),
      synthesizeSpeech: (request, options) => this.hold(api.synthesizeSpeech(request, options)),
      transcribeAudio: (request, options) => this.hold(api.transcribeAudio(request, options)),
    };
  }

  /** Lets every request and what follows from it finish, without moving time. */
  async drain(): Promise<void> {
    for (;;) {
      await settle(3);
      if (this.inFlight === 0) {
        await settle(3);
        if (this.inFlight === 0) return;
      }
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  /** Runs timers in order up to `until`, draining I/O after each; leaves the clock at `until`. */
  async runUntil(until: number): Promise<void> {
    for (;;) {
      await this.drain();
      const next = this.clock.nextDueAt();
      if (next === undefined || next > until) break;
      this.clock.advance(Math.max(0, next - this.clock.now()));
    }
    if (until > this.clock.now()) this.clock.advance(until - this.clock.now());
    await this.drain();
  }

  /** Runs until `done()` holds (checked after each step) or `limit` virtual ms have passed. */
  async runWhile(pending: () => boolean, limitMs: number): Promise<void> {
    const end = this.clock.now() + limitMs;
    for (;;) {
      await this.drain();
      if (!pending()) return;
      const next = this.clock.nextDueAt();
      if (next === undefined || next > end) return;
      this.clock.advance(Math.max(0, next - this.clock.now()));
    }
  }

  /** Holds virtual time still until `promise` settles (work that is not a request, such as a store's file writes). */
  hold<T>(promise: Promise<T>): Promise<T> {
    this.inFlight++;
    const done = () => {
      if (--this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
    };
    promise.then(done, done);
    return promise;
  }

  private record(base: Pick<RequestRecord, 'method' | 'id'>, call: () => Promise<VideoJob>): Promise<VideoJob> {
    const entry: RequestRecord = { ...base, startedAt: this.clock.now(), seq: ++this.seq };
    this.requests.push(entry);
    return this.hold(
      call().then(
        (job) => {
          Object.assign(entry, { endedAt: this.clock.now(), endSeq: ++this.seq, status: job.status, jobId: job.id });
          return job;
        },
        (error: unknown) => {
          const e = error as { status?: number; retryAfterMs?: number };
          Object.assign(entry, { endedAt: this.clock.now(), endSeq: ++this.seq, errorStatus: e.status, retryAfterMs: e.retryAfterMs });
          throw error;
        },
      ),
    );
  }
}

/**
 * Requests started after a 429 answer arrived and before its Retry-After was over; the answer's own request and
 * requests already on the wire when it arrived do not count.
 */
export function requestsInsideRetryAfter(requests: readonly RequestRecord[]): number {
  const windows = requests
    .filter((r) => r.errorStatus === 429 && r.endSeq !== undefined)
    .map((r) => ({ fromSeq: r.endSeq!, until: r.endedAt! + (r.retryAfterMs ?? 0) }));
  return requests.filter((r) => windows.some((w) => r.seq > w.fromSeq && r.startedAt < w.until)).length;
}
