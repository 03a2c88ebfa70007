// One ledger record: one request the extension sent to a gateway. Counts and money only: never prompt text, file
// contents, audio, images or a key. Built from the connection's call report (gateway/callReport.ts).
import type { GatewayCallReport } from '../../gateway/callReport';
import { isRecord } from '../../util/records';
import { amountOf, countOf, MAX_REPORTED_COST } from './numbers';
import { estimateCost, type ModelPrice } from './prices';
import type { UsageRecord, Modality } from './recordTypes';

export type { CostSource, Modality, UsageRecord } from './recordTypes';

/** Longest video a request can be believed to ask for or report, in seconds. */
const MAX_VIDEO_SECONDS = 24 * 3600;

export interface RecordContext {
  time: number;
  profile: { id: string; name: string };
  workspace: string;
  price: ModelPrice | undefined;
  /** The per-response cost header's name (lower case). */
  costHeader: string;
}

/** The modality of a call, or undefined for calls that are not billed work of their own (video polls). */
export function modalityOf(report: Pick<GatewayCallReport, 'operation' | 'usageCost'>): Modality | undefined {
  switch (report.operation) {
    case 'chat':
    case 'models':
      return 'chat';
    case 'image':
      return 'image';
    case 'speech':
      return 'speech';
    case 'transcription':
      return 'transcription';
    case 'video-submit':
      return 'video';
    case 'video-status':
      // Except the poll that saw a job end with its own cost: that is the job's cost.
      return report.usageCost === undefined ? undefined : 'video';
  }
}

/**
 * Whether a call becomes a record. Every request a feature sends for the user does; the background model-list
 * refresh and video polls do not (they are not work the user asked for, and polls would flood the ledger), but a
 * model list sent by a named surface (Test Connection) does.
 */
export function isRecorded(report: Pick<GatewayCallReport, 'operation' | 'surface' | 'usageCost'>): boolean {
  if (report.operation === 'video-status') return report.usageCost !== undefined;
  if (report.operation === 'models') return report.surface !== undefined;
  return true;
}

/** The record of a finished call, or undefined when it is not recorded. */
export function recordOf(report: GatewayCallReport, context: RecordContext): UsageRecord | undefined {
  const modality = modalityOf(report);
  if (!modality || !isRecorded(report)) return undefined;
  const record: UsageRecord = {
    time: context.time,
    profile: context.profile.name,
    profileId: context.profile.id,
    workspace: context.workspace,
    surface: report.surface ?? report.operation,
    model: report.model ?? '',
    modality,
    outcome: report.outcome,
    costSource: 'unknown',
  };
  if (report.usage) Object.assign(record, tokensOf(report.usage));
  if (report.images) {
    record.images = report.images.count;
    if (report.images.bytes > 0) record.imageBytes = report.images.bytes;
    if (report.images.size !== undefined && report.images.size.length <= 32) record.imageSize = report.images.size;
  }
  if (report.video) {
    const seconds = amountOf(report.video.reported, MAX_VIDEO_SECONDS) ?? amountOf(report.video.requested, MAX_VIDEO_SECONDS);
    if (seconds !== undefined) record.videoSeconds = seconds;
  }
  if (report.speechChars !== undefined) record.speechChars = report.speechChars;
  if (report.audioSeconds !== undefined) {
    const seconds = amountOf(report.audioSeconds, MAX_VIDEO_SECONDS);
    if (seconds !== undefined) record.audioSeconds = seconds;
  }
  if (report.operation === 'models') {
    // Listing models costs nothing anywhere: a known zero, not an unknown.
    record.cost = 0;
    record.costSource = 'estimated';
    return record;
  }
  const reported = amountOf(report.header(context.costHeader), MAX_REPORTED_COST) ?? amountOf(report.usageCost, MAX_REPORTED_COST);
  if (reported !== undefined) {
    record.cost = reported;
    record.costSource = 'reported';
    return record;
  }
  // An unfinished paid request may or may not be billed: only what the gateway reports is believed for it.
  const billedAsAsked = (report.outcome === 'ok' && !report.video?.costLater) || (modality === 'chat' && record.inputTokens !== undefined);
  const estimate = billedAsAsked ? estimateCost(context.price, { ...record, modality }) : undefined;
  if (estimate !== undefined) {
    record.cost = estimate;
    record.costSource = 'estimated';
  }
  return record;
}

/** Token counts from a `usage` block; fields that are missing or odd stay unknown. */
export function tokensOf(usage: unknown): Pick<UsageRecord, 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'reasoningTokens'> {
  if (!isRecord(usage)) return {};
  const out: Pick<UsageRecord, 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'reasoningTokens'> = {};
  const input = countOf(usage.prompt_tokens);
  const output = countOf(usage.completion_tokens);
  const cached = isRecord(usage.prompt_tokens_details) ? countOf(usage.prompt_tokens_details.cached_tokens) : undefined;
  const reasoning = isRecord(usage.completion_tokens_details) ? countOf(usage.completion_tokens_details.reasoning_tokens) : undefined;
  if (input !== undefined) out.inputTokens = input;
  if (output !== undefined) out.outputTokens = output;
  if (cached !== undefined && (input === undefined || cached <= input)) out.cachedTokens = cached;
  if (reasoning !== undefined) out.reasoningTokens = reasoning;
  return out;
}

/** The estimated cost of a paid request before it is sent (for the confirmation), or undefined when unknown. */
export function estimateBeforeSending(call: { operation: 'image'; request: { n?: number } } | { operation: 'video-submit'; request: { parameters?: { duration?: unknown } } }, price: ModelPrice | undefined): number | undefined {
  if (call.operation === 'image') {
    const n = countOf(call.request.n ?? 1, 100);
    return n === undefined ? undefined : estimateCost(price, { modality: 'image', images: n });
  }
  const seconds = amountOf(call.request.parameters?.duration, MAX_VIDEO_SECONDS);
  return seconds === undefined ? undefined : estimateCost(price, { modality: 'video', videoSeconds: seconds });
}
