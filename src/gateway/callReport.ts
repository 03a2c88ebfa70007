// What one finished call through the connection was, for whoever listens (the usage ledger, the token ratios): the operation,
// the model, who sent it, how it ended, and the figures the answer gave (types only: activation loads nothing of it). Counts only: never the prompt, the
// messages, the audio or image bytes, nor the key.
import type { GatewayMethod } from './apiForwarding';
import type { ImageRequest, RequestSurface, SpeechRequest, TranscriptionRequest, Usage, VideoRequest } from './types';

export type CallOperation = 'models' | 'chat' | 'image' | 'speech' | 'transcription' | 'video-submit' | 'video-status';

export type CallOutcome = 'ok' | 'error' | 'cancelled';

export interface GatewayCallReport {
  origin: string;
  /** The caller's name for the call (RequestOptions.callId), when it gave one. */
  callId?: string;
  /** The id of the profile whose connection sent it. */
  profile?: string;
  operation: CallOperation;
  surface: RequestSurface | undefined;
  /** The model asked for (undefined for the model list and video polls). */
  model: string | undefined;
  outcome: CallOutcome;
  /** Chat: the `usage` block of the answer, or of the partial answer a broken or cancelled stream kept. */
  usage?: Usage | null;
  /** Chat: the cost the gateway put in `usage.cost` (OpenRouter does), as sent, unchecked. */
  usageCost?: unknown;
  /** Images: how many came back, their bytes (of those sent inline) and the size asked for. */
  images?: { count: number; bytes: number; size?: string };
  /**
   * Video: the duration the job reports, else undefined; and the one asked for (both as given, unchecked). `costLater`:
   * the job's dialect reports its cost when it ends (that poll is the job's cost record), so nothing is estimated now.
   */
  video?: { reported: unknown; requested: unknown; costLater?: boolean };
  /** Speech: the length of the text spoken. */
  speechChars?: number;
  /** Transcription: the seconds of audio (the gateway's figure, else the file's own length), as given, unchecked. */
  audioSeconds?: unknown;
  /** A header of the last response that arrived (lower-case name), or undefined. */
  header(name: string): string | undefined;
}

/**
 * A call as it ended, before its figures are read (callFigures.ts reads them, off the activation path): what the
 * connection publishes once per call (GatewayConnection.onDidFinishCall).
 */
export interface FinishedCall {
  origin: string;
  /** The caller's name for the call (RequestOptions.callId), when it gave one. */
  callId?: string;
  /** The id of the profile whose connection sent it. */
  profile: string;
  method: GatewayMethod;
  /** The arguments of the call, as the caller gave them (the options carry the surface). */
  args: readonly unknown[];
  ok: boolean;
  /** The answer (ok) or the error (otherwise). */
  value: unknown;
  /** A header of the last response that arrived (lower-case name), or undefined. */
  header(name: string): string | undefined;
}

/** What a call asked for, known before it is sent. */
export type CallRequest =
  | { operation: 'models' }
  | { operation: 'chat'; model: string }
  | { operation: 'image'; request: ImageRequest }
  | { operation: 'speech'; request: SpeechRequest }
  | { operation: 'transcription'; request: TranscriptionRequest }
  | { operation: 'video-submit'; request: VideoRequest }
  | { operation: 'video-status' };
