// Reads and checks the extension's settings. Everything that decides where the key goes, what is sent or what
// costs money (gateway, headers, models, system prompt, sampling, video parameters) is read at user level only:
// a cloned repository's .vscode/settings.json must never redirect the key, steer a chat or order paid work.
// Only what changes the editor's own behaviour (offered resolutions, poll intervals) follows the workspace.

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
}

export interface ChatDefaults {
  model: string | undefined;
  systemPrompt: string;
  temperature: number | undefined;
  topP: number | undefined;
  maxTokens: number | undefined;
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
}

export interface Settings {
  gateway: GatewaySettings;
  chat: ChatDefaults;
  video: VideoDefaults;
  /** Settings that were ignored, each said plainly so the user can fix it. */
  problems: string[];
}

export const SECTION = 'modelGateway';
const RESERVED_HEADERS = new Set(['authorization', 'host', 'content-length', 'cookie', 'proxy-authorization', 'transfer-encoding', 'connection']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Normalises a base URL; only http and https are accepted. */
export function parseBaseUrl(raw: unknown): { baseUrl: string; origin: string } | { problem: string } | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { problem: `modelGateway.baseUrl "${raw}" is not a URL; use for example https://gateway.example.com/v1.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `modelGateway.baseUrl must use http or https, not ${url.protocol}` };
  if (url.username || url.password) return { problem: 'modelGateway.baseUrl must not contain a user name or password; store the key with "Model Gateway: Set API Key".' };
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

function readHeaders(raw: unknown, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (raw === undefined || raw === null) return headers;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('modelGateway.requestHeaders must be an object of header names to values.');
    return headers;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!HEADER_NAME.test(name)) problems.push(`Header name "${name}" in modelGateway.requestHeaders is not valid; ignored.`);
    else if (RESERVED_HEADERS.has(name.toLowerCase())) problems.push(`Header "${name}" is reserved and cannot be set in modelGateway.requestHeaders; ignored.`);
    else if (typeof value !== 'string' || /[\r\n]/.test(value)) problems.push(`Header "${name}" in modelGateway.requestHeaders needs a single-line string value; ignored.`);
    else headers[name] = value;
  }
  return headers;
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
    },
    chat: {
      model: typeof model === 'string' && model.trim() ? model.trim() : undefined,
      systemPrompt: String(user('chat.systemPrompt') ?? ''),
      temperature,
      topP,
      maxTokens: maxTokens === undefined ? undefined : Math.floor(maxTokens),
    },
    video: {
      model: String(user('video.model') || 'model-1.0-video-edit'),
      resolutions: Array.isArray(resolutions) && resolutions.every((r) => typeof r === 'string') && resolutions.length > 0 ? resolutions : ['1280x720', '1920x1080', '720x1280'],
      duration: numberIn(user('video.defaultDuration'), 1, 600, 'modelGateway.video.defaultDuration', problems) ?? 5,
      sourceVideoField: String(user('video.sourceVideoField') || 'input.video_url'),
      extraParameters: extra && typeof extra === 'object' && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {},
      pollMinMs: pollMin * 1000,
      pollMaxMs: pollMax * 1000,
      maxDownloadBytes: (numberIn(user('video.maxDownloadMB'), 1, 1024 * 1024, 'modelGateway.video.maxDownloadMB', problems) ?? 2048) * 1024 * 1024,
    },
    problems,
  };
}
