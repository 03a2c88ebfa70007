// The OpenAI Videos API shape (LiteLLM, new-api and others serve it), over the same video jobs as the spec dialect;
// served when the simulator is started with `openaiVideos`. POST /videos {model, prompt, seconds:"4", size:"1280x720",
// input_reference?} answers a `Video` {id, object:"video", status:"queued", progress:0, created_at, model}; GET
// /videos/{id} answers the same object as the job moves on: in_progress with `progress` 0–99, completed with
// `completed_at` and `expires_at` (an hour on), failed with `error`. The result is GET /videos/{id}/content
// (?variant=video, the MP4; ?variant=thumbnail, a PNG), which needs the key like every other /v1 path. The video
// model's list entry then says `supported_endpoints: ["/v1/videos"]`, as LiteLLM's does.
import { invalidRequest, isObject, SimErrorResponse } from './errors';
import { encodePng } from './png';
import { validateVideoRequest, type ValidVideoRequest, type VideoJobs } from './video';

export const OPENAI_VIDEOS_PATH = '/v1/videos';
export const OPENAI_JOB_PATH = /^\/v1\/videos\/([^/]+)$/;
export const OPENAI_CONTENT_PATH = /^\/v1\/videos\/([^/]+)\/content$/;
/** How long a finished job's content is kept, as OpenAI says in `expires_at`. */
const CONTENT_LIFETIME_S = 3600;

/** The submission, checked in the OpenAI shape and read as the spec's (the jobs are the same). */
export function validateOpenAIVideoRequest(body: unknown): ValidVideoRequest & { firstFrame?: string } {
  if (!isObject(body)) throw invalidRequest('Request body must be a JSON object');
  if (body.input !== undefined) throw invalidRequest("'input' is not a field of POST /videos: send 'prompt' at the top level");
  const { model, prompt, seconds, size } = body;
  if (seconds !== undefined && (typeof seconds !== 'string' || !/^\d{1,3}$/.test(seconds))) throw invalidRequest("'seconds' must be whole seconds as a string, such as \"4\"");
  if (size !== undefined && (typeof size !== 'string' || !/^\d{1,5}x\d{1,5}$/.test(size))) throw invalidRequest("'size' must be WIDTHxHEIGHT, such as \"1280x720\"");
  const parameters = { ...(seconds !== undefined && { duration: Number(seconds) }), ...(size !== undefined && { resolution: size }) };
  const request = validateVideoRequest({ model, input: { prompt }, ...(Object.keys(parameters).length > 0 && { parameters }) });
  return { ...request, ...(typeof body.input_reference === 'string' && { firstFrame: body.input_reference }) };
}

/** The job as a `Video` object now. */
export function openaiVideo(jobs: VideoJobs, id: string, origin: string): Record<string, unknown> {
  const { body } = jobs.view(id, origin);
  const video: Record<string, unknown> = { id, object: 'video', status: body.status, progress: body.progress ?? 0, created_at: body.created, model: body.model };
  if (typeof body.completed_at === 'number') video.completed_at = body.completed_at;
  if (body.status === 'completed' && typeof body.completed_at === 'number') video.expires_at = body.completed_at + CONTENT_LIFETIME_S;
  if (body.status === 'failed' && isObject(body.error)) video.error = { code: body.error.code, message: body.error.message };
  return video;
}

/** What /videos/{id}/content serves for a variant of a finished job; a 404 before it has finished. */
export function openaiContent(jobs: VideoJobs, id: string, origin: string, variant: string | null, video: Buffer): { contentType: string; bytes: Buffer } {
  if (jobs.view(id, origin).body.status !== 'completed') throw new SimErrorResponse({ status: 404, code: 'not_found', message: `The video '${id}' has no content yet` });
  if (variant === null || variant === 'video') return { contentType: 'video/mp4', bytes: video };
  if (variant === 'thumbnail') return { contentType: 'image/png', bytes: encodePng(16, 9, new Uint8Array(16 * 9 * 3).fill(96)) };
  throw invalidRequest(`'variant' must be video or thumbnail, not ${variant}`);
}
