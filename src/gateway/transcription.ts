// Transcription on the wire, in both shapes gateways speak (shared/spec/dialects.md): OpenAI's multipart form to
// `/audio/transcriptions` (answer JSON, plain text, SRT/VTT, or an SSE stream of `transcript.text.delta` events),
// and OpenRouter's JSON with the audio in base64 (answer `{ text, usage }`; multipart is refused there). The
// answer is hostile input: its text is capped, its usage figures read only when they are finite numbers. Pure.
import { randomBytes } from 'node:crypto';
import { isRecord, parseRecord } from '../util/records';
import { multipartBody } from './multipart';
import type { Transcription, TranscriptionRequest, TranscriptionUsage } from './types';

/** The longest transcript kept (characters); a longer one is cut, with a note. */
export const MAX_TRANSCRIPT_CHARS = 4 * 1024 * 1024;
/** The largest answer body read (bytes). */
export const TRANSCRIPT_BODY_LIMIT = 16 * 1024 * 1024;

export interface TranscriptionWireBody {
  body: Buffer | string;
  contentType: string;
  /** The `Accept` sent. */
  accept: string;
}

/** The extension of a file name (lower case, without the dot), or '' when it has none. */
export function audioFormatOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The body of the request in the dialect's shape. `boundary` is for tests; a random one otherwise. */
export function transcriptionBody(request: TranscriptionRequest, boundary = `----mg${randomBytes(12).toString('hex')}`): TranscriptionWireBody {
  if (request.dialect === 'openrouter') {
    const body: Record<string, unknown> = { model: request.model, input_audio: { data: Buffer.from(request.audio).toString('base64'), format: audioFormatOf(request.fileName) } };
    if (request.language) body.language = request.language;
    return { body: JSON.stringify(body), contentType: 'application/json', accept: 'application/json' };
  }
  const fields: Array<[string, string]> = [
    ['model', request.model],
    // Plain text is asked as JSON: some models take `json` only, and its `usage` comes with it.
    ['response_format', request.format === 'text' ? 'json' : request.format],
  ];
  if (request.language) fields.push(['language', request.language]);
  if (request.stream && request.format === 'text') fields.push(['stream', 'true']);
  const form = multipartBody([
    ...fields.map(([name, value]) => ({ name, value })),
    { name: 'file', file: { data: request.audio, contentType: 'application/octet-stream', fileName: safeFileName(request.fileName) } },
  ], boundary);
  const accept = request.stream && request.format === 'text' ? 'text/event-stream, application/json;q=0.9' : 'application/json, text/plain;q=0.9, */*;q=0.5';
  return { ...form, accept };
}

/** A file name fit for the form (multipart.ts's safe characters): no quotes, line breaks or path; the extension (which the gateway reads) kept. */
function safeFileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  let out = '';
  for (const c of base) out += /[A-Za-z0-9_.-]/.test(c) ? c : '_';
  return out.slice(-100) || 'audio';
}

/** The usage block of an answer or a `transcript.text.done` event: seconds, tokens, cost, as far as they are numbers. */
export function transcriptionUsageOf(value: unknown): TranscriptionUsage | undefined {
  if (!isRecord(value)) return undefined;
  const usage: TranscriptionUsage = {};
  const seconds = finite(value.seconds) ?? finite(value.duration);
  if (seconds !== undefined) usage.seconds = seconds;
  const input = finite(value.input_tokens) ?? finite(value.prompt_tokens);
  if (input !== undefined) usage.inputTokens = input;
  const output = finite(value.output_tokens) ?? finite(value.completion_tokens);
  if (output !== undefined) usage.outputTokens = output;
  const total = finite(value.total_tokens) ?? finite(value.tokens);
  if (total !== undefined) usage.totalTokens = total;
  if (value.cost !== undefined) usage.cost = value.cost;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Why an answer is not a transcript: its message, or the gateway's error object (a JSON error in a 200). */
export type TranscriptProblem = { problem: string } | { error: unknown };

/**
 * A whole answer: JSON `{ text, usage? }` (or `{ error }`), else the text itself (text, SRT, VTT). `timed` is true
 * when the text is the SRT/VTT the request asked for, not plain text in its place.
 */
export function transcriptOf(body: Buffer, contentType: string | undefined, request: Pick<TranscriptionRequest, 'format'>): Transcription | TranscriptProblem {
  const text = body.toString('utf8');
  const looksJson = (contentType ?? '').toLowerCase().includes('json') || text.trimStart().startsWith('{');
  if (looksJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      if ((contentType ?? '').toLowerCase().includes('json')) return { problem: 'The transcription answer is not valid JSON.' };
      return clipped(text, request.format !== 'text', undefined);
    }
    if (!isRecord(parsed)) return { problem: 'The transcription answer is not a JSON object.' };
    if (parsed.error !== undefined && parsed.error !== null) return { error: parsed.error };
    if (typeof parsed.text !== 'string') return { problem: 'The transcription answer has no text.' };
    return clipped(parsed.text, false, transcriptionUsageOf(parsed.usage) ?? durationOnly(parsed.duration));
  }
  return clipped(text, request.format !== 'text' && text.trim() !== '', undefined);
}

function durationOnly(duration: unknown): TranscriptionUsage | undefined {
  const seconds = finite(duration);
  return seconds === undefined ? undefined : { seconds };
}

function clipped(text: string, timed: boolean, usage: TranscriptionUsage | undefined): Transcription {
  const result: Transcription = { text: text.length > MAX_TRANSCRIPT_CHARS ? text.slice(0, MAX_TRANSCRIPT_CHARS) : text, timed, streamed: false };
  if (text.length > MAX_TRANSCRIPT_CHARS) result.clipped = true;
  if (usage) result.usage = usage;
  return result;
}

/**
 * The `transcript.text.delta` / `transcript.text.done` events of a streamed answer, one `data` at a time. The
 * done event's text wins over the deltas (it is the whole transcript); an `error` event ends the stream.
 */
export class TranscriptStream {
  #text = '';
  #done: Transcription | undefined;
  #error: unknown;

  constructor(private readonly onDelta?: (text: string) => void) {}

  get finished(): boolean {
    return this.#done !== undefined || this.#error !== undefined;
  }

  get error(): unknown {
    return this.#error;
  }

  /** One event's data. Returns false once the stream has nothing more to say. */
  push(data: string): boolean {
    if (this.finished) return false;
    if (data.trim() === '[DONE]') {
      this.#done ??= clipped(this.#text, false, undefined);
      return false;
    }
    const event = parseRecord(data);
    if (!event) return true;
    if (event.type === 'transcript.text.delta' && typeof event.delta === 'string') {
      const room = MAX_TRANSCRIPT_CHARS - this.#text.length;
      if (room <= 0) return true;
      const piece = event.delta.slice(0, room);
      this.#text += piece;
      this.onDelta?.(piece);
      return true;
    }
    if (event.type === 'transcript.text.done') {
      const text = typeof event.text === 'string' ? event.text : this.#text;
      this.#done = { ...clipped(text, false, transcriptionUsageOf(event.usage)), streamed: true };
      return false;
    }
    if (event.type === 'error' || event.error !== undefined) {
      this.#error = event.error ?? event;
      return false;
    }
    return true;
  }

  /** The transcript so far (all deltas). */
  get partial(): string {
    return this.#text;
  }

  /** The finished transcript, or undefined when the stream ended without one. */
  result(): Transcription | undefined {
    return this.#done && { ...this.#done, streamed: true };
  }
}
