// Reads and checks the extension's settings. Everything that decides where the key goes, what is sent or what
// costs money (gateway, headers, models, system prompt, sampling, video parameters) is read at user level only:
// a cloned repository's .vscode/settings.json must never redirect the key, steer a chat or order paid work.
// Only what changes the editor's own behaviour (offered resolutions, poll intervals, the folder media is saved
// into, inside the workspace) follows the workspace.
import { endpointPathProblem } from '../util/endpointPath';

export interface SettingsSource {
  /** The user-level (global) value, ignoring workspace and folder values. */
  userValue<T>(key: string): T | undefined;
  /** The effective value at any level, for settings a workspace may legitimately change. */
  value<T>(key: string): T | undefined;
}

export interface GatewaySettings {
  baseUrl: string | undefined;
  origin: string | undefined;
  headers: Record<string, string>;
  timeoutMs: number;
  idleTimeoutMs: number;
  /** Paths of the image and speech endpoints below the base URL. */
  paths?: { images: string; speech: string };
}

export interface ChatDefaults {
  model: string | undefined;
  systemPrompt: string;
  temperature: number | undefined;
  topP: number | undefined;
  maxTokens: number | undefined;
}

/** Context attached to chat messages. */
export interface ChatContextSettings {
  /** Tokens, used when the gateway's model list gives the model none. */
  contextWindow: number;
  /** Largest file that can be attached as text. */
  maxAttachmentBytes: number;
}

export interface VideoDefaults {
  model: string;
  resolutions: string[];
  duration: number;
  sourceVideoField: string;
  extraParameters: Record<string, unknown>;
  pollMinMs: number;
  pollMaxMs: number;
  /** The most bytes Download to Workspace writes (user level only: a workspace may not raise it). */
  maxDownloadBytes: number;
  /** The most disk the kept copies of finished videos take (global storage); 0 keeps none. */
  keptQuotaBytes: number;
}

export const SPEECH_FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac'] as const;
export const IMAGE_RESPONSE_FORMATS = ['b64_json', 'url'] as const;

export interface MediaDefaults {
  /** Undefined: the first image model the gateway lists. */
  imageModel: string | undefined;
  imageSize: string;
  imageCount: number;
  imageResponseFormat: (typeof IMAGE_RESPONSE_FORMATS)[number];
  /** Undefined: the first speech model the gateway lists. */
  speechModel: string | undefined;
  voice: string;
  speechFormat: (typeof SPEECH_FORMATS)[number];
  /** The largest image or audio file accepted from the gateway. */
  maxBytes: number;
  /** Where Save to Workspace writes, relative to the workspace folder ('' is the folder itself); never outside it. */
  saveFolder: string;
  /** Entries the Media history keeps; older ones are removed with their files. */
  historyLimit: number;
}

/** How a chosen reasoning effort goes on the wire (gateway/reasoningEffort.ts). */
export const EFFORT_FORMATS = ['reasoning_effort', 'responses', 'anthropic'] as const;
export type ReasoningEffortFormat = (typeof EFFORT_FORMATS)[number];
/** The levels offered when the model list names none (the OpenAI set). */
export const DEFAULT_EFFORT_LEVELS: readonly string[] = ['low', 'medium', 'high'];

/** Reasoning effort, for the chat panel and VS Code's chat alike. */
export interface ReasoningSettings {
  /** How a chosen effort is sent (gateway/reasoningEffort.ts). */
  format: ReasoningEffortFormat;
  /** The levels offered for models whose list entry names none. */
  levels: string[];
}

export interface Settings {
  gateway: GatewaySettings;
  chat: ChatDefaults;
  reasoning: ReasoningSettings;
  chatContext: ChatContextSettings;
  video: VideoDefaults;
  media: MediaDefaults;
  /** Settings that were ignored, each said plainly so the user can fix it. */
  problems: string[];
}

export const SECTION = 'modelGateway';
const RESERVED_HEADERS = new Set(['authorization', 'host', 'content-length', 'cookie', 'proxy-authorization', 'transfer-encoding', 'connection']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Normalises a base URL; only http and https are accepted. */
export function parseBaseUrl(raw: unknown, label = 'modelGateway.baseUrl'): { baseUrl: string; origin: string } | { problem: string } | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: `${label} "${raw}" is not a URL; use for example https://gateway.example.com/v1.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${label} must use http or https, not ${url.protocol}` };
  if (url.username || url.password) return { problem: `${label} must not contain a user name or password; store the key with "Model Gateway: Set API Key".` };
  url.search = '';
  url.hash = '';
  return { baseUrl: url.toString().replace(/\/+$/, ''), origin: url.origin };
}

function numberIn(raw: unknown, min: number, max: number, name: string, problems: string[]): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < min || raw > max) {
    problems.push(`${name} must be a number from ${min} to ${max}; ignoring ${JSON.stringify(raw)}.`);
    return undefined;
  }
  return raw;
}

/** Extra request headers from settings or a profile: reserved names (the key, the host, cookies) are refused. */
export function readHeaders(raw: unknown, problems: string[], label = 'modelGateway.requestHeaders'): Record<string, string> {
  const headers: Record<string, string> = {};
  if (raw === undefined || raw === null) return headers;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${label} must be an object of header names to values.`);
    return headers;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) problems.push(`Header name "${name}" in ${label} is not valid; ignored.`);
    else if (RESERVED_HEADERS.has(name.toLowerCase())) problems.push(`Header "${name}" is reserved and cannot be set in ${label}: the extension sends the key itself (set it with "Model Gateway: Set API Key"); ignored.`);
    else if (typeof value !== 'string' || /[\r\n]/.test(value)) problems.push(`Header "${name}" in ${label} needs a single-line string value; ignored.`);
    else headers[name] = value;
  }
  return headers;
}

function endpointPath(raw: unknown, fallback: string, name: string, problems: string[]): string {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const problem = typeof raw === 'string' ? endpointPathProblem(raw.trim()) : 'it must be a string.';
  if (problem) {
    problems.push(`${name} "${String(raw)}" cannot be used: ${problem} Using ${fallback}.`);
    return fallback;
  }
  return (raw as string).trim();
}

function oneOf<T extends string>(raw: unknown, allowed: readonly T[], fallback: T, name: string, problems: string[]): T {
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  problems.push(`${name} must be one of ${allowed.join(', ')}; using ${fallback}.`);
  return fallback;
}

function textMatching(raw: unknown, pattern: RegExp, fallback: string, name: string, what: string, problems: string[]): string {
  if (raw === undefined || raw === null || raw === '') return fallback;
  if (typeof raw === 'string' && pattern.test(raw.trim())) return raw.trim();
  problems.push(`${name} must be ${what}; ignoring ${JSON.stringify(raw)}.`);
  return fallback;
}

/** Short words (letters, digits, - and _), each once; the OpenAI set when unset. */
function effortLevels(raw: unknown, problems: string[]): string[] {
  if (raw === undefined || raw === null) return [...DEFAULT_EFFORT_LEVELS];
  const words = Array.isArray(raw) ? raw.filter((w): w is string => typeof w === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(w)) : [];
  if (!Array.isArray(raw) || words.length !== raw.length) problems.push('modelGateway.reasoningEffortLevels must be a list of short words such as "low"; ignoring what is not.');
  return [...new Set(words)].slice(0, 16);
}

function optionalModel(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;
}

/** A folder inside the workspace, as '/'-separated segments without '.', '..' or a root; '' for the folder itself. */
export function workspaceSubfolder(raw: unknown, problems: string[]): string {
  if (raw === undefined || raw === null) return '';
  const text = typeof raw === 'string' ? raw.trim().replace(/\\/g, '/') : undefined;
  const segments = text?.split('/').filter((s) => s !== '' && s !== '.');
  if (text === undefined || /^([A-Za-z]:|\/|~)/.test(text) || !segments || segments.some((s) => s === '..' || /[\x00-\x1f<>:"|?*]/.test(s))) {
    problems.push(`modelGateway.media.saveFolder must be a folder inside the workspace, such as "media/generated"; using the workspace folder itself.`);
    return '';
  }
  return segments.join('/');
}

export function readSettings(source: SettingsSource): Settings {
  const problems: string[] = [];
  const user = <T>(key: string) => source.userValue<T>(`${SECTION}.${key}`);
  const any = <T>(key: string) => source.value<T>(`${SECTION}.${key}`);

  const parsed = parseBaseUrl(user('baseUrl'));
  if (parsed && 'problem' in parsed) problems.push(parsed.problem);
  const url = parsed && !('problem' in parsed) ? parsed : undefined;

  const temperature = numberIn(user('chat.temperature'), 0, 2, 'modelGateway.chat.temperature', problems);
  let topP = numberIn(user('chat.topP'), 0, 1, 'modelGateway.chat.topP', problems);
  if (temperature !== undefined && topP !== undefined) {
    problems.push('Set modelGateway.chat.temperature or modelGateway.chat.topP, not both (the gateway rejects both); using temperature.');
    topP = undefined;
  }
  const maxTokens = numberIn(user('chat.maxTokens'), 1, 1_000_000, 'modelGateway.chat.maxTokens', problems);
  const pollMin = numberIn(any('video.pollMinSeconds'), 1, 3600, 'modelGateway.video.pollMinSeconds', problems) ?? 2;
  let pollMax = numberIn(any('video.pollMaxSeconds'), 1, 3600, 'modelGateway.video.pollMaxSeconds', problems) ?? 30;
  if (pollMax < pollMin) {
    problems.push('modelGateway.video.pollMaxSeconds is below pollMinSeconds; using pollMinSeconds for both.');
    pollMax = pollMin;
  }
  const resolutions = any<unknown>('video.resolutions');
  const extra = user<unknown>('video.extraParameters');
  if (extra !== undefined && (typeof extra !== 'object' || extra === null || Array.isArray(extra))) problems.push('modelGateway.video.extraParameters must be a JSON object; ignored.');
  const model = user<string>('chat.model');

  return {
    gateway: {
      baseUrl: url?.baseUrl,
      origin: url?.origin,
      headers: readHeaders(user('requestHeaders'), problems),
      timeoutMs: (numberIn(user('timeoutSeconds'), 1, 3600, 'modelGateway.timeoutSeconds', problems) ?? 30) * 1000,
      idleTimeoutMs: (numberIn(user('idleTimeoutSeconds'), 1, 3600, 'modelGateway.idleTimeoutSeconds', problems) ?? 60) * 1000,
      paths: {
        images: endpointPath(user('image.path'), '/images/generations', 'modelGateway.image.path', problems),
        speech: endpointPath(user('speech.path'), '/audio/speech', 'modelGateway.speech.path', problems),
      },
    },
    chat: {
      model: typeof model === 'string' && model.trim() ? model.trim() : undefined,
      systemPrompt: String(user('chat.systemPrompt') ?? ''),
      temperature,
      topP,
      maxTokens: maxTokens === undefined ? undefined : Math.floor(maxTokens),
    },
    reasoning: {
      format: oneOf(user('reasoningEffortFormat'), EFFORT_FORMATS, 'reasoning_effort', 'modelGateway.reasoningEffortFormat', problems),
      levels: effortLevels(user('reasoningEffortLevels'), problems),
    },
    chatContext: {
      contextWindow: Math.floor(numberIn(any('chat.contextWindow'), 256, 100_000_000, 'modelGateway.chat.contextWindow', problems) ?? 128_000),
      maxAttachmentBytes: Math.floor(numberIn(any('chat.maxAttachmentKB'), 1, 100_000, 'modelGateway.chat.maxAttachmentKB', problems) ?? 256) * 1024,
    },
    video: {
      model: String(user('video.model') || ''),
      resolutions: Array.isArray(resolutions) && resolutions.every((r) => typeof r === 'string') && resolutions.length > 0 ? resolutions : ['1280x720', '1920x1080', '720x1280'],
      duration: numberIn(user('video.defaultDuration'), 1, 600, 'modelGateway.video.defaultDuration', problems) ?? 5,
      sourceVideoField: String(user('video.sourceVideoField') || 'input.video_url'),
      extraParameters: extra && typeof extra === 'object' && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {},
      pollMinMs: pollMin * 1000,
      pollMaxMs: pollMax * 1000,
      maxDownloadBytes: (numberIn(user('video.maxDownloadMB'), 1, 1024 * 1024, 'modelGateway.video.maxDownloadMB', problems) ?? 2048) * 1024 * 1024,
      keptQuotaBytes: (numberIn(user('video.keptQuotaMB'), 0, 1024 * 1024, 'modelGateway.video.keptQuotaMB', problems) ?? 2048) * 1024 * 1024,
    },
    media: {
      imageModel: optionalModel(user('image.model')),
      imageSize: textMatching(user('image.size'), /^(auto|\d{1,5}x\d{1,5})$/, '1024x1024', 'modelGateway.image.size', 'WIDTHxHEIGHT (such as 1024x1024) or auto', problems),
      imageCount: Math.floor(numberIn(user('image.count'), 1, 10, 'modelGateway.image.count', problems) ?? 1),
      imageResponseFormat: oneOf(user('image.responseFormat'), IMAGE_RESPONSE_FORMATS, 'b64_json', 'modelGateway.image.responseFormat', problems),
      speechModel: optionalModel(user('speech.model')),
      voice: textMatching(user('speech.voice'), /^[A-Za-z0-9_.:-]{1,100}$/, 'alloy', 'modelGateway.speech.voice', 'a voice name (letters, digits, _ . : -)', problems),
      speechFormat: oneOf(user('speech.format'), SPEECH_FORMATS, 'mp3', 'modelGateway.speech.format', problems),
      maxBytes: (numberIn(user('media.maxSizeMB'), 1, 2048, 'modelGateway.media.maxSizeMB', problems) ?? 25) * 1024 * 1024,
      saveFolder: workspaceSubfolder(any('media.saveFolder'), problems),
      historyLimit: Math.floor(numberIn(user('media.historyLimit'), 1, 10_000, 'modelGateway.media.historyLimit', problems) ?? 100),
    },
    problems,
  };
}
