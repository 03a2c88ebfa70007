// UI adapter: Generate Video. Without an argument it walks through prompt, model, resolution, duration, source
// video and first frame, then submits; with `{ prompt, model?, resolution?, duration?, aspectRatio?, videoUrl?, image? }`
// it submits at once (`image`: the first frame's file). Where the gateway lists what a model allows, the picks offer
// only that, and a value outside it is refused unsent.
import { accessAdvice, AdvisedError, adviceFor } from '../../ui/core/errorAdvice';
import * as vscode from 'vscode';
import type { AllowedParameters } from '../core/api';
import { allowedAnswers } from '../core/dialects/allowedParameters';
import type { VideoCommandContext } from './sharedCommands';
import { readPlace } from '../../ui/vscode/readPlace';
import { readFirstFrame } from '../core/firstFrame';
import type { ModelChoices } from './commandUi';
import type { VideoJobRecord } from '../core/jobRecord';
import { warnUncertain } from './submissionCommands';
import { answersFromArgument, buildVideoRequest, modelChoices, parseDuration, validatePrompt, validateSourceVideoUrl, VideoRequestError, type VideoAnswers } from '../core/videoRequest';

/**
 * The walk-through resolves with the job, or undefined when dismissed or refused (the reason is shown). The
 * argument form resolves with the job and rejects on a bad argument or a refused submission.
 */
export async function generateVideo(ctx: VideoCommandContext, argument?: unknown): Promise<VideoJobRecord | undefined> {
  if (typeof argument === 'object' && argument !== null && 'prompt' in argument) {
    // A script may name the profile to submit under (`profile`: id or name); the active profile otherwise.
    const profile = 'profile' in argument && typeof argument.profile === 'string' ? argument.profile : undefined;
    if (profile !== undefined && !ctx.connection.profile(profile)) throw new Error(`There is no profile "${profile}".`);
    // The named profile's default video model, not the active profile's.
    const defaults = ctx.settings(profile);
    const image = 'image' in argument ? argument.image : undefined;
    if (image !== undefined && (typeof image !== 'string' || image.trim() === '')) throw new VideoRequestError('image must be the path of the first frame\'s image file.');
    const answers = answersFromArgument(argument, defaults);
    if (typeof image === 'string') answers.firstFrame = await readFirstFrame({ path: image }, () => readPlace(ctx.ui));
    const asked = { duration: 'duration' in argument && argument.duration !== undefined, resolution: 'resolution' in argument && argument.resolution !== undefined };
    return submit(ctx, answers, false, profile, defaults, asked);
  }
  if (!(await ensureAccess(ctx, true))) return undefined;
  const answers = await askAnswers(ctx);
  if (!answers) return undefined;
  if (answers.framePath !== undefined) {
    const { framePath, ...rest } = answers;
    try {
      return await submit(ctx, { ...rest, firstFrame: await readFirstFrame({ path: framePath }, () => readPlace(ctx.ui)) }, true);
    } catch (error) {
      void ctx.ui.notify('error', error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }
  return submit(ctx, answers, true);
}

/** The gateway when a URL and a key are set; otherwise says what is missing (or throws, when not interactive). */
async function ensureAccess(ctx: VideoCommandContext, interactive: boolean, profile?: string): Promise<{ origin: string; profile?: string } | undefined> {
  const access = await ctx.connection.access(profile);
  if (access.ok) return access;
  if (!interactive) throw new Error(accessAdvice(access).message);
  ctx.ui.advise(accessAdvice(access));
  return undefined;
}

async function submit(ctx: VideoCommandContext, answers: VideoAnswers, interactive: boolean, profile?: string, defaults = ctx.settings(), asked = { duration: true, resolution: true }): Promise<VideoJobRecord | undefined> {
  const access = await ensureAccess(ctx, interactive, profile);
  if (!access) return undefined;
  // No model is built in: without one named, the first video model the profile's gateway lists.
  if (answers.model.trim() === '') answers = { ...answers, model: (await ctx.service.listedModel(profile).catch(() => undefined)) ?? '' };
  const origin = access.origin;
  let request;
  try {
    // The walk-through offered only allowed values; a script's are checked here, before anything is sent.
    const allowed = await ctx.service.allowedParameters?.(answers.model, profile);
    request = buildVideoRequest(allowedAnswers(answers, allowed, asked), defaults);
  } catch (error) {
    if (error instanceof VideoRequestError && interactive) {
      void ctx.ui.notify('error', error.message);
      return undefined;
    }
    if (error instanceof VideoRequestError) throw error;
    // Refused before sending (a value the gateway does not allow): a script gets the words the user is shown.
    const advice = adviceFor(error, { origin, model: answers.model });
    ctx.ui.advise(advice);
    if (interactive) return undefined;
    throw new AdvisedError(advice, { cause: error });
  }
  const store = ctx.service.store;
  let record: VideoJobRecord;
  try {
    record = await ctx.ui.withProgress(`Submitting the video job to ${new URL(origin).host}…`, () => store.submit(origin, request, access.profile));
  } catch (error) {
    ctx.ui.advise(adviceFor(error, { origin, model: request.model }));
    if (!interactive) throw error;
    return undefined;
  }
  if (interactive) void ctx.view.reveal(record.key);
  if (record.localState === 'uncertain') void warnUncertain(ctx, record);
  return record;
}

async function askAnswers(ctx: VideoCommandContext): Promise<(VideoAnswers & { framePath?: string }) | undefined> {
  const { ui } = ctx;
  const settings = ctx.settings();
  const title = (step: number) => `Generate Video (${step}/6)`;
  const prompt = await ui.askPrompt(title(1), validatePrompt);
  if (prompt === undefined) return undefined;
  const model = await askModel(ctx, title(2), settings.model);
  if (model === undefined) return undefined;
  const allowed = await ui.withProgress('Reading what the gateway allows for this model…', () => ctx.service.allowedParameters?.(model) ?? Promise.resolve(undefined));
  const resolution = allowed?.resolutions ? await ui.pick(allowed.resolutions, { title: title(3), placeHolder: `Resolution (the ones ${model} allows)` }) : await askResolution(ctx, title(3), settings.resolutions);
  if (resolution === undefined) return undefined;
  const aspectRatio = allowed?.aspectRatios ? await ui.pick(allowed.aspectRatios, { title: title(3), placeHolder: `Aspect ratio (the ones ${model} allows)` }) : undefined;
  if (allowed?.aspectRatios && aspectRatio === undefined) return undefined;
  const duration = await askDuration(ctx, title(4), settings.duration, allowed);
  if (duration === undefined) return undefined;
  const videoUrl = await ui.input({
    title: title(5),
    prompt: `Source video URL for the edit model (optional; sent as ${settings.sourceVideoField}). Leave empty to generate from the prompt alone.`,
    placeHolder: 'https://example.com/source.mp4',
    validate: validateSourceVideoUrl,
  });
  if (videoUrl === undefined) return undefined;
  const frame = await askFirstFrame(ctx, title(6));
  if (frame === undefined) return undefined;
  return { prompt, model, resolution, duration, ...(aspectRatio && { aspectRatio }), ...(videoUrl.trim() && { videoUrl: videoUrl.trim() }), ...(frame !== SKIP && { framePath: frame }) };
}

/** The durations the gateway allows as picks (the default first when it is one); a typed duration where it lists none. */
async function askDuration(ctx: VideoCommandContext, title: string, defaultSeconds: number, allowed: AllowedParameters | undefined): Promise<number | undefined> {
  if (allowed?.durations) {
    const items = allowed.durations.map((d) => `${d} s`);
    const first = allowed.durations.includes(defaultSeconds) ? [`${defaultSeconds} s`, ...items.filter((i) => i !== `${defaultSeconds} s`)] : items;
    const picked = await ctx.ui.pick(first, { title, placeHolder: 'Duration (the ones the gateway allows for this model)' });
    return picked === undefined ? undefined : allowed.durations[items.indexOf(picked)];
  }
  const durationProblem = (text: string) => {
    const parsed = parseDuration(text);
    return 'error' in parsed ? parsed.error : undefined;
  };
  const durationText = await ctx.ui.input({ title, prompt: 'Duration in seconds', value: String(defaultSeconds), validate: durationProblem });
  const duration = durationText === undefined ? undefined : parseDuration(durationText);
  return !duration || 'error' in duration ? undefined : duration.value;
}

async function askModel(ctx: VideoCommandContext, title: string, defaultModel: string): Promise<string | undefined> {
  const choice = await ctx.ui.pickModel(title, defaultModel, loadModelChoices(ctx, defaultModel));
  if (choice !== 'other') return choice;
  const typed = await ctx.ui.input({ title, prompt: 'Video model id', value: defaultModel, validate: (v) => (v.trim() ? undefined : 'Enter a model id.') });
  return typed?.trim() || undefined;
}

/** The gateway's video models (the shared, cached list), or the default alone with the reason. Never rejects. */
async function loadModelChoices(ctx: VideoCommandContext, defaultModel: string): Promise<ModelChoices> {
  try {
    const models = (await ctx.models.load())?.models ?? [];
    const { ids, recognised, marks } = modelChoices(models, defaultModel, ctx.now());
    return { ids, placeholder: recognised ? 'Choose the video model' : 'No listed model is marked as a video model; choose one', ...(Object.keys(marks).length > 0 && { marks }) };
  } catch (error) {
    return { ids: [defaultModel], placeholder: `Could not list the models (${adviceFor(error).message}); the default is offered` };
  }
}

async function askResolution(ctx: VideoCommandContext, title: string, resolutions: string[]): Promise<string | undefined> {
  const other = '$(edit) Other…';
  const picked = await ctx.ui.pick([...resolutions, other], { title, placeHolder: 'Resolution' });
  if (picked !== other) return picked;
  const typed = await ctx.ui.input({ title, prompt: 'Resolution, as the gateway expects it', placeHolder: '1280x720', validate: (v) => (v.trim() ? undefined : 'Enter a resolution.') });
  return typed?.trim() || undefined;
}

const SKIP = 'skip';
const BROWSE = 'browse';
const IMAGE_GLOB = '**/*.{png,jpg,jpeg,webp,gif,PNG,JPG,JPEG,WEBP,GIF}';

/** The first frame (image to video): a workspace image, one picked from disk, or none (SKIP); undefined when dismissed. */
async function askFirstFrame(ctx: VideoCommandContext, title: string): Promise<string | undefined> {
  // The workspace's images load while the picker is open: no gap between the steps (see UserInterface.pickItem).
  const items = vscode.workspace
    .findFiles(IMAGE_GLOB, '**/node_modules/**', 200)
    .then(
      (uris) => uris.filter((uri) => uri.scheme === 'file').map((uri) => ({ id: uri.fsPath, label: vscode.workspace.asRelativePath(uri) })),
      () => [],
    )
    .then((found) => [
      { id: SKIP, label: 'No first frame', description: 'generate from the prompt alone' },
      ...found,
      { id: BROWSE, label: '$(folder-opened) Choose an image file…', alwaysShow: true },
    ]);
  const picked = await ctx.ui.pickItem(items, { title, placeHolder: 'First frame: the video starts from this image (optional)' });
  if (picked !== BROWSE) return picked;
  const file = await ctx.ui.openDialog({ title, openLabel: 'Use as First Frame', filters: { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] } });
  return file?.fsPath;
}
