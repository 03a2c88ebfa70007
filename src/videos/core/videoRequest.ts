// Builds the gateway's VideoRequest from what the user chose (wizard answers or the command's argument). Pure.
// The spec names only input.prompt, parameters.resolution and parameters.duration; where a source video goes is a
// setting (a dotted path), and extra parameters come from settings as JSON.
import type { VideoRequest } from '../../gateway/types';
import type { VideoDefaults } from '../../settings/settings';
import { isRecord } from '../../util/records';
import { retiringMarks } from '../../models/core/api';

export interface VideoAnswers {
  prompt: string;
  model: string;
  resolution?: string;
  duration?: number;
  /** `16:9`, `9:16`…: sent as parameters.aspect_ratio, only when asked for. */
  aspectRatio?: string;
  /** Source video for the edit model; goes where `sourceVideoField` says. */
  videoUrl?: string;
  /**
   * The first frame (image to video), a data URL or an http(s) URL (firstFrame.ts makes it). It goes at the spec's
   * `input.img_url`, where each dialect adapter finds it and puts it where its gateway takes it.
   */
  firstFrame?: string;
}

export type RequestDefaults = Pick<VideoDefaults, 'model' | 'resolutions' | 'duration' | 'sourceVideoField' | 'extraParameters'>;

export class VideoRequestError extends Error {
  override readonly name = 'VideoRequestError';
}

export const MAX_DURATION_SECONDS = 600;
export const MAX_PROMPT_LENGTH = 32_000;
const UNSAFE_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);
const RESERVED_PATHS = new Set(['input.prompt', 'input.img_url', 'parameters.resolution', 'parameters.duration']);

/** An error message for the prompt, or undefined when it is fine. */
export function validatePrompt(text: string): string | undefined {
  if (text.trim() === '') return 'Describe the video you want.';
  if (text.length > MAX_PROMPT_LENGTH) return `The prompt is too long (${text.length} characters; at most ${MAX_PROMPT_LENGTH}).`;
  return undefined;
}

export function parseDuration(text: string): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { error: 'Enter the duration in seconds, for example 5 or 2.5.' };
  return checkDuration(Number(trimmed));
}

function checkDuration(value: number): { value: number } | { error: string } {
  if (!Number.isFinite(value) || value <= 0) return { error: 'The duration must be more than 0 seconds.' };
  if (value > MAX_DURATION_SECONDS) return { error: `The duration can be at most ${MAX_DURATION_SECONDS} seconds.` };
  return { value };
}

/** An error message for a source video URL, or undefined when it is fine. Empty means "no source video". */
export function validateSourceVideoUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'Enter a full URL, for example https://example.com/clip.mp4, or leave it empty.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `The source video must be an http or https URL, not ${url.protocol}`;
  return undefined;
}

/**
 * Splits `modelGateway.video.sourceVideoField` into path segments. The path must lead into `input` or
 * `parameters` (the job store keeps those for resubmission) and must not replace the prompt, resolution or duration.
 */
export function parseFieldPath(path: string): string[] {
  const segments = path.trim().split('.');
  const shown = `modelGateway.video.sourceVideoField "${path}"`;
  if (segments.some((s) => s.trim() === '' || s !== s.trim())) throw new VideoRequestError(`${shown} must be a dotted path such as input.video_url.`);
  if (segments.some((s) => UNSAFE_SEGMENTS.has(s))) throw new VideoRequestError(`${shown} may not use __proto__, prototype or constructor.`);
  if ((segments[0] !== 'input' && segments[0] !== 'parameters') || segments.length < 2) {
    throw new VideoRequestError(`${shown} must start with input. or parameters., for example input.video_url.`);
  }
  if (RESERVED_PATHS.has(segments.join('.'))) throw new VideoRequestError(`${shown} would replace ${segments.join('.')}; choose another field.`);
  return segments;
}

function setAtPath(root: Record<string, unknown>, segments: string[], value: unknown, shownPath: string): void {
  let node = root;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (next === undefined) node[segment] = {};
    else if (!isRecord(next)) throw new VideoRequestError(`Cannot put the source video at ${shownPath}: ${segment} is already set to a non-object value (check modelGateway.video.extraParameters).`);
    node = node[segment] as Record<string, unknown>;
  }
  node[segments[segments.length - 1]] = value;
}

/** The request sent to POST /v1/videos/generations. Throws VideoRequestError when an answer or setting is invalid. */
export function buildVideoRequest(answers: VideoAnswers, defaults: Pick<RequestDefaults, 'sourceVideoField' | 'extraParameters'>): VideoRequest {
  const promptProblem = validatePrompt(answers.prompt);
  if (promptProblem) throw new VideoRequestError(promptProblem);
  if (answers.model.trim() === '') throw new VideoRequestError('Choose a video model.');
  if (answers.duration !== undefined) {
    const checked = checkDuration(answers.duration);
    if ('error' in checked) throw new VideoRequestError(checked.error);
  }
  // A JSON copy: settings are JSON, and VS Code hands them out as frozen proxies that structuredClone refuses.
  const extra = isRecord(defaults.extraParameters) ? (JSON.parse(JSON.stringify(defaults.extraParameters)) as Record<string, unknown>) : {};
  for (const key of Object.keys(extra)) if (UNSAFE_SEGMENTS.has(key)) delete extra[key];
  const parameters: Record<string, unknown> = {
    ...extra,
    ...(answers.resolution !== undefined && { resolution: answers.resolution }),
    ...(answers.duration !== undefined && { duration: answers.duration }),
    ...(answers.aspectRatio !== undefined && { aspect_ratio: answers.aspectRatio }),
  };
  const request: VideoRequest = { model: answers.model.trim(), input: { prompt: answers.prompt, ...(answers.firstFrame !== undefined && { img_url: answers.firstFrame }) } };
  const videoUrl = answers.videoUrl?.trim();
  if (videoUrl) {
    const problem = validateSourceVideoUrl(videoUrl);
    if (problem) throw new VideoRequestError(problem);
    const segments = parseFieldPath(defaults.sourceVideoField);
    const root: Record<string, unknown> = { input: request.input, parameters };
    setAtPath(root, segments, videoUrl, defaults.sourceVideoField);
  }
  if (Object.keys(parameters).length > 0) request.parameters = parameters;
  return request;
}

/**
 * Reads the argument of `modelGateway.generateVideo` (`{ prompt, model?, resolution?, duration?, aspectRatio?, videoUrl? }`),
 * filling what is missing from settings. Throws VideoRequestError with a message that names the bad member.
 */
export function answersFromArgument(argument: unknown, defaults: RequestDefaults): VideoAnswers {
  if (!isRecord(argument)) throw new VideoRequestError('modelGateway.generateVideo takes { prompt, model?, resolution?, duration?, aspectRatio?, videoUrl? }.');
  const { prompt, model, resolution, duration, aspectRatio, videoUrl } = argument;
  if (typeof prompt !== 'string') throw new VideoRequestError('prompt must be a string.');
  const promptProblem = validatePrompt(prompt);
  if (promptProblem) throw new VideoRequestError(promptProblem);
  if (model !== undefined && (typeof model !== 'string' || model.trim() === '')) throw new VideoRequestError('model must be a non-empty string.');
  if (resolution !== undefined && (typeof resolution !== 'string' || resolution.trim() === '')) throw new VideoRequestError('resolution must be a non-empty string such as 1280x720.');
  if (aspectRatio !== undefined && (typeof aspectRatio !== 'string' || aspectRatio.trim() === '' || aspectRatio.length > 24)) throw new VideoRequestError('aspectRatio must be a short string such as 16:9.');
  if (duration !== undefined && typeof duration !== 'number') throw new VideoRequestError('duration must be a number of seconds.');
  if (typeof duration === 'number') {
    const checked = checkDuration(duration);
    if ('error' in checked) throw new VideoRequestError(checked.error);
  }
  if (videoUrl !== undefined && typeof videoUrl !== 'string') throw new VideoRequestError('videoUrl must be a string.');
  if (typeof videoUrl === 'string') {
    const problem = validateSourceVideoUrl(videoUrl);
    if (problem) throw new VideoRequestError(problem);
  }
  return {
    prompt,
    model: typeof model === 'string' ? model.trim() : defaults.model,
    resolution: typeof resolution === 'string' ? resolution.trim() : defaults.resolutions[0],
    duration: typeof duration === 'number' ? duration : defaults.duration,
    ...(typeof aspectRatio === 'string' && { aspectRatio: aspectRatio.trim() }),
    ...(typeof videoUrl === 'string' && videoUrl.trim() !== '' && { videoUrl: videoUrl.trim() }),
  };
}

/**
 * Model ids to offer: the video models (all models when none is recognisable), the default first, and the marks of
 * the retiring ones among them at `now` (models/core's retiringMarks). The kind is the catalog's (the models
 * feature's one kind rule, read once when the list arrives, or remembered with it), as the media pickers read it:
 * never worked out again here from the raw entry.
 */
export function modelChoices(models: ReadonlyArray<{ id: string; kind: string; raw?: unknown }>, defaultModel: string, now: number): { ids: string[]; recognised: boolean; marks: Record<string, string> } {
  const video = models.filter((m) => m.kind === 'video');
  const recognised = video.length > 0;
  const offered = recognised ? video : models;
  const ids = offered.map((m) => m.id);
  const ordered = [defaultModel, ...ids.filter((id) => id !== defaultModel)].filter((id) => id.trim() !== '');
  return { ids: [...new Set(ordered)], recognised, marks: retiringMarks(offered.map((m) => ({ id: m.id, raw: m.raw })), now) };
}
