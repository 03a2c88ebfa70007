// A loopback HTTP server that implements the gateway spec (../../../shared/spec/gateway-api.md) with fault injection.
// Test and demo infrastructure only; see README.md beside this file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { authenticate, makeKeys, modelAccessError, RateLimiter, rateLimitedError, type KeyKind, type RateLimit, type SimKeys } from './auth';
import { completionBody, composeReply, promptOfChatBody, streamFrames, validateChatRequest } from './chat';
import { invalidRequest, isObject, modelNotFound, notFound, SimErrorResponse } from './errors';
import { Exchange, type FaultPlan } from './exchange';
import { BUDGET_EXCEEDED, faultKeyword, FAULTS, HTML_ERROR_PAGE, isFaultName } from './faults';
import { chatCostHeader, COST_HEADER, IMAGE_MODEL, isKnownModel, VIDEO_MODEL, modelList, modelObject, openrouterModelList, PRICES, REPORTS_COST, videoModelList } from './models';
import { hasKeyword } from './replies';
import { GeneratedImages, promptOfImageBody, validateImageRequest } from './images';
import { asksForImages, chatImageAnswer, editAnswer, validateChatImageRequest, validateImageEdit } from './imageEdits';
import { RequestLog, type RequestLogEntry } from './requestLog';
import { inputOfSpeechBody, speak, SpeechHold, streamSpeech, validateSpeechRequest } from './speech';
import { GENERATION_PATH, Generations } from './generations';
import { transcribe } from './transcription';
import { OPENAI_CONTENT_PATH, OPENAI_JOB_PATH, OPENAI_VIDEOS_PATH, openaiContent, openaiVideo, validateOpenAIVideoRequest } from './openaiVideo';
import { OPENROUTER_JOB_PATH, OPENROUTER_VIDEOS_PATH, openrouterJob, openrouterSubmitted, validateOpenRouterVideoRequest } from './openrouterVideo';
import { DASHSCOPE_SUBMIT_PATH, DASHSCOPE_TASK_PATH, dashscopeSubmitted, dashscopeTask, validateDashScopeRequest } from './dashscope';
import { DEFAULT_VIDEO_SCHEDULE, loadSampleVideo, parseRange, promptOfVideoBody, validateVideoRequest, VideoJobs, type VideoSchedule, type VideoScheduleFor } from './video';

/** What OpenRouter's video API reports a finished job cost (`usage.cost`, USD). */
export const OPENROUTER_VIDEO_COST_USD = 0.35;

export type { RequestLogEntry } from './requestLog';

export interface SimulatorOptions {
  host?: string;
  port?: number;
  apiKey?: string;
  tokensPerSecond?: number;
  rateLimit?: RateLimit | null;
  video?: VideoSchedule | VideoScheduleFor;
  /** The ids `/v1/models` lists (all it serves by default): two gateways whose lists differ. */
  listedModels?: readonly string[];
  /** Serves OpenRouter's `GET /v1/videos/models` (the allowed durations, resolutions and aspect ratios); 404 without. */
  videoModels?: boolean;
  /** Serves the OpenAI Videos shape (`POST /v1/videos`, `GET /v1/videos/{id}` with `progress`, `/content`), and lists
   * the video model with `supported_endpoints: ["/v1/videos"]` as LiteLLM does. Not with `videoModels`. */
  openaiVideos?: boolean;
  /**
   * `/v1/models` as OpenRouter answers it: modalities under `architecture`, image and speech models only with
   * `?output_modalities=all`; and speech as OpenRouter bills it: an `X-Generation-Id` header, its cost at `/v1/generation?id=`.
   */
  openrouterModels?: boolean;
  /** Speech asked without `stream_format` is sent in pieces all the same (a chunked body, as OpenAI sends its audio). */
  chunkedSpeech?: boolean;
  now?: () => number;
  quiet?: boolean;
}

export interface Simulator {
  readonly baseUrl: string;
  readonly origin: string;
  /** A second origin (another port) that serves only result files: where a `[redirect]` video's link leads. */
  readonly cdnOrigin: string;
  readonly apiKey: string;
  readonly keys: SimKeys;
  readonly log: RequestLogEntry[];
  clearLog(): void;
  /** `times` (an extension): the fault applies to the next `times` requests only, then clears itself. */
  setDefaultFault(fault: string | null, times?: number): void;
  setRateLimit(limit: RateLimit | null): void;
  /** Revokes the valid key for `key`, as a gateway whose key was rotated: jobs, files and the log stay. */
  rotateKey(key: string): void;
  /** Video jobs submitted from now on stay queued, their schedules not started, until `releaseHeldVideos()`. */
  holdVideos(): void;
  releaseHeldVideos(): void;
  /** Streamed speech from now on stops before its last piece until `releaseHeldSpeech()`. */
  holdSpeech(): void;
  releaseHeldSpeech(): void;
  /** The next `count` requests (only those whose path starts with `pathPrefix`, when given) get a 429. */
  force429(retryAfterSeconds: number, count?: number, pathPrefix?: string): void;
  waitForLog(predicate: (e: RequestLogEntry) => boolean, timeoutMs?: number): Promise<RequestLogEntry>;
  close(): Promise<void>;
}

const DEFAULT_SLOW_HEADERS_MS = 3000;
const DEFAULT_FAULT_AFTER = 3;

function originOf(address: AddressInfo | undefined): string {
  const host = address?.family === 'IPv6' ? `[${address.address}]` : address?.address;
  return `http://${host}:${address?.port}`;
}

function nonNegativeInt(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^\d+$/.test(value.trim())) return fallback;
  return Number(value);
}

function nonNegativeNumber(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return fallback;
  return Number(value);
}

/** Lets browser-based tests and demos call the simulator directly (it only listens on loopback). */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'x-request-id, retry-after, content-range, content-length',
};

class GatewaySimulator implements Simulator {
  readonly keys: SimKeys;
  private readonly server: Server;
  private readonly cdn: Server;
  private readonly sockets = new Set<Socket>();
  private readonly requestLog = new RequestLog();
  private readonly rateLimiter: RateLimiter;
  private readonly jobs: VideoJobs;
  private readonly speechHold = new SpeechHold();
  private readonly images: GeneratedImages;
  private readonly generations: Generations;
  private readonly now: () => number;
  private readonly tokensPerSecond: number;
  private readonly quiet: boolean;
  private readonly video = loadSampleVideo();
  private defaultFault: { name: string; remaining: number | undefined } | null = null;
  private forced: { retryAfterSeconds: number; remaining: number; pathPrefix?: string } | null = null;
  private shuttingDown = false;
  private address: AddressInfo | undefined;
  private cdnAddress: AddressInfo | undefined;

  constructor(private readonly options: SimulatorOptions) {
    this.keys = makeKeys(options.apiKey);
    this.now = options.now ?? Date.now;
    this.tokensPerSecond = options.tokensPerSecond ?? 0;
    this.quiet = options.quiet ?? true;
    this.rateLimiter = new RateLimiter(options.rateLimit ?? null, this.now);
    this.jobs = new VideoJobs(this.now, options.video ?? DEFAULT_VIDEO_SCHEDULE);
    this.images = new GeneratedImages(this.now);
    this.generations = new Generations(this.now);
    this.server = createServer((req, res) => void this.handle(req, res));
    this.cdn = createServer((req, res) => void this.handle(req, res, true));
    for (const server of [this.server, this.cdn]) {
      server.on('connection', (socket) => {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
      });
    }
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.address = this.server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      this.cdn.once('error', reject);
      this.cdn.listen(0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.cdnAddress = this.cdn.address() as AddressInfo;
  }

  get origin(): string {
    return originOf(this.address);
  }

  get cdnOrigin(): string {
    return originOf(this.cdnAddress);
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  get apiKey(): string {
    return this.keys.valid;
  }

  get log(): RequestLogEntry[] {
    return this.requestLog.entries;
  }

  clearLog(): void {
    this.requestLog.clear();
  }

  setDefaultFault(fault: string | null, times?: number): void {
    if (fault !== null && !isFaultName(fault)) throw new Error(`Unknown fault '${fault}' (known: ${FAULTS.join(', ')})`);
    this.defaultFault = fault === null ? null : { name: fault, remaining: times };
  }

  setRateLimit(limit: RateLimit | null): void {
    this.rateLimiter.setLimit(limit);
  }

  rotateKey(key: string): void {
    this.keys.valid = key;
  }

  holdVideos(): void {
    this.jobs.hold();
  }

  releaseHeldVideos(): void {
    this.jobs.releaseHeld();
  }

  holdSpeech(): void {
    this.speechHold.hold();
  }

  releaseHeldSpeech(): void {
    this.speechHold.release();
  }

  force429(retryAfterSeconds: number, count = 1, pathPrefix?: string): void {
    this.forced = count > 0 ? { retryAfterSeconds, remaining: count, pathPrefix } : null;
  }

  waitForLog(predicate: (e: RequestLogEntry) => boolean, timeoutMs?: number): Promise<RequestLogEntry> {
    return this.requestLog.waitFor(predicate, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    const closed = Promise.all([this.server, this.cdn].map((server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))));
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    this.cdn.closeAllConnections();
    this.requestLog.rejectWaiters('simulator closed');
    await closed;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, viaCdn = false): Promise<void> {
    const exchange = new Exchange(req, res, this.requestLog, () => this.shuttingDown);
    if (!this.quiet) res.on('close', () => this.printLine(exchange.entry));
    try {
      await exchange.readBody();
      await this.route(exchange, viaCdn);
    } catch (error) {
      if (exchange.closed) return;
      if (error instanceof SimErrorResponse) {
        if (!res.headersSent) exchange.sendError(error.simError);
        return;
      }
      if (!res.headersSent) {
        exchange.sendError({ status: 500, code: 'server_error', message: `Simulator bug: ${(error as Error).message}` });
      } else exchange.destroy();
    }
  }

  private printLine(entry: RequestLogEntry): void {
    const took = (entry.endedAt ?? Date.now()) - entry.startedAt;
    const notes = [entry.fault ? `fault=${entry.fault}` : '', entry.aborted ? 'aborted' : ''].filter(Boolean).join(' ');
    process.stderr.write(`${entry.method} ${entry.path} ${entry.status} ${took}ms ${notes}\n`);
  }

  private async route(exchange: Exchange, viaCdn: boolean): Promise<void> {
    const path = exchange.url.pathname;
    const method = exchange.req.method ?? 'GET';
    for (const [name, value] of Object.entries(CORS_HEADERS)) exchange.res.setHeader(name, value);
    if (method === 'OPTIONS') {
      exchange.head(204, {
        'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
        'access-control-allow-headers': exchange.header('access-control-request-headers') ?? 'authorization, content-type',
        'access-control-max-age': '600',
      });
      exchange.res.end();
      return;
    }
    if (path.startsWith('/files/')) {
      if (!(await this.applyFault(exchange, this.resolveFault(exchange, '')))) return;
      this.serveFile(exchange, path.slice('/files/'.length), viaCdn);
      return;
    }
    if (viaCdn) throw notFound(`The CDN origin serves only /files/, not ${path}`);
    const account = keyAccountAnswer(path);
    if (account) {
      const auth = authenticate(exchange.header('authorization'), this.keys);
      if (!auth.ok) return exchange.sendError(auth.error);
      return this.only(exchange, 'GET', () => exchange.sendJson(account));
    }
    if (path !== '/v1' && !path.startsWith('/v1/')) throw notFound(`No route for ${method} ${path}; the API lives under /v1`);

    const auth = authenticate(exchange.header('authorization'), this.keys);
    if (!auth.ok) {
      exchange.sendError(auth.error);
      return;
    }
    if (this.forced && exchange.entry.path.startsWith(this.forced.pathPrefix ?? '')) {
      const { retryAfterSeconds } = this.forced;
      if (--this.forced.remaining <= 0) this.forced = null;
      exchange.sendError(rateLimitedError(retryAfterSeconds, 'Rate limit reached (forced by the simulator)'));
      return;
    }
    const asked = exchange.body as { model?: unknown } | null | undefined;
    const askedModel = typeof asked === 'object' && asked !== null && typeof asked.model === 'string' ? asked.model : undefined;
    const limited = this.rateLimiter.admit(auth.key, exchange.rawBody.length / 4, askedModel);
    if (limited) {
      exchange.sendError(limited);
      return;
    }
    for (const [name, value] of Object.entries(this.rateLimiter.headers(auth.key, askedModel))) exchange.res.setHeader(name, value);

    const isChat = path === '/v1/chat/completions';
    // OpenRouter's video API beside its /videos/models list (openrouterVideo.ts), only when that list is served.
    const isOpenRouterVideo = this.options.videoModels === true && path === OPENROUTER_VIDEOS_PATH;
    const isOpenAIVideo = this.options.openaiVideos === true && !this.options.videoModels && path === OPENAI_VIDEOS_PATH;
    const isVideoSubmit = path === '/v1/videos/generations' || path === DASHSCOPE_SUBMIT_PATH || isOpenRouterVideo || isOpenAIVideo;
    const isImage = path === '/v1/images/generations';
    const isEdit = path === '/v1/images/edits';
    const isSpeech = path === '/v1/audio/speech';
    const prompt = isChat
      ? promptOfChatBody(exchange.body)
      : isVideoSubmit
        ? promptOfVideoBody(exchange.body) || (isObject(exchange.body) && typeof exchange.body.prompt === 'string' ? exchange.body.prompt : '')
        : isImage
          ? promptOfImageBody(exchange.body)
          : isSpeech
            ? inputOfSpeechBody(exchange.body)
            : '';
    if (!(await this.applyFault(exchange, this.resolveFault(exchange, prompt)))) return;

    if (path === '/v1/models') return this.only(exchange, 'GET', () => exchange.sendJson(this.listModels(exchange)));
    if (path === '/v1/videos/models' && this.options.videoModels) return this.only(exchange, 'GET', () => exchange.sendJson(videoModelList()));
    const modelMatch = /^\/v1\/models\/([^/]+)$/.exec(path);
    if (modelMatch) {
      return this.only(exchange, 'GET', () => {
        const id = decodeURIComponent(modelMatch[1]);
        if (!isKnownModel(id)) throw modelNotFound(id);
        exchange.sendJson(modelObject(id));
      });
    }
    if (isChat) return this.only(exchange, 'POST', () => this.chat(exchange, auth.kind));
    if (path === DASHSCOPE_SUBMIT_PATH) return this.only(exchange, 'POST', () => this.submitDashScope(exchange, auth.kind));
    if (isOpenRouterVideo) return this.only(exchange, 'POST', () => this.submitOpenRouter(exchange, auth.kind));
    if (isOpenAIVideo) return this.only(exchange, 'POST', () => this.submitOpenAI(exchange, auth.kind));
    if (isVideoSubmit) return this.only(exchange, 'POST', () => this.submitVideo(exchange, auth.kind));
    if (isImage) return this.only(exchange, 'POST', () => this.generateImages(exchange, auth.kind));
    if (isEdit) return this.only(exchange, 'POST', () => this.editImage(exchange, auth.kind));
    if (isSpeech) return this.only(exchange, 'POST', () => this.synthesizeSpeech(exchange, auth.kind));
    if (path === GENERATION_PATH && this.options.openrouterModels) return this.only(exchange, 'GET', () => exchange.sendJson(this.generations.view(exchange.url.searchParams.get('id'))));
    if (path === '/v1/audio/transcriptions') return this.only(exchange, 'POST', () => transcribe(exchange));
    const jobMatch = /^\/v1\/videos\/generations\/([^/]+)$/.exec(path);
    if (jobMatch) {
      return this.only(exchange, 'GET', () => {
        const { body, headers } = this.jobs.view(decodeURIComponent(jobMatch[1]), this.origin);
        exchange.sendJson(body, headers);
      });
    }
    const openrouterMatch = this.options.videoModels ? OPENROUTER_JOB_PATH.exec(path) : null;
    if (openrouterMatch) return this.only(exchange, 'GET', () => exchange.sendJson(openrouterJob(this.jobs, decodeURIComponent(openrouterMatch[1]), this.origin, OPENROUTER_VIDEO_COST_USD)));
    if (this.options.openaiVideos && !this.options.videoModels) {
      const content = OPENAI_CONTENT_PATH.exec(path);
      if (content) {
        return this.only(exchange, 'GET', () => {
          const { contentType, bytes } = openaiContent(this.jobs, decodeURIComponent(content[1]), this.origin, exchange.url.searchParams.get('variant'), this.video);
          exchange.sendBytes(200, { 'content-type': contentType }, bytes);
        });
      }
      const video = OPENAI_JOB_PATH.exec(path);
      if (video) return this.only(exchange, 'GET', () => exchange.sendJson(openaiVideo(this.jobs, decodeURIComponent(video[1]), this.origin)));
    }
    const taskMatch = DASHSCOPE_TASK_PATH.exec(path);
    if (taskMatch) return this.only(exchange, 'GET', () => exchange.sendJson(dashscopeTask(this.jobs, decodeURIComponent(taskMatch[1]), this.origin)));
    throw notFound(`No route for ${method} ${path}`);
  }

  private listModels(exchange: Exchange): ReturnType<typeof modelList> {
    if (this.options.openaiVideos && !this.options.openrouterModels) {
      const list = modelList(this.options.listedModels);
      return { ...list, data: list.data.map((m) => (m.id === VIDEO_MODEL ? { ...m, supported_endpoints: [OPENAI_VIDEOS_PATH] } : m)) };
    }
    if (!this.options.openrouterModels) return modelList(this.options.listedModels);
    return openrouterModelList(exchange.url.searchParams.get('output_modalities') === 'all');
  }

  private async only(exchange: Exchange, method: string, handler: () => void | Promise<void>): Promise<void> {
    if (exchange.req.method !== method) {
      exchange.sendError({
        status: 405,
        code: 'method_not_allowed',
        message: `${exchange.req.method} is not allowed on ${exchange.url.pathname}; use ${method}`,
        headers: { allow: method },
      });
      return;
    }
    await handler();
  }

  private requireJsonBody(exchange: Exchange): void {
    if (exchange.bodyError) throw invalidRequest(exchange.bodyError);
    if (exchange.body === undefined) throw invalidRequest('Request body is required (JSON)');
  }

  private async chat(exchange: Exchange, kind: KeyKind): Promise<void> {
    this.requireJsonBody(exchange);
    if (asksForImages(exchange.body)) return this.chatImage(exchange, kind);
    const request = validateChatRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    const reply = composeReply(request, this.now());
    for (const [name, value] of Object.entries(chatCostHeader(request.model, reply.usage))) exchange.res.setHeader(name, value);
    if (!request.stream) {
      exchange.sendJson(completionBody(reply));
      return;
    }
    const tps = nonNegativeNumber(exchange.header('x-sim-tps'), this.tokensPerSecond);
    await exchange.sendStream(streamFrames(reply, request.includeUsage), tps);
  }

  private submitVideo(exchange: Exchange, kind: KeyKind): void {
    this.requireJsonBody(exchange);
    const request = validateVideoRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    exchange.sendJson(this.jobs.submit(request));
  }

  /** OpenRouter's video API over the same jobs (openrouterVideo.ts): 202 with a polling_url, a cost when done. */
  private submitOpenRouter(exchange: Exchange, kind: KeyKind): void {
    this.requireJsonBody(exchange);
    const request = validateOpenRouterVideoRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    const { status, body } = openrouterSubmitted(this.jobs, request, this.origin);
    exchange.sendJson(body, {}, status);
  }

  /** The OpenAI Videos shape over the same jobs (openaiVideo.ts): the submit answers the `Video` object. */
  private submitOpenAI(exchange: Exchange, kind: KeyKind): void {
    this.requireJsonBody(exchange);
    const request = validateOpenAIVideoRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    const { id } = this.jobs.submit(request);
    exchange.sendJson(openaiVideo(this.jobs, String(id), this.origin));
  }

  /** DashScope's task API over the same jobs (dashscope.ts): the spec's schedule, keywords and signed links. */
  private submitDashScope(exchange: Exchange, kind: KeyKind): void {
    this.requireJsonBody(exchange);
    const request = validateDashScopeRequest(exchange.body, exchange.header('x-dashscope-async'));
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    exchange.sendJson(dashscopeSubmitted(this.jobs, request));
  }

  private generateImages(exchange: Exchange, kind: KeyKind): void {
    this.requireJsonBody(exchange);
    const request = validateImageRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    const answer = this.images.generate(request, this.origin);
    if (REPORTS_COST.includes(request.model)) exchange.res.setHeader(COST_HEADER, (PRICES[IMAGE_MODEL].output_cost_per_image * (Array.isArray(answer.data) ? answer.data.length : 0)).toFixed(4));
    exchange.sendJson(answer);
  }

  private async chatImage(exchange: Exchange, kind: KeyKind): Promise<void> {
    const request = validateChatImageRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    const answer = chatImageAnswer(request, Math.floor(this.now() / 1000));
    if ('json' in answer) exchange.sendJson(answer.json);
    else await exchange.sendStream(answer.frames, 0);
  }

  private editImage(exchange: Exchange, kind: KeyKind): void {
    if (exchange.bodyError) throw invalidRequest(exchange.bodyError);
    const edit = validateImageEdit(exchange.header('content-type'), exchange.rawBytes);
    const denied = modelAccessError(kind, edit.model);
    if (denied) throw new SimErrorResponse(denied);
    const created = Math.floor(this.now() / 1000);
    exchange.sendJson(editAnswer(edit, created, (bytes) => this.images.linkTo(bytes, this.origin, created + 3600)));
  }

  private async synthesizeSpeech(exchange: Exchange, kind: KeyKind): Promise<void> {
    this.requireJsonBody(exchange);
    const request = validateSpeechRequest(exchange.body);
    const denied = modelAccessError(kind, request.model);
    if (denied) throw new SimErrorResponse(denied);
    // A 200 carrying an error object, as some gateways answer a failed synthesis.
    if (exchange.fault?.name === 'error-chunk') return exchange.sendJson({});
    if (hasKeyword(request.input, 'not-audio')) return exchange.sendBytes(200, { 'content-type': 'audio/mpeg' }, Buffer.from(HTML_ERROR_PAGE, 'utf8'));
    const generation: Record<string, string> = this.options.openrouterModels ? { 'x-generation-id': this.generations.speech(request.model, request.input) } : {};
    if (request.stream) return streamSpeech(exchange, { ...request, stream: request.stream }, generation, this.speechHold);
    if (this.options.chunkedSpeech) return streamSpeech(exchange, { ...request, stream: 'audio' }, generation, this.speechHold);
    exchange.sendBytes(200, { 'content-type': 'audio/wav', ...generation }, speak(request));
  }

  private serveFile(exchange: Exchange, name: string, viaCdn: boolean): void {
    const method = exchange.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      exchange.sendError({ status: 405, code: 'method_not_allowed', message: `${method} is not allowed on files`, headers: { allow: 'GET, HEAD' } });
      return;
    }
    const image = /^(img_[A-Za-z0-9]+)\.png$/.exec(name);
    if (image) {
      const stored = this.images.file(image[1], exchange.url.searchParams.get('sig'), exchange.url.searchParams.get('expires'));
      // `[not-image]` images keep their image/png label: a lying server is what the client must catch.
      exchange.sendBytes(200, { 'content-type': stored.contentType, 'cache-control': 'private, max-age=3600' }, stored.bytes, method === 'GET');
      return;
    }
    const match = /^([A-Za-z0-9_-]+)\.mp4$/.exec(name);
    if (!match) throw notFound(`No file named '${name}'`);
    const problem = this.jobs.fileAccessProblem(match[1], exchange.url.searchParams.get('sig'), exchange.url.searchParams.get('expires'));
    if (problem) throw problem;
    if (!viaCdn && this.jobs.redirects(match[1])) {
      // As a gateway whose signed link hands over to a CDN: same file, same signature, another origin.
      exchange.head(302, { location: `${this.cdnOrigin}${exchange.url.pathname}${exchange.url.search}`, 'content-length': 0 });
      exchange.res.end();
      return;
    }
    const size = this.video.length;
    const common = {
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=3600',
    };
    const range = parseRange(exchange.header('range'), size);
    if (range === 'unsatisfiable') {
      exchange.sendPlain(416, 'application/json', JSON.stringify({ error: { code: 'range_not_satisfiable', message: `File has ${size} bytes`, type: 'error' } }), {
        'content-range': `bytes */${size}`,
        'accept-ranges': 'bytes',
      });
      return;
    }
    if (range === undefined) {
      exchange.sendBytes(200, common, this.video, method === 'GET');
      return;
    }
    exchange.sendBytes(
      206,
      { ...common, 'content-range': `bytes ${range.start}-${range.end}/${size}` },
      this.video.subarray(range.start, range.end + 1),
      method === 'GET',
    );
  }

  /** Header, then prompt keyword, then the default; an unknown name is the caller's mistake (400). */
  private resolveFault(exchange: Exchange, prompt: string): FaultPlan | null {
    const requested = exchange.header('x-sim-fault')?.trim().toLowerCase() || faultKeyword(prompt);
    let name: string | undefined = requested;
    if (!name && this.defaultFault) {
      name = this.defaultFault.name;
      if (this.defaultFault.remaining !== undefined && --this.defaultFault.remaining <= 0) this.defaultFault = null;
    }
    if (!name) return null;
    if (!isFaultName(name)) throw invalidRequest(`Unknown simulator fault '${name}' (known: ${FAULTS.join(', ')})`);
    return {
      name,
      after: nonNegativeInt(exchange.header('x-sim-fault-after'), DEFAULT_FAULT_AFTER),
      delayMs: nonNegativeInt(exchange.header('x-sim-delay-ms'), DEFAULT_SLOW_HEADERS_MS),
      retryAfterSeconds: Math.max(1, nonNegativeInt(exchange.header('x-sim-retry-after'), 1)),
    };
  }

  /** Applies faults that replace the response; returns false when the request is done. */
  private async applyFault(exchange: Exchange, fault: FaultPlan | null): Promise<boolean> {
    exchange.fault = fault;
    if (!fault) return true;
    exchange.markFault(fault.name);
    switch (fault.name) {
      case 'reset':
        exchange.reset();
        return false;
      case 'http-500':
        exchange.sendError({ status: 500, code: 'server_error', message: 'Internal server error (simulated)' });
        return false;
      case 'http-502':
        exchange.sendError({ status: 502, code: 'bad_gateway', message: 'Upstream model server unreachable (simulated)' });
        return false;
      case 'http-503':
        exchange.sendError({
          status: 503,
          code: 'service_unavailable',
          message: 'The service is overloaded; retry later (simulated)',
          headers: { 'retry-after': String(fault.retryAfterSeconds) },
        });
        return false;
      case 'html-error':
        exchange.sendHtmlError();
        return false;
      case 'budget-429':
        exchange.sendPlain(429, 'application/json', JSON.stringify(BUDGET_EXCEEDED), { 'retry-after': String(fault.retryAfterSeconds) });
        return false;
      case 'slow-headers':
        return exchange.sleep(fault.delayMs);
      default:
        return true;
    }
  }
}

/** The key's own account, as LiteLLM (`/key/info`, at the root) and OpenRouter (`/v1/key`, `/v1/credits`) answer it. */
export const SIM_KEY_ACCOUNT = { spend: 1.25, maxBudget: 20, totalCredits: 50, totalUsage: 12.5 } as const;

function keyAccountAnswer(path: string): unknown {
  const { spend, maxBudget, totalCredits, totalUsage } = SIM_KEY_ACCOUNT;
  if (path === '/key/info') return { key: 'sk-…sim', info: { spend, max_budget: maxBudget, budget_reset_at: null } };
  if (path === '/v1/key') return { data: { label: 'sk-…sim', usage: spend, limit: maxBudget, limit_remaining: maxBudget - spend, is_free_tier: false } };
  if (path === '/v1/credits') return { data: { total_credits: totalCredits, total_usage: totalUsage } };
  return undefined;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = new GatewaySimulator(options);
  await simulator.listen();
  return simulator;
}
