// Wire and result types shared by every feature. Field names follow ../shared/spec/gateway-api.md exactly;
// members the spec leaves open follow the OpenAI-compatible layout.
import type { AudioType, ImageType } from './mediaTypes';
import type { PaceWait } from './pacer';
import type { PacePriority } from './paceState';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** OpenAI-compatible content parts: text, and images as (data) URLs. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface ChatMessage {
  role: Role;
  content: string | null | ContentPart[];
  name?: string;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
  tools?: ToolDefinition[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  response_format?: { type: 'json_object' | 'text' } | Record<string, unknown>;
  user?: string;
  stream_options?: { include_usage?: boolean };
  /** Not in the spec: OpenAI-compatible reasoning effort, or its Responses and Anthropic forms (reasoningEffort.ts). */
  reasoning_effort?: string;
  reasoning?: { effort: string };
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [extra: string]: unknown;
}

export interface ToolCall {
  id: string;
  type: string;
  name: string;
  arguments: string;
}

/** What one choice of a chat answer says: its text, reasoning, refusal, tool calls and why it ended. */
export interface ChatReply {
  content: string;
  reasoning: string;
  refusal: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
}

/** A whole chat answer: its first choice's reply, and what the gateway says of the answer. */
export interface ChatResult extends ChatReply {
  id: string;
  model: string;
  created: number;
  usage: Usage | null;
}

export interface ChatDelta {
  content?: string;
  reasoning?: string;
  refusal?: string;
  toolCalls?: Array<{ index: number; id?: string; type?: string; name?: string; arguments?: string }>;
}

export interface Model {
  id: string;
  object: string;
  created?: number;
  owned_by?: string;
  [extra: string]: unknown;
}

export interface VideoRequest {
  model: string;
  input: { prompt: string; [extra: string]: unknown };
  parameters?: { resolution?: string; duration?: number; [extra: string]: unknown };
}

export interface VideoJob {
  id: string;
  object?: string;
  status: string;
  data?: Array<{ url: string; [extra: string]: unknown }>;
  error?: { code?: string | number; message?: string; [extra: string]: unknown };
  created?: number;
  model?: string;
  [extra: string]: unknown;
}

/** `POST /v1/images/generations` (OpenAI-compatible; the spec leaves the payload open). */
export interface ImageRequest {
  model: string;
  prompt: string;
  n?: number;
  size?: string;
  response_format?: 'url' | 'b64_json';
  /** The image to edit: with it the request is an edit (`/images/edits`, or the image in the chat message). */
  image?: ImageInput;
  /** An edit's mask (PNG, the image's size): where it may change. Only `/images/edits` takes one. */
  mask?: ImageInput;
}

/** An image sent with a request, already read (bounded) and sniffed. */
export interface ImageInput {
  data: Uint8Array;
  contentType: ImageType;
}

/** One generated image as the client hands it on: a checked link, or decoded bytes of a known image type. */
export type GeneratedImage =
  | { kind: 'url'; url: string; revisedPrompt?: string; caption?: string }
  | { kind: 'data'; data: Uint8Array; contentType: ImageType; revisedPrompt?: string; caption?: string };

export interface ImageGeneration {
  /** Unix seconds, the gateway's when it sent a sensible one. */
  created: number;
  images: GeneratedImage[];
  /** Why entries of the answer were dropped (not a link, not an image, too large), one sentence each. */
  rejected: string[];
  /** The cost (USD) the answer's `usage` reports (OpenRouter's `usage.cost`, read by reportedCost.ts), when it does. */
  reportedCost?: number;
}

/** `POST /v1/audio/speech` (OpenAI-compatible). */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  response_format?: string;
  /** `audio` (raw bytes, the default) or `sse` (`speech.audio.delta` events); sent only when set. */
  stream_format?: 'audio' | 'sse';
}

export interface SpeechAudio {
  audio: Uint8Array;
  /** What the bytes are (read from them, not from the server's Content-Type). */
  contentType: AudioType;
}

/** `POST /audio/transcriptions`, in the dialect's shape (transcription.ts): OpenAI's multipart or OpenRouter's JSON. */
export interface TranscriptionRequest {
  model: string;
  audio: Uint8Array;
  /** The file's name: its extension tells the gateway the audio's format. */
  fileName: string;
  format: 'text' | 'srt' | 'vtt';
  language?: string;
  dialect: 'openai' | 'openrouter';
  /** Ask for `transcript.text.delta` events (plain text on the openai shape only; a model that cannot stream answers whole). */
  stream?: boolean;
  /** The audio's length when the file says it (a WAV header): the ledger's figure when the gateway reports none. Never sent. */
  seconds?: number;
}

/** What the gateway reported a transcription used, as far as it sent finite numbers (cost as sent, unchecked). */
export interface TranscriptionUsage {
  seconds?: number;
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cost?: unknown;
}

export interface Transcription {
  text: string;
  /** The text is the SRT or VTT asked for (with its timings), not plain text sent in its place. */
  timed: boolean;
  /** It arrived as a stream of deltas. */
  streamed: boolean;
  /** Cut at the longest transcript kept. */
  clipped?: boolean;
  usage?: TranscriptionUsage;
}

export interface TranscriptionOptions extends RequestOptions {
  /** Each piece of a streamed transcript as it arrives. */
  onDelta?: (text: string) => void;
}

export type GatewayErrorCode =
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'stream_interrupted'
  | 'bad_response'
  | 'too_large'
  | (string & {});

/**
 * Which part of the extension sends a request, for the usage ledger (connection.ts reports each call with it).
 * Untagged calls still count; they are recorded under the operation's own name.
 */
export type RequestSurface =
  | 'chat'
  | 'compare'
  | 'title'
  | 'summary'
  | 'chat-image'
  | 'chat-video'
  | 'chat-speech'
  | 'chat-transcription'
  | 'image'
  | 'video'
  | 'speech'
  | 'transcription'
  | 'vscode-chat'
  | 'tool'
  | 'test-connection';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Who sends this request (the usage ledger's surface). */
  surface?: RequestSurface;
  /**
   * The caller's name for this call, carried into the call's figures (FinishedCall.callId): how the caller later
   * asks the usage feature what the call cost. Never sent to the gateway.
   */
  callId?: string;
  /** Sees the headers of each response that arrives (of every attempt); `read` takes a lower-case name. */
  onResponseHeaders?: (read: (name: string) => string | undefined) => void;
  /** Extra headers for this request only (the client's own Authorization always wins). */
  headers?: Record<string, string>;
  /**
   * Retries for this call only. A caller with its own schedule (the video poller) passes 0, so a 429 reaches
   * it at once and pauses every poll to that gateway, instead of the client waiting while others go out.
   */
  maxRetries?: number;
  /** Receives a Retry-After (ms) sent with a successful answer: a gateway saying when to ask again. */
  onRetryAfter?: (ms: number) => void;
  /** Who is asking, for the gateway's rate-limit pacing (paceState.ts). Default `foreground`. */
  pace?: PacePriority;
  /** Hears when the request waits for the gateway's rate limit (to show a countdown), and undefined when it goes. */
  onPaceWait?: (wait: PaceWait | undefined) => void;
}

/**
 * A video call in a gateway dialect other than the spec's: the request as the dialect builds it (an absolute URL
 * that must lie on the client's own origin) and the reader of its JSON answer. Without one, submitVideo and
 * getVideo speak the spec's dialect.
 */
export interface VideoWire {
  /** DELETE cancels a job; otherwise a body is POSTed and its absence is a GET. */
  method?: 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** Reads the answer; throws when it is not a job of the dialect. */
  read(body: unknown): VideoJob;
}

export interface VideoCallOptions extends RequestOptions {
  wire?: VideoWire;
}

export interface MediaRequestOptions extends RequestOptions {
  /** The largest image or audio file accepted, in bytes; a larger answer fails with `too_large`. Default 25 MiB. */
  maxBytes?: number;
  /** Speech: the audio as it arrives, piece by piece, once its first bytes are known to be audio (speechCall.ts). */
  onAudio?: (chunk: Uint8Array, contentType: AudioType) => void;
}

/**
 * Which model list to ask for: the OpenAI `/models` (with OpenRouter's `?output_modalities=all`, which lists image,
 * speech and video models too), LiteLLM's `/model/info` (each model's `model_info`, entries named by `model_name`),
 * or OpenRouter's `/videos/models` (video models are listed only there).
 */
export interface ListModelsOptions extends RequestOptions {
  list?: 'models' | 'modelInfo' | 'videoModels';
  allModalities?: boolean;
}

/**
 * How an image request goes: `images` to the images endpoints (`/images/generations`, `/images/edits`), `chat` to
 * `/chat/completions` with `modalities:["image","text"]` (OpenRouter, Vercel's gateway), the images in the reply.
 */
export type ImageRoute = 'images' | 'chat';

export interface ImageCallOptions extends MediaRequestOptions {
  /** Default `images`. */
  route?: ImageRoute;
}

export interface ChatOptions extends RequestOptions {
  onDelta?: (delta: ChatDelta) => void;
}

/** What the features need from the gateway; `GatewayClient` implements it, tests may substitute a fake. */
export interface GatewayApi {
  listModels(options?: ListModelsOptions): Promise<Model[]>;
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult>;
  /** With `options.wire`, the request is the dialect's; `request` stays what is accounted for (the paid check). */
  submitVideo(request: VideoRequest, options?: VideoCallOptions): Promise<VideoJob>;
  getVideo(id: string, options?: VideoCallOptions): Promise<VideoJob>;
  /** Generates images, or edits `request.image` when it is given; `options.route` says where the request goes. */
  generateImage(request: ImageRequest, options?: ImageCallOptions): Promise<ImageGeneration>;
  synthesizeSpeech(request: SpeechRequest, options?: MediaRequestOptions): Promise<SpeechAudio>;
  transcribeAudio(request: TranscriptionRequest, options?: TranscriptionOptions): Promise<Transcription>;
}
