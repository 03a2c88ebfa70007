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
}

/** One generated image as the client hands it on: a checked link, or decoded bytes of a known image type. */
export type GeneratedImage =
  | { kind: 'url'; url: string; revisedPrompt?: string }
  | { kind: 'data'; data: Uint8Array; contentType: ImageType; revisedPrompt?: string };

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
}

export interface SpeechAudio {
  audio: Uint8Array;
  /** What the bytes are (read from them, not from the server's Content-Type). */
  contentType: AudioType;
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
  | 'image'
  | 'video'
  | 'speech'
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
}

export interface ChatOptions extends RequestOptions {
  onDelta?: (delta: ChatDelta) => void;
}

/** What the features need from the gateway; `GatewayClient` implements it, tests may substitute a fake. */
export interface GatewayApi {
  listModels(options?: RequestOptions): Promise<Model[]>;
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult>;
  /** With `options.wire`, the request is the dialect's; `request` stays what is accounted for (the paid check). */
  submitVideo(request: VideoRequest, options?: VideoCallOptions): Promise<VideoJob>;
  getVideo(id: string, options?: VideoCallOptions): Promise<VideoJob>;
  generateImage(request: ImageRequest, options?: MediaRequestOptions): Promise<ImageGeneration>;
  synthesizeSpeech(request: SpeechRequest, options?: MediaRequestOptions): Promise<SpeechAudio>;
}
