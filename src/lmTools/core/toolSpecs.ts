// The gateway's language model tools as VS Code's chat and agents see them: names, what each is for, and the input
// schema. package.json's `contributes.languageModelTools` declares the same (a unit test compares both), because VS
// Code reads the manifest before the extension runs; this is the copy the extension checks input against. Pure.
import { TOOL_NAMES } from './participantIds';

/** A JSON schema of the small kind these tools use: an object of strings (a length range, or one of a few values). */
export interface StringSchema {
  type: 'string';
  description: string;
  minLength?: number;
  maxLength: number;
  enum?: readonly string[];
}

export interface ObjectSchema {
  type: 'object';
  properties: Record<string, StringSchema>;
  required: readonly string[];
  additionalProperties: false;
}

export type ToolKind = 'image' | 'video' | 'speech' | 'transcription';

export interface ToolSpec {
  readonly name: string;
  /** Sends a request the gateway may charge for: VS Code asks the user first (prepareInvocation). */
  readonly paid?: ToolKind;
  readonly displayName: string;
  readonly modelDescription: string;
  readonly inputSchema: ObjectSchema;
}

const MODEL: StringSchema = { type: 'string', description: "A model id from gateway_list_models; leave it out for the user's default.", minLength: 1, maxLength: 200 };
/** Long enough for a detailed prompt or a paragraph to read; short enough that one call cannot carry a document. */
const PROMPT_MAX = 4000;

export { TOOL_NAMES };

export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: TOOL_NAMES.generateImage,
    paid: 'image',
    displayName: 'Generate Image (Model Gateway)',
    modelDescription:
      "Generates one image from a text prompt with the user's model gateway and saves it as a file. Returns the image and the saved file's path. Use it when the user asks for a picture, an icon, an illustration or a diagram-like image, for example for a README.",
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'What the image shows, in detail.', minLength: 1, maxLength: PROMPT_MAX }, model: MODEL },
      required: ['prompt'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.editImage,
    paid: 'image',
    displayName: 'Edit Image (Model Gateway)',
    modelDescription:
      "Edits an image file with the user's model gateway, following a text prompt, and saves the result as a new file (the original is never changed). Returns the new image and its path. Use it when the user asks to change, retouch or restyle an existing image.",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The image file to edit (PNG, JPEG, WebP or GIF), as an absolute path or relative to the workspace folder.', minLength: 1, maxLength: 4096 },
        prompt: { type: 'string', description: 'What to change, in detail.', minLength: 1, maxLength: PROMPT_MAX },
        model: MODEL,
      },
      required: ['path', 'prompt'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.submitVideo,
    paid: 'video',
    displayName: 'Submit Video Job (Model Gateway)',
    modelDescription:
      "Submits a video generation job to the user's model gateway and returns its job id at once; the video takes minutes. The job shows in the Video Jobs view. Call gateway_get_video_job with the id to read its status and, once complete, its result.",
    inputSchema: {
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'What the video shows, in detail.', minLength: 1, maxLength: PROMPT_MAX },
        model: MODEL,
        image: { type: 'string', description: 'The video\'s first frame (image to video): an image file (PNG, JPEG, WebP or GIF, up to 5 MB), as an absolute path or relative to the workspace folder. Leave it out to start from the prompt alone.', minLength: 1, maxLength: 4096 },
        duration: { type: 'string', description: "Seconds, for example \"8\"; leave it out for the user's default. Where the gateway lists the durations a model allows, another value is refused unsent and the allowed ones are named.", minLength: 1, maxLength: 8 },
        resolution: { type: 'string', description: "For example 720p or 1280x720; leave it out for the user's default. Where the gateway lists the resolutions a model allows, another value is refused unsent and the allowed ones are named.", minLength: 1, maxLength: 24 },
        aspectRatio: { type: 'string', description: "For example 16:9; leave it out to send none. Where the gateway lists the aspect ratios a model allows, another value is refused unsent and the allowed ones are named.", minLength: 1, maxLength: 24 },
      },
      required: ['prompt'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.getVideoJob,
    displayName: 'Get Video Job (Model Gateway)',
    modelDescription: 'Reads a video job submitted with gateway_submit_video: its status, its result link once complete, and the kept local file when there is one.',
    inputSchema: {
      type: 'object',
      properties: { jobId: { type: 'string', description: 'The job id gateway_submit_video returned.', minLength: 1, maxLength: 200 } },
      required: ['jobId'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.synthesizeSpeech,
    paid: 'speech',
    displayName: 'Synthesize Speech (Model Gateway)',
    modelDescription: "Reads a text aloud with the user's model gateway's speech model and saves the audio as a file. Returns the saved file's path. Use it to narrate a paragraph or make a voice-over.",
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to speak.', minLength: 1, maxLength: PROMPT_MAX }, model: MODEL },
      required: ['text'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.transcribe,
    paid: 'transcription',
    displayName: 'Transcribe Audio (Model Gateway)',
    modelDescription:
      "Transcribes an audio or video file (flac, mp3, mp4, m4a, ogg, wav, webm; at most 25 MB) with the user's model gateway and returns the transcript as text. Use it when the user asks what a recording says, or for subtitles (format srt or vtt keep the timings).",
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The audio file: an absolute path, or a path relative to the first workspace folder.', minLength: 1, maxLength: 1000 },
        model: MODEL,
        format: { type: 'string', description: 'text (the default), or srt or vtt for subtitles with timings.', maxLength: 4, enum: ['text', 'srt', 'vtt'] },
        language: { type: 'string', description: 'The spoken language as an ISO-639 code such as en or de, when known.', minLength: 2, maxLength: 12 },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.listModels,
    displayName: 'List Models (Model Gateway)',
    modelDescription: "Lists the model ids the user's model gateway offers, grouped by kind (chat, image, video, speech, other). Use it to pick a model for the other gateway tools.",
    inputSchema: {
      type: 'object',
      properties: { kind: { type: 'string', description: 'Only this kind of model.', maxLength: 10, enum: ['chat', 'image', 'video', 'speech', 'other'] } },
      required: [],
      additionalProperties: false,
    },
  },
  {
    name: TOOL_NAMES.usageSummary,
    displayName: 'Usage Summary (Model Gateway)',
    modelDescription:
      "Reads this month's spend on the user's model gateway from the extension's usage ledger, by model: cost, requests and tokens, with requests of unknown cost said as unknown. Sends nothing to the gateway. Use it when the user asks what their gateway use has cost.",
    inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
  },
];

export function toolSpec(name: string): ToolSpec | undefined {
  return TOOL_SPECS.find((spec) => spec.name === name);
}

export type CheckedInput = { ok: true; value: Record<string, string> } | { ok: false; problem: string };

/** Checks a tool's input against its schema; the problem is worded for the model that made the call, so it can fix it. */
export function checkInput(spec: ToolSpec, input: unknown): CheckedInput {
  const schema = spec.inputSchema;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const first = schema.required[0] ?? Object.keys(schema.properties)[0];
    return { ok: false, problem: `${spec.name} takes an object such as ${first === undefined ? '{}' : `{"${first}": "…"}`}.` };
  }
  const value: Record<string, string> = {};
  for (const [name, given] of Object.entries(input)) {
    const property = schema.properties[name];
    if (!property) return { ok: false, problem: `${spec.name} has no input "${clipName(name)}"; it takes ${Object.keys(schema.properties).join(', ') || 'none'}.` };
    if (given === undefined || given === null) continue;
    if (typeof given !== 'string') return { ok: false, problem: `"${name}" must be a string.` };
    const text = given.trim();
    if (text.length < (property.minLength ?? 0) || (property.minLength && text === '')) return { ok: false, problem: `"${name}" must not be empty.` };
    if (given.length > property.maxLength) return { ok: false, problem: `"${name}" is ${given.length} characters; at most ${property.maxLength}.` };
    if (property.enum && !property.enum.includes(text)) return { ok: false, problem: `"${name}" must be one of ${property.enum.join(', ')}.` };
    if (text !== '') value[name] = name === 'prompt' || name === 'text' ? given : text;
  }
  const missing = schema.required.filter((name) => value[name] === undefined);
  if (missing.length > 0) return { ok: false, problem: `${spec.name} needs "${missing[0]}".` };
  return { ok: true, value };
}

function clipName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 39)}…` : name;
}
