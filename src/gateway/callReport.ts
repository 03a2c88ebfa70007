// What one finished call through the connection was, for whoever keeps accounts (the usage ledger): the operation,
// the model, who sent it, how it ended, and the figures the answer gave. Counts only: never the prompt, the
// messages, the audio or image bytes, nor the key.
import { GatewayError, readError } from './errors';
import { forwardingApi, invoke, type GatewayMethod } from './apiForwarding';
import type { ChatRequest, ChatResult, GatewayApi, ImageGeneration, ImageRequest, RequestOptions, RequestSurface, SpeechRequest, Usage, VideoJob, VideoRequest } from './types';

export type CallOperation = 'models' | 'chat' | 'image' | 'speech' | 'video-submit' | 'video-status';

export type CallOutcome = 'ok' | 'error' | 'cancelled';

export interface GatewayCallReport {
  origin: string;
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
  /** Video: the duration the job reports, else undefined; and the one asked for (both as given, unchecked). */
  video?: { reported: unknown; requested: unknown };
  /** Speech: the length of the text spoken. */
  speechChars?: number;
  /** A header of the last response that arrived (lower-case name), or undefined. */
  header(name: string): string | undefined;
}

/** What a call asked for, known before it is sent. */
export type CallRequest =
  | { operation: 'models' }
  | { operation: 'chat'; model: string }
  | { operation: 'image'; request: ImageRequest }
  | { operation: 'speech'; request: SpeechRequest }
  | { operation: 'video-submit'; request: VideoRequest }
  | { operation: 'video-status' };

/** The same API with every call tagged as sent by `surface` (for callers that hand an API to code that does not say). */
export function withSurface(api: GatewayApi, surface: RequestSurface): GatewayApi {
  return forwardingApi((method, args) => {
    const { optionsAt } = callRequestOf(method, args);
    const sent = [...args];
    sent[optionsAt] = { ...(args[optionsAt] as RequestOptions | undefined), surface };
    return invoke(api, method, sent);
  });
}

/** What a call of `method` with `args` asks for, and where its options are among the arguments. */
export function callRequestOf(method: GatewayMethod, args: readonly unknown[]): { call: CallRequest; optionsAt: number } {
  switch (method) {
    case 'listModels':
      return { call: { operation: 'models' }, optionsAt: 0 };
    case 'chat':
      return { call: { operation: 'chat', model: (args[0] as ChatRequest).model }, optionsAt: 1 };
    case 'submitVideo':
      return { call: { operation: 'video-submit', request: args[0] as VideoRequest }, optionsAt: 1 };
    case 'getVideo':
      return { call: { operation: 'video-status' }, optionsAt: 1 };
    case 'generateImage':
      return { call: { operation: 'image', request: args[0] as ImageRequest }, optionsAt: 1 };
    case 'synthesizeSpeech':
      return { call: { operation: 'speech', request: args[0] as SpeechRequest }, optionsAt: 1 };
  }
}

export function outcomeOfError(error: unknown): CallOutcome {
  return readError(error).code === 'aborted' ? 'cancelled' : 'error';
}

function modelOf(call: CallRequest): string | undefined {
  if (call.operation === 'chat') return call.model;
  if (call.operation === 'image' || call.operation === 'speech' || call.operation === 'video-submit') return call.request.model;
  return undefined;
}

/** The figures of a finished call: `value` is the answer (ok) or the error (otherwise). */
export function callReport(origin: string, call: CallRequest, surface: RequestSurface | undefined, outcome: CallOutcome, value: unknown, header: (name: string) => string | undefined): GatewayCallReport {
  const report: GatewayCallReport = { origin, operation: call.operation, surface, model: modelOf(call), outcome, header };
  switch (call.operation) {
    case 'chat': {
      const result = outcome === 'ok' ? (value as ChatResult) : value instanceof GatewayError ? value.partial : undefined;
      report.usage = result?.usage ?? null;
      if (report.usage?.cost !== undefined) report.usageCost = report.usage.cost;
      break;
    }
    case 'image': {
      const images = outcome === 'ok' ? (value as ImageGeneration).images : [];
      const bytes = images.reduce((sum, image) => sum + (image.kind === 'data' ? image.data.byteLength : 0), 0);
      report.images = { count: images.length, bytes, ...(call.request.size !== undefined && { size: call.request.size }) };
      break;
    }
    case 'speech':
      report.speechChars = call.request.input.length;
      break;
    case 'video-submit': {
      const job = outcome === 'ok' ? (value as VideoJob) : undefined;
      report.video = { reported: job?.duration ?? job?.seconds, requested: call.request.parameters?.duration };
      break;
    }
  }
  return report;
}
