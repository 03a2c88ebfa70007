// DashScope's task API (Alibaba Wan and others), over the same video jobs as the spec dialect: POST
// /services/aigc/video-generation/video-synthesis with `X-DashScope-Async: enable` answers {request_id, output:{task_id,
// task_status:"PENDING"}}; GET /tasks/{task_id} says PENDING, RUNNING, SUCCEEDED (with `output.video_url`, a signed
// link) or FAILED (with `output.code` and `output.message`), always with HTTP 200, and UNKNOWN for an id it does not
// know. DashScope defines no progress field, so none is sent.
import { randomBytes } from 'node:crypto';
import { invalidRequest, isObject, SimErrorResponse } from './errors';
import { validateVideoRequest, type ValidVideoRequest, type VideoJobs } from './video';

export const DASHSCOPE_SUBMIT_PATH = '/v1/services/aigc/video-generation/video-synthesis';
export const DASHSCOPE_TASK_PATH = /^\/v1\/tasks\/([^/]+)$/;

const TASK_STATUS: Record<string, string> = { queued: 'PENDING', in_progress: 'RUNNING', completed: 'SUCCEEDED', failed: 'FAILED' };

function requestId(): string {
  return randomBytes(8).toString('hex');
}

/** The submission, checked as DashScope does: asynchronous only, `input.img_url` a URL when given. */
export function validateDashScopeRequest(body: unknown, asyncHeader: string | undefined): ValidVideoRequest & { firstFrame?: string } {
  if (asyncHeader?.toLowerCase() !== 'enable') {
    throw new SimErrorResponse({ status: 403, code: 'AccessDenied', message: 'current user api does not support synchronous calls (send X-DashScope-Async: enable)' });
  }
  const request = validateVideoRequest(body);
  const input = isObject(body) && isObject(body.input) ? body.input : {};
  if (input.img_url !== undefined && (typeof input.img_url !== 'string' || !/^(https?:|data:image\/)/.test(input.img_url))) {
    throw invalidRequest("'input.img_url' must be an http(s) URL or a data URL of an image");
  }
  const parameters = isObject(body) && isObject(body.parameters) ? body.parameters : {};
  const size = typeof parameters.size === 'string' ? parameters.size : undefined;
  return { ...request, ...(size && !request.resolution && { resolution: size }), ...(typeof input.img_url === 'string' && { firstFrame: input.img_url }) };
}

export function dashscopeSubmitted(jobs: VideoJobs, request: ValidVideoRequest): Record<string, unknown> {
  const job = jobs.submit(request);
  return { request_id: requestId(), output: { task_id: job.id, task_status: 'PENDING' } };
}

/** The task as a poll sees it now: the spec job's state in DashScope's words, or UNKNOWN (with HTTP 200). */
export function dashscopeTask(jobs: VideoJobs, id: string, origin: string): Record<string, unknown> {
  let body: Record<string, unknown>;
  try {
    body = jobs.view(id, origin).body;
  } catch (error) {
    if (error instanceof SimErrorResponse && error.simError.status === 404) return { request_id: requestId(), output: { task_id: id, task_status: 'UNKNOWN' } };
    throw error;
  }
  const status = TASK_STATUS[String(body.status)] ?? 'UNKNOWN';
  const output: Record<string, unknown> = { task_id: id, task_status: status, submit_time: isoSeconds(body.created) };
  if (status === 'SUCCEEDED') {
    const data = Array.isArray(body.data) ? (body.data as Array<{ url: string }>) : [];
    Object.assign(output, { end_time: isoSeconds(body.completed_at), video_url: data[0]?.url });
    return { request_id: requestId(), output, usage: { video_duration: 5, video_ratio: '1280*720', video_count: 1 } };
  }
  if (status === 'FAILED') {
    const error = isObject(body.error) ? body.error : {};
    Object.assign(output, { end_time: isoSeconds(body.completed_at), code: 'InternalError.Algo', message: String(error.message ?? 'The video could not be generated') });
  }
  return { request_id: requestId(), output };
}

function isoSeconds(value: unknown): string | undefined {
  return typeof value === 'number' ? new Date(value * 1000).toISOString().replace('T', ' ').slice(0, 23) : undefined;
}
