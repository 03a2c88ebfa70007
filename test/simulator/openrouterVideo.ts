// OpenRouter's video API, over the same video jobs as the spec dialect: POST /videos with a flat body ({model, prompt,
// duration, size or resolution, aspect_ratio, frame_images}) answers 202 {id, polling_url, status:"pending"}; GET
// /videos/{id} says pending, in_progress, completed (with `urls`, signed links, and `usage.cost`) or failed (with
// `error`). Served beside /videos/models when the simulator is started with `videoModels`, as OpenRouter serves both.
import { invalidRequest, isObject } from './errors';
import { validateVideoRequest, type ValidVideoRequest, type VideoJobs } from './video';

export const OPENROUTER_VIDEOS_PATH = '/v1/videos';
export const OPENROUTER_JOB_PATH = /^\/v1\/videos\/([^/]+)$/;

const STATUS: Record<string, string> = { queued: 'pending', in_progress: 'in_progress', completed: 'completed', failed: 'failed' };

/** The submission, checked in OpenRouter's shape and read as the spec's (the jobs are the same). */
export function validateOpenRouterVideoRequest(body: unknown): ValidVideoRequest & { firstFrame?: string } {
  if (!isObject(body)) throw invalidRequest('Request body must be a JSON object');
  if (body.input !== undefined) throw invalidRequest("'input' is not an OpenRouter field: send 'prompt' at the top level");
  const { model, prompt, duration, size, resolution } = body;
  const frames = Array.isArray(body.frame_images) ? body.frame_images : [];
  const first = frames.find((f) => isObject(f) && f.frame_type === 'first_frame');
  const url = isObject(first) && isObject(first.image_url) && typeof first.image_url.url === 'string' ? first.image_url.url : undefined;
  const parameters = { ...(duration !== undefined && { duration }), ...((resolution ?? size) !== undefined && { resolution: resolution ?? size }) };
  const request = validateVideoRequest({ model, input: { prompt }, ...(Object.keys(parameters).length > 0 && { parameters }) });
  return { ...request, ...(url && { firstFrame: url }) };
}

export function openrouterSubmitted(jobs: VideoJobs, request: ValidVideoRequest, origin: string): { status: number; body: Record<string, unknown> } {
  const job = jobs.submit(request);
  const id = String(job.id);
  return { status: 202, body: { id, polling_url: `${origin}/v1/videos/${encodeURIComponent(id)}`, status: 'pending' } };
}

/** The job as a poll sees it now, in OpenRouter's words; `costUsd` is what a finished job reports. */
export function openrouterJob(jobs: VideoJobs, id: string, origin: string, costUsd: number): Record<string, unknown> {
  const { body } = jobs.view(id, origin);
  const status = STATUS[String(body.status)] ?? String(body.status);
  const out: Record<string, unknown> = { id, status };
  if (status === 'completed') {
    const data = Array.isArray(body.data) ? (body.data as Array<{ url: string }>) : [];
    Object.assign(out, { urls: data.map((d) => d.url), usage: { cost: costUsd } });
  }
  if (status === 'failed' && isObject(body.error)) out.error = String(body.error.message ?? 'The video could not be generated');
  return out;
}
