// The figures of a finished call (gateway/callReport.ts's FinishedCall): tokens, images, video seconds, speech
// characters. Read by the usage ledger when it records the call; kept apart from callReport.ts so activation does
// not load it.
import { GatewayError, readError } from './errors';
import { costOfUsage } from './reportedCost';
import type { GatewayMethod } from './apiForwarding';
import type { CallOutcome, CallRequest, FinishedCall, GatewayCallReport } from './callReport';
import type { ChatRequest, ChatResult, ImageGeneration, ImageRequest, RequestOptions, SpeechRequest, Transcription, TranscriptionRequest, VideoJob, VideoRequest } from './types';

/** The words a dialect's job ends with (dialects/wire.ts's states, as the extension words them). */
const ENDED = new Set(['completed', 'failed', 'cancelled', 'expired']);

function modelOf(call: CallRequest): string | undefined {
  if (call.operation === 'chat') return call.model;
  if (call.operation === 'image' || call.operation === 'speech' || call.operation === 'transcription' || call.operation === 'video-submit') return call.request.model;
  return undefined;
}

/** The figures of a finished call: `value` is the answer (ok) or the error (otherwise). */
export function callReport({ origin, callId, profile, method, args, ok, value, header }: FinishedCall): GatewayCallReport {
  const { call, optionsAt } = callRequestOf(method, args);
  const surface = (args[optionsAt] as RequestOptions | undefined)?.surface;
  const outcome: CallOutcome = ok ? 'ok' : readError(value).code === 'aborted' ? 'cancelled' : 'error';
  const report: GatewayCallReport = { origin, profile, operation: call.operation, surface, model: modelOf(call), outcome, header };
  if (callId !== undefined) report.callId = callId;
  switch (call.operation) {
    case 'chat': {
      const result = outcome === 'ok' ? (value as ChatResult) : value instanceof GatewayError ? value.partial : undefined;
      report.usage = result?.usage ?? null;
      const cost = costOfUsage(report.usage);
      if (cost !== undefined) report.usageCost = cost;
      break;
    }
    case 'image': {
      const generation = outcome === 'ok' ? (value as ImageGeneration) : undefined;
      const images = generation?.images ?? [];
      if (generation?.reportedCost !== undefined) report.usageCost = generation.reportedCost;
      const bytes = images.reduce((sum, image) => sum + (image.kind === 'data' ? image.data.byteLength : 0), 0);
      report.images = { count: images.length, bytes, ...(call.request.size !== undefined && { size: call.request.size }) };
      break;
    }
    case 'speech':
      report.speechChars = call.request.input.length;
      break;
    case 'transcription': {
      // The gateway's tokens and cost, as for chat; its seconds, else the file's own length (the audio was sent either way).
      const usage = outcome === 'ok' ? (value as Transcription).usage : undefined;
      if (usage?.inputTokens !== undefined || usage?.outputTokens !== undefined) report.usage = { prompt_tokens: usage.inputTokens ?? 0, completion_tokens: usage.outputTokens ?? 0, total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) };
      if (usage?.cost !== undefined) report.usageCost = usage.cost;
      report.audioSeconds = usage?.seconds ?? call.request.seconds;
      break;
    }
    case 'video-submit': {
      const job = outcome === 'ok' ? (value as VideoJob) : undefined;
      report.video = { reported: job?.duration ?? job?.seconds, requested: call.request.parameters?.duration, ...(job?.costOnCompletion === true && { costLater: true }) };
      break;
    }
    case 'video-status': {
      // A dialect's job that ended with its own cost (dialects/wire.ts): the poll that saw it records the job's cost.
      const job = outcome === 'ok' ? (value as VideoJob) : undefined;
      if (job && typeof job.costUsd === 'number' && ENDED.has(job.status)) {
        report.usageCost = job.costUsd;
        if (typeof job.model === 'string') report.model = job.model;
        report.surface ??= 'video';
      }
      break;
    }
  }
  return report;
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
    case 'transcribeAudio':
      return { call: { operation: 'transcription', request: args[0] as TranscriptionRequest }, optionsAt: 1 };
  }
}
