// What each gateway tool does, on the same services the chat panel's /image, /video and /speak use (so an image lands
// in the Media history and a video job is the Video Jobs store's own job, polled by its one poller). Every failure,
// bad input included, comes back as an outcome with `ok: false` and a sentence for the model: a tool never throws.
// Nothing here reads or returns the key: the ports reach the gateway through the one connection. Pure.
import type { KeptFile, KeptMedia, MediaApi } from '../../media/core/api';
import type { VideoApi, VideoJob } from '../../videos/core/api';
import type { ModelKind } from '../../models/core/api';
import { escapeMarkdown } from '../../util/html';
import { adviceFor, allowedText, parameterRefusal } from '../../ui/core/errorAdvice';
import { safeExternalUrl } from '../../util/externalUrl';
import { checkInput, TOOL_NAMES, toolSpec, type ToolKind, type ToolSpec } from './toolSpecs';
import { monthUsage, usageText, type MonthUsage, type UsageSource } from './usageSummary';

export interface ToolPorts {
  media(): MediaApi;
  videos(): VideoApi;
  /** The gateway's models (the shared catalog: cached, loaded when needed). */
  models(): Promise<ReadonlyArray<{ id: string; kind: ModelKind }>>;
  /** The model a request of this kind uses when none is named (the setting, else the first listed), if known without a request. */
  defaultModel(kind: ToolKind): string | undefined;
  /** What one request of this kind with this model (speaking `text`) is expected to cost, in words, when prices are known. */
  estimatedCost?(kind: ToolKind, model: string | undefined, text: string): Promise<string | undefined> | string | undefined;
  /** Where a path the model named leads: relative paths from the first workspace folder. */
  resolvePath?(path: string): string;
  /** The usage ledger (read only). */
  usage?: UsageSource;
}

export interface ToolOutcome {
  ok: boolean;
  /** For the model (and shown to the user): what happened, in a few sentences. */
  text: string;
  /** An image to hand back as data (the saved file). */
  image?: KeptFile;
  /** The saved file. */
  file?: KeptFile;
  media?: KeptMedia;
  job?: VideoJob;
  models?: Record<string, string[]>;
  usage?: MonthUsage;
}

const failed = (text: string): ToolOutcome => ({ ok: false, text });

/** Characters of the gateway's own words a tool result carries. */
const MAX_GATEWAY_TEXT = 1000;
/** Characters of a transcript a tool result carries: about an hour of speech. */
const MAX_TRANSCRIPT_TEXT = 60_000;

/**
 * Text the gateway wrote (an error message, a job's status), for the agent's model: marked as the gateway's and
 * quoted as one JSON string, so it can neither end its quote nor pass for the extension's words or instructions.
 */
export function gatewayOutput(text: string, max = MAX_GATEWAY_TEXT): string {
  const clipped = text.length > max ? `${text.slice(0, max)}…` : text;
  return `[gateway output, untrusted text: ${JSON.stringify(clipped)}]`;
}

function messageOf(error: unknown): string {
  if (signalAborted(error)) return 'Cancelled.';
  return error instanceof Error ? error.message : String(error);
}

function signalAborted(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || (error as { code?: string }).code === 'aborted');
}

/** The confirmation VS Code shows before a paid tool runs, and the line it shows while it runs. */
export async function invocationText(name: string, input: unknown, ports: Pick<ToolPorts, 'defaultModel' | 'estimatedCost' | 'resolvePath'> & Partial<Pick<ToolPorts, 'videos'>>): Promise<{ running: string; confirm?: { title: string; message: string } }> {
  const spec = toolSpec(name);
  const checked = spec && checkInput(spec, input);
  if (!spec?.paid || !checked?.ok) return { running: spec ? `${spec.displayName.replace(/ \(Model Gateway\)$/, '')}…` : 'Model Gateway…' };
  const kind = spec.paid;
  const asked = checked.value.model;
  const model = asked ?? ports.defaultModel(kind);
  const modelText = model ?? `the gateway's first ${kind} model`;
  const what = kind === 'speech' ? checked.value.text : kind === 'transcription' ? (ports.resolvePath?.(checked.value.path) ?? checked.value.path) : checked.value.prompt;
  // A transcription is priced by the audio's length, which only the gateway measures.
  const estimate = kind === 'transcription' ? undefined : await Promise.resolve(ports.estimatedCost?.(kind, model, what)).catch(() => undefined);
  const cost = estimate ?? (kind === 'transcription' ? 'unknown until the gateway reports it (priced by the length of the audio)' : 'unknown (no price is known for this model; check the gateway\'s dashboard)');
  // The prompt and model come from the model (untrusted) into Markdown the user consents by: shown as plain text on
  // one line, so they cannot pass for another line of the question (a second "Estimated cost"), a link or a heading.
  const plain = (text: string) => escapeMarkdown(text.replace(/\s+/g, ' ').trim());
  const shown = plain(what.length > 300 ? `${what.slice(0, 299)}…` : what);
  const allowed = kind === 'video' && model ? await videoAllowedLine(ports, model, checked.value) : '';
  // The first frame's file is named: the user agrees to it being sent (one outside the workspace is asked about again).
  const frame = kind === 'video' && checked.value.image !== undefined ? `\n\nFirst frame: ${plain(checked.value.image.slice(0, 300))}` : '';
  const titles: Record<ToolKind, string> = { image: 'Generate an image with the gateway?', video: 'Submit a video job to the gateway?', speech: 'Synthesize speech with the gateway?', transcription: 'Send an audio file to the gateway to transcribe?' };
  const running: Record<ToolKind, string> = { image: `Generating an image with ${modelText}…`, video: `Submitting a video job to ${modelText}…`, speech: `Synthesizing speech with ${modelText}…`, transcription: `Transcribing with ${modelText}…` };
  const label: Record<ToolKind, string> = { image: 'Prompt', video: 'Prompt', speech: 'Text', transcription: 'File' };
  return { running: running[kind], confirm: { title: titles[kind], message: `Model: ${plain(modelText)}\n\nEstimated cost: ${cost}${allowed}\n\n${label[kind]}: ${shown}${frame}` } };
}

/** The parameters a video tool call asks, and what the gateway allows for the model (where it lists it), as lines of the confirmation. */
async function videoAllowedLine(ports: Partial<Pick<ToolPorts, 'videos'>>, model: string, input: Record<string, string>): Promise<string> {
  const allowed = await Promise.resolve(ports.videos?.().allowedParameters?.(model)).catch(() => undefined);
  const asked = [input.duration && `duration ${input.duration} s`, input.resolution && `resolution ${input.resolution}`, input.aspectRatio && `aspect ratio ${input.aspectRatio}`].filter(Boolean).join(', ');
  const said = allowed && allowedText(allowed);
  return `${asked ? `\n\nAsked: ${escapeMarkdown(asked)}` : ''}${said ? `\n\nThe gateway allows ${escapeMarkdown(model)}: ${escapeMarkdown(said)}` : ''}`;
}

/** A tool's duration (a string in the schema, as OpenAI's `seconds`): seconds, or a problem for the model. */
function toolDuration(text: string | undefined): { value?: number } | { problem: string } {
  if (text === undefined) return {};
  const trimmed = text.trim().replace(/s$/, '');
  // Digits with at most one point: one pass, no backtracking.
  const value = /^\d{1,4}(\.\d{1,3})?$/.test(trimmed) ? Number(trimmed) : NaN;
  return Number.isFinite(value) && value > 0 ? { value } : { problem: `"duration" must be a number of seconds such as "8", not "${text.slice(0, 20)}".` };
}

/** Runs a gateway tool; never throws. */
export async function runTool(name: string, input: unknown, ports: ToolPorts, signal: AbortSignal): Promise<ToolOutcome> {
  const spec = toolSpec(name);
  if (!spec) return failed(`There is no gateway tool named ${name}.`);
  const checked = checkInput(spec, input);
  if (!checked.ok) return failed(`Invalid input: ${checked.problem}`);
  try {
    return await run(spec, checked.value, ports, signal);
  } catch (error) {
    // Every tool but the usage summary (the local ledger) fails with what the gateway answered.
    const message = messageOf(error);
    const said = spec.name === TOOL_NAMES.usageSummary || signalAborted(error) ? message : gatewayOutput(message);
    return failed(`${spec.displayName.replace(/ \(Model Gateway\)$/, '')} failed: ${said}`);
  }
}

async function run(spec: ToolSpec, input: Record<string, string>, ports: ToolPorts, signal: AbortSignal): Promise<ToolOutcome> {
  switch (spec.name) {
    case TOOL_NAMES.generateImage: {
      const media = ports.media();
      const made = await media.generateImage({ prompt: input.prompt, model: input.model }, { signal, surface: 'tool' });
      const file = media.keptFile(made.entryId, made.fileName);
      if (!file) return failed('The image was generated but its file is gone (the Media history removed it).');
      return { ok: true, text: `Generated an image with ${made.model}. Saved file: ${file.path} (${file.contentType}). It is also in the Media view.`, image: file, file, media: made };
    }
    case TOOL_NAMES.editImage: {
      const media = ports.media();
      const made = await media.editImage({ path: input.path, prompt: input.prompt, model: input.model }, { signal, surface: 'tool' });
      const file = media.keptFile(made.entryId, made.fileName);
      if (!file) return failed('The image was edited but its file is gone (the Media history removed it).');
      const saved = made.written ? `Saved as a new file: ${made.written} (the original is unchanged).` : `Kept file: ${file.path} (the original is outside the workspace, so nothing was written beside it).`;
      return { ok: true, text: `Edited the image with ${made.model}. ${saved} It is also in the Media view.`, image: file, file, media: made };
    }
    case TOOL_NAMES.synthesizeSpeech: {
      const media = ports.media();
      const made = await media.synthesizeSpeech({ text: input.text, model: input.model }, { signal, surface: 'tool' });
      const file = media.keptFile(made.entryId, made.fileName);
      if (!file) return failed('The speech was synthesized but its file is gone (the Media history removed it).');
      return { ok: true, text: `Synthesized speech with ${made.model}. Saved file: ${file.path} (${file.contentType}). It is also in the Media view.`, file, media: made };
    }
    case TOOL_NAMES.transcribe: {
      const path = ports.resolvePath?.(input.path) ?? input.path;
      const format = input.format as 'text' | 'srt' | 'vtt' | undefined;
      const made = await ports.media().transcribe({ path, model: input.model, format, language: input.language }, { signal, surface: 'tool' });
      const timing = format && format !== 'text' && !made.timed ? ` The gateway sent plain text without timings instead of ${format.toUpperCase()}.` : '';
      const clipped = made.clipped ? ' The transcript was longer than the extension keeps; it was cut.' : '';
      return { ok: true, text: `Transcript of ${path} by ${made.model}.${timing}${clipped}\n${gatewayOutput(made.text, MAX_TRANSCRIPT_TEXT)}` };
    }
    case TOOL_NAMES.submitVideo: {
      const duration = toolDuration(input.duration);
      if ('problem' in duration) return failed(`Invalid input: ${duration.problem}`);
      const ask = { prompt: input.prompt, model: input.model, ...(input.image !== undefined && { firstFrame: { path: input.image } }), ...(duration.value !== undefined && { duration: duration.value }), ...(input.resolution && { resolution: input.resolution }), ...(input.aspectRatio && { aspectRatio: input.aspectRatio }) };
      let job: VideoJob;
      try {
        job = await ports.videos().submit(ask, { surface: 'tool' });
      } catch (error) {
        // Refused before sending: the extension's own words, naming what the gateway allows, so the model can retry.
        const refusal = parameterRefusal(error) ?? parameterRefusal((error as { cause?: unknown } | undefined)?.cause);
        if (refusal) return failed(adviceFor(error).message);
        throw error;
      }
      if (job.state === 'failed') return { ok: false, text: `The video job was not accepted: ${gatewayOutput(job.detail)}`, job };
      return { ok: true, text: `Submitted video job ${job.key} to ${job.model} (status: ${gatewayOutput(job.detail)}). It shows in the Video Jobs view; call ${TOOL_NAMES.getVideoJob} with jobId "${job.key}" to follow it.`, job };
    }
    case TOOL_NAMES.getVideoJob: {
      const job = ports.videos().job(input.jobId);
      if (!job) return failed(`There is no video job ${input.jobId} (it may have been removed from Video Jobs).`);
      return { ok: job.state !== 'failed', text: describeJob(job), job, ...(job.keptFile && { file: { path: job.keptFile, contentType: job.keptContentType ?? 'video/mp4' } }) };
    }
    case TOOL_NAMES.listModels: {
      const models = await ports.models();
      const grouped: Record<string, string[]> = {};
      for (const model of models) if (!input.kind || model.kind === input.kind) (grouped[model.kind] ??= []).push(model.id);
      const lines = Object.entries(grouped).map(([kind, ids]) => `${kind}: ${ids.join(', ')}`);
      return { ok: true, text: lines.length ? `The gateway's models by kind:\n${lines.join('\n')}` : `The gateway lists no ${input.kind ?? ''} models.`.replace('  ', ' '), models: grouped };
    }
    case TOOL_NAMES.usageSummary: {
      if (!ports.usage) return failed('This window keeps no usage ledger.');
      const usage = await monthUsage(ports.usage);
      return { ok: true, text: usageText(usage), usage };
    }
    default:
      return failed(`There is no gateway tool named ${spec.name}.`);
  }
}

export function describeJob(job: VideoJob): string {
  const parts = [`Video job ${job.key} (${job.model}): ${job.state === 'pending' ? `still running (status: ${gatewayOutput(job.detail)})` : job.state === 'complete' ? 'complete' : `failed: ${gatewayOutput(job.detail)}`}.`];
  // The gateway's link, only when it passes the one rule for links the extension hands on.
  const link = job.url === undefined ? undefined : safeExternalUrl(job.url);
  if (link) parts.push(`Result link: ${link}`);
  else if (job.url) parts.push('The gateway\'s result link is not an http(s) link without credentials; it is left out.');
  if (job.keptFile) parts.push(`Kept file: ${job.keptFile}`);
  else if (job.state === 'complete') parts.push('No local copy yet: the window that polls the job keeps one before the link expires.');
  return parts.join('\n');
}
