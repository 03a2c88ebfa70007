// Video jobs on the injected clock (queued -> in_progress -> completed | failed) and the signed result files.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyForModel, invalidRequest, isObject, SimErrorResponse } from './errors';
import { CHAT_MODELS, VIDEO_MODEL, isKnownModel } from './models';
import { hasKeyword } from './replies';
import { linkLifetimeOf, UrlSigner } from './signing';

export interface VideoSchedule {
  queuedMs: number;
  inProgressMs: number;
  /** Answers carry `progress` (default true); false plays a gateway that does not report it. */
  progress?: boolean;
  /** Answers carry `eta`, the whole seconds left (rounded up) while the job is not final. */
  eta?: boolean;
  /** Answers carry `Retry-After: N` (whole seconds) while the job is not final. */
  retryAfterSeconds?: number;
}

/** A schedule chosen per submitted job (benches with durations that vary by request). */
export type VideoScheduleFor = (request: ValidVideoRequest) => VideoSchedule;

export const DEFAULT_VIDEO_SCHEDULE: VideoSchedule = { queuedMs: 1500, inProgressMs: 3000 };

interface StoredJob {
  id: string;
  model: string;
  prompt: string;
  submittedAtMs: number;
  schedule: VideoSchedule;
  fails: boolean;
  /**
   * How its result link answers: the file; a redirect to the second ("CDN") origin (`[redirect]`); 410 (`[gone]`);
   * 503 to the first two requests, then the file (`[flaky-link]`).
   */
  link: ResultLink;
  /** `[flaky-link]`: how many more file requests get a 503. */
  flakyLeft: number;
  /** Submitted while jobs are held: stays queued, its schedule not started, until `releaseHeld()`. */
  held: boolean;
  /** How long its signed result link works after the job finished: `[expires:N]` in the prompt, else an hour. */
  linkLifetimeSeconds: number;
}

export type ResultLink = 'direct' | 'redirect' | 'gone' | 'flaky';

export interface ValidVideoRequest {
  model: string;
  prompt: string;
  resolution?: string;
  duration?: number;
}

export interface VideoView {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export function validateVideoRequest(raw: unknown): ValidVideoRequest {
  const body = bodyForModel(raw, VIDEO_MODEL, isKnownModel, (model) => {
    const what = CHAT_MODELS.includes(model as (typeof CHAT_MODELS)[number]) ? 'a chat model' : 'not a video model';
    return `${model} is ${what}; video generation needs ${VIDEO_MODEL} (chat models: ${CHAT_MODELS.join(', ')})`;
  });
  if (!isObject(body.input)) throw invalidRequest("'input' is required and must be an object");
  const prompt = body.input.prompt;
  if (typeof prompt !== 'string' || prompt.trim() === '') throw invalidRequest("'input.prompt' must be a non-empty string");
  const parameters = body.parameters;
  if (parameters !== undefined && parameters !== null) {
    if (!isObject(parameters)) throw invalidRequest("'parameters' must be an object");
    if (parameters.resolution !== undefined && typeof parameters.resolution !== 'string') {
      throw invalidRequest("'parameters.resolution' must be a string such as \"720p\"");
    }
    if (parameters.duration !== undefined && (typeof parameters.duration !== 'number' || !(parameters.duration > 0))) {
      throw invalidRequest("'parameters.duration' must be a positive number of seconds");
    }
    return { model: body.model, prompt, resolution: parameters.resolution as string | undefined, duration: parameters.duration as number | undefined };
  }
  return { model: body.model, prompt };
}

export function promptOfVideoBody(body: unknown): string {
  return isObject(body) && isObject(body.input) && typeof body.input.prompt === 'string' ? body.input.prompt : '';
}

/** The fixture served for every completed job; looked up from both the source tree and out/. */
export function loadSampleVideo(): Buffer {
  const candidates = [
    join(__dirname, '..', 'fixtures', 'video', 'sample.mp4'),
    join(__dirname, '..', '..', '..', 'test', 'fixtures', 'video', 'sample.mp4'),
  ];
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`sample.mp4 not found (looked in ${candidates.join(', ')})`);
  return readFileSync(found);
}

export class VideoJobs {
  private readonly jobs = new Map<string, StoredJob>();
  private readonly signer = new UrlSigner();
  private holding = false;

  constructor(
    private readonly now: () => number,
    private schedule: VideoSchedule | VideoScheduleFor,
  ) {}

  setSchedule(schedule: VideoSchedule | VideoScheduleFor): void {
    this.schedule = schedule;
  }

  submit(request: ValidVideoRequest): Record<string, unknown> {
    const job: StoredJob = {
      id: `vid_${randomBytes(12).toString('hex')}`,
      model: request.model,
      prompt: request.prompt,
      submittedAtMs: this.now(),
      schedule: typeof this.schedule === 'function' ? this.schedule(request) : this.schedule,
      fails: hasKeyword(request.prompt, 'fail'),
      link: hasKeyword(request.prompt, 'redirect') ? 'redirect' : hasKeyword(request.prompt, 'gone') ? 'gone' : hasKeyword(request.prompt, 'flaky-link') ? 'flaky' : 'direct',
      flakyLeft: 2,
      held: this.holding,
      linkLifetimeSeconds: linkLifetimeOf(request.prompt),
    };
    this.jobs.set(job.id, job);
    return { id: job.id, object: 'video.generation.job', status: 'queued', created: Math.floor(job.submittedAtMs / 1000), model: job.model };
  }

  /** Jobs submitted from now on stay queued until `releaseHeld()`: a test can act on a job while it waits. */
  hold(): void {
    this.holding = true;
  }

  /** Starts the schedules of the held jobs now; jobs submitted later are not held. */
  releaseHeld(): void {
    this.holding = false;
    for (const job of this.jobs.values()) if (job.held) Object.assign(job, { held: false, submittedAtMs: this.now() });
  }

  /** The job as a poll sees it now, with the headers its schedule asks for. */
  view(id: string, origin: string): VideoView {
    const job = this.jobs.get(id);
    if (!job) throw new SimErrorResponse({ status: 404, code: 'not_found', message: `No video generation job with id '${id}'` });
    if (job.held) job.submittedAtMs = this.now();
    const body = this.body(job, origin);
    const final = body.status === 'completed' || body.status === 'failed';
    const { progress = true, eta = false, retryAfterSeconds } = job.schedule;
    if (!progress) delete body.progress;
    if (eta && !final) body.eta = Math.ceil((job.submittedAtMs + job.schedule.queuedMs + job.schedule.inProgressMs - this.now()) / 1000);
    const headers: Record<string, string> = {};
    if (retryAfterSeconds !== undefined && !final) headers['retry-after'] = String(retryAfterSeconds);
    return { body, headers };
  }

  private body(job: StoredJob, origin: string): Record<string, unknown> {
    const elapsed = this.now() - job.submittedAtMs;
    const { queuedMs, inProgressMs } = job.schedule;
    const base = { id: job.id, object: 'video.generation.job', created: Math.floor(job.submittedAtMs / 1000), model: job.model };
    if (elapsed < queuedMs) return { ...base, status: 'queued', progress: 0 };
    if (elapsed < queuedMs + inProgressMs) {
      return { ...base, status: 'in_progress', progress: Math.min(99, Math.floor(((elapsed - queuedMs) / inProgressMs) * 100)) };
    }
    const finishedAt = Math.floor((job.submittedAtMs + queuedMs + inProgressMs) / 1000);
    if (job.fails) {
      return {
        ...base,
        status: 'failed',
        progress: 100,
        completed_at: finishedAt,
        error: { code: 'generation_failed', message: 'The video could not be generated: the prompt asked for a failure ([fail])' },
      };
    }
    return { ...base, status: 'completed', progress: 100, completed_at: finishedAt, data: [{ url: this.signedUrl(job, origin, finishedAt) }] };
  }

  /** Why a file request is refused, or undefined when its signature is good and fresh. */
  fileAccessProblem(id: string, sig: string | null, expires: string | null): SimErrorResponse | undefined {
    const job = this.jobs.get(id);
    const completed = job && !job.fails && this.now() - job.submittedAtMs >= job.schedule.queuedMs + job.schedule.inProgressMs;
    if (!job || !completed) return new SimErrorResponse({ status: 404, code: 'not_found', message: `No video file for '${id}'` });
    const problem = this.signer.problem(id, sig, expires, this.now());
    if (problem) return problem;
    if (job.link === 'gone') return new SimErrorResponse({ status: 410, code: 'gone', message: `The file of '${id}' is gone` });
    if (job.link === 'flaky' && job.flakyLeft > 0) {
      job.flakyLeft--;
      return new SimErrorResponse({ status: 503, code: 'service_unavailable', message: 'The file store is busy (simulated)' });
    }
    return undefined;
  }

  /** Whether the job's result link redirects to the CDN origin (asked only once the link passed fileAccessProblem). */
  redirects(id: string): boolean {
    return this.jobs.get(id)?.link === 'redirect';
  }

  private signedUrl(job: StoredJob, origin: string, finishedAt: number): string {
    return this.signer.url(origin, `${job.id}.mp4`, job.id, finishedAt + job.linkLifetimeSeconds);
  }
}

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/** One `bytes=` range; undefined means "serve it whole" (no header, several ranges, or a form we ignore). */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return header.includes(',') ? undefined : 'unsatisfiable';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
