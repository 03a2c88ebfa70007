// Transcribe Audio File: the checks before anything is sent (the argument, the file's kind and size, bounded by the
// limit the gateways take), the model, the profile's transcription dialect, and the call. The transcript is not kept
// in the Media history (it is text; the caller opens it in an editor or puts it in a chat). Pure Node (no `vscode`).
import { basename } from 'node:path';
import { transcribes, type CatalogSnapshot } from '../../models/core/api';
import type { DialectSetting } from '../../settings/profile';
import type { Transcription, TranscriptionRequest } from '../../gateway/types';
import type { TranscribeAsk } from './api';
import { isTranscribable, MAX_TRANSCRIBE_BYTES, TRANSCRIBABLE_EXTENSIONS } from '../../util/audioFiles';

export { isTranscribable, MAX_TRANSCRIBE_BYTES, TRANSCRIBABLE_EXTENSIONS };
import { formatBytes } from '../../util/bytes';
import { notAFileRefusal, readBounded, resolveFile } from '../../util/fileRead';
import { accessAdvice } from '../../ui/core/errorAdvice';
import type { MediaCallOptions, MediaCoreDeps } from './mediaGeneration';
import { MediaError } from './mediaGeneration';
import { MediaRequestError } from './mediaRequest';

export type TranscriptFormat = NonNullable<TranscribeAsk['format']>;
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['text', 'srt', 'vtt'];

export type { TranscribeAsk };

/** What transcription needs beyond the media core: the profile's dialect setting (the active profile's without one). */
export interface TranscribeDeps extends Pick<MediaCoreDeps, 'connection'> {
  models: { load(profile?: string): Promise<CatalogSnapshot | undefined> };
  dialectSetting(profile?: string): DialectSetting | undefined;
}

export interface TranscribeOptions extends MediaCallOptions {
  /** Each piece of a streamed transcript as it arrives (the whole text at once when the model does not stream). */
  onDelta?: (text: string) => void;
}

/** Reads `{ path, model?, format?, language? }`; throws a MediaRequestError on a wrong field. */
export function transcribeAskOf(argument: unknown): TranscribeAsk {
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) throw new MediaRequestError('The argument must be an object.');
  const fields = argument as Record<string, unknown>;
  const known = ['path', 'model', 'format', 'language'];
  const unknown = Object.keys(fields).find((k) => !known.includes(k));
  if (unknown !== undefined) throw new MediaRequestError(`Unknown field ${unknown}; the fields are ${known.join(', ')}.`);
  if (typeof fields.path !== 'string' || fields.path.trim() === '') throw new MediaRequestError('Give the path of the audio file as a string.');
  const ask: TranscribeAsk = { path: fields.path };
  for (const name of ['model', 'language'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new MediaRequestError(`${name} must be a string.`);
    ask[name] = value;
  }
  if (ask.language !== undefined && !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/.test(ask.language)) throw new MediaRequestError('language is an ISO-639 code such as en or de.');
  if (fields.format !== undefined) {
    if (!(TRANSCRIPT_FORMATS as readonly unknown[]).includes(fields.format)) throw new MediaRequestError(`format is one of ${TRANSCRIPT_FORMATS.join(', ')}.`);
    ask.format = fields.format as TranscriptFormat;
  }
  return ask;
}


/** Which shape a profile's gateway takes: OpenRouter's JSON when its dialect says so (or, for `auto`, its host is OpenRouter's), else OpenAI's multipart. */
export function transcriptionDialectOf(setting: DialectSetting | undefined, origin: string): TranscriptionRequest['dialect'] {
  if (setting === 'openrouter') return 'openrouter';
  if (setting !== undefined && setting !== 'auto') return 'openai';
  let host = '';
  try {
    host = new URL(origin).hostname.toLowerCase();
  } catch {
    return 'openai';
  }
  return host === 'openrouter.ai' || host.endsWith('.openrouter.ai') ? 'openrouter' : 'openai';
}

/** The length of a PCM WAV file in seconds from its header, or undefined when the bytes are not one (read bounded: chunks are walked, not searched). */
export function wavSeconds(bytes: Uint8Array): number | undefined {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 12 || view.toString('latin1', 0, 4) !== 'RIFF' || view.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  for (let at = 12, chunks = 0; at + 8 <= view.length && chunks < 64; chunks++) {
    const id = view.toString('latin1', at, at + 4);
    const size = view.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= view.length) byteRate = view.readUInt32LE(at + 16);
    if (id === 'data') return byteRate ? Math.min(size, view.length - at - 8) / byteRate : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * The model: the one asked for, else the first listed model whose deciding field says it transcribes (the kind rule's
 * order: architecture, LiteLLM's mode, endpoints, other fields, the id), else a MediaError saying how to give one.
 */
export async function transcriptionModel(deps: Pick<TranscribeDeps, 'models'>, asked: string | undefined, profile?: string): Promise<string> {
  if (asked?.trim()) return asked.trim();
  const listed = (await deps.models.load(profile))?.models ?? [];
  const found = listed.find((m) => transcribes(m.raw));
  if (found) return found.id;
  throw new MediaError('no_model', 'The gateway lists no transcription model (none whose list entry or id says it transcribes, such as "whisper-1"). Pass one as the model argument.');
}

/** Reads the file (after resolving links), refusing one over the limit before anything is sent. */
export async function readAudioFile(path: string, limit = MAX_TRANSCRIBE_BYTES): Promise<{ bytes: Uint8Array; fileName: string }> {
  const resolved = await resolveFile(path);
  const fileName = basename(resolved.realPath);
  if (!isTranscribable(fileName)) throw new MediaRequestError(`${basename(path)} is not an audio or video file the gateway takes (${TRANSCRIBABLE_EXTENSIONS.join(', ')}).`);
  const tooLarge = (size: number) => new MediaError('too_large', `Nothing was sent: ${fileName} is ${formatBytes(size)}, over the ${formatBytes(limit)} one transcription takes. Split or compress it first.`);
  if (resolved.kind === 'file' && resolved.size > limit) throw tooLarge(resolved.size);
  // The bounded reader: a FIFO or a device named like audio is refused, never waited on, and a file that grew is cut at the limit.
  const read = await readBounded(resolved.realPath, limit);
  if (read.ok) return { bytes: read.bytes, fileName };
  if ('tooLarge' in read) throw tooLarge(read.atLeast);
  throw new MediaRequestError(notAFileRefusal(basename(path), read.kind, resolved.realPath === path ? undefined : resolved.realPath));
}

/** Transcribes the file under the profile (the active one without): its dialect, its model list, its key. */
export async function transcribeFile(deps: TranscribeDeps, ask: TranscribeAsk, options: TranscribeOptions = {}): Promise<Transcription & { model: string }> {
  const { bytes, fileName } = await readAudioFile(ask.path);
  const access = await deps.connection.access(options.profile);
  if (!access.ok) throw new MediaError('missing_access', accessAdvice(access).message, accessAdvice(access));
  const model = await transcriptionModel(deps, ask.model, options.profile);
  const format = ask.format ?? 'text';
  const seconds = wavSeconds(bytes);
  const request: TranscriptionRequest = { model, audio: bytes, fileName, format, dialect: transcriptionDialectOf(deps.dialectSetting(options.profile), access.origin), stream: format === 'text', ...(ask.language && { language: ask.language }), ...(seconds !== undefined && { seconds }) };
  const result = await access.api.transcribeAudio(request, { signal: options.signal, surface: options.surface ?? 'transcription', onDelta: options.onDelta });
  return { ...result, model };
}
