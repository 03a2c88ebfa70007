// Test doubles for the video-jobs tests: a scriptable gateway, an API without a key, an in-memory Memento, and
// temporary job folders.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardingApi } from '../../../src/gateway/apiForwarding';
import type { GatewayApi, Model, RequestOptions, VideoJob, VideoRequest } from '../../../src/gateway/types';
import { ApiDouble } from '../../util/apiDouble';
import type { Clock } from '../../../src/util/clock';
import type { Memento } from '../../../src/util/memento';
import { MissingApiKeyError } from '../../../src/videos/core/errors';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
export { seededRandom } from '../../util/seededRandom';

export interface Call {
  method: 'submit' | 'get';
  id?: string;
  at: number;
}

/** Error shaped like the gateway client's `GatewayError`. */
export class FakeGatewayError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly code: string,
    options: { retryAfterMs?: number; outcomeUnknown?: boolean } = {},
  ) {
    super(`${status ?? ''} ${code}`.trim());
    Object.assign(this, options);
  }
}

type Answer = VideoJob | Error | Promise<VideoJob>;

/** Answers polls from a per-job script (last entry repeats); submit answers from `onSubmit`. */
export class FakeGateway extends ApiDouble {
  readonly calls: Call[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private nextId = 1;
  onSubmit: (request: VideoRequest) => Answer = () => ({ id: `vid_${this.nextId++}`, object: 'video.generation.job', status: 'queued' });
  onGet: ((id: string) => Answer) | undefined;

  constructor(private readonly clock: Clock) {
    super();
  }

  /** Sets what successive polls of `id` return; a status string stands for `{ id, status }`. */
  script(id: string, ...answers: Array<string | Answer>): void {
    this.scripts.set(id, answers.map((a) => (typeof a === 'string' ? { id, status: a } : a)));
  }

  gets(id?: string): Call[] {
    return this.calls.filter((c) => c.method === 'get' && (id === undefined || c.id === id));
  }

  override async submitVideo(request: VideoRequest): Promise<VideoJob> {
    this.calls.push({ method: 'submit', at: this.clock.now() });
    return settleAnswer(this.onSubmit(request));
  }

  override async getVideo(id: string, options?: RequestOptions): Promise<VideoJob> {
    this.calls.push({ method: 'get', id, at: this.clock.now() });
    if (this.onGet) return withAbort(settleAnswer(this.onGet(id)), options?.signal);
    const script = this.scripts.get(id);
    if (!script || script.length === 0) return { id, status: 'queued' };
    const answer = script.length > 1 ? script.shift()! : script[0];
    return withAbort(settleAnswer(answer), options?.signal);
  }

  override async listModels(): Promise<Model[]> {
    return [];
  }
}

function settleAnswer(answer: Answer): Promise<VideoJob> {
  return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
}

function withAbort(promise: Promise<VideoJob>, signal: AbortSignal | undefined): Promise<VideoJob> {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new FakeGatewayError(undefined, 'aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject);
  });
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Memento kept in memory; keeps a JSON copy of every write so tests can see what was stored when. */
export class MemoryMemento implements Memento {
  private readonly values = new Map<string, string>();
  readonly writes: Array<{ key: string; value: unknown }> = [];
  failNext = false;

  get<T>(key: string): T | undefined {
    const raw = this.values.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }

  async update(key: string, value: unknown): Promise<void> {
    await Promise.resolve();
    if (this.failNext) {
      this.failNext = false;
      throw new Error('disk full');
    }
    const raw = JSON.stringify(value);
    this.values.set(key, raw);
    this.writes.push({ key, value: JSON.parse(raw) });
  }
}


/** What the extension's API for an origin without a key does: every call fails like a 401, no request is sent. */
export function withoutKey(origin: string): GatewayApi {
  return forwardingApi(() => Promise.reject(new MissingApiKeyError(origin)));
}

const folders: string[] = [];

/** A fresh folder for a store; `removeTempFolders` deletes them all. */
export function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mg-jobs-'));
  folders.push(folder);
  return folder;
}

export function removeTempFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** The job files in a store's folder, parsed, newest first. */
export function storedJobs(folder: string): VideoJobRecord[] {
  const dir = join(folder, 'jobs');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as VideoJobRecord)
    .sort((a, b) => b.createdAt - a.createdAt || (a.key < b.key ? 1 : -1));
}
