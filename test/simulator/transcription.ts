// POST /v1/audio/transcriptions in both shapes real gateways take: OpenAI's multipart form (`file`, `model`,
// `response_format` json|text|srt|vtt, `language`, `stream`) and OpenRouter's JSON (`{ model, input_audio: { data,
// format } }`, answered `{ text, usage: { cost, seconds } }`). The transcript is made from the audio's length (a WAV
// file's header): one cue per second, "Second N.", so SRT and VTT have real timings to keep. A model must have
// "transcribe" or "whisper" in its id; a file that is not audio is refused.
import { invalidRequest, isObject } from './errors';
import type { Exchange } from './exchange';
import { TRANSCRIBE_MODEL } from './models';

export { TRANSCRIBE_MODEL };
/** USD per second of audio, reported in OpenRouter's `usage.cost`. */
export const TRANSCRIBE_PRICE_PER_SECOND = 0.0001;

interface Form {
  fields: Map<string, string>;
  file?: { name: string; bytes: Buffer };
}

function parseMultipart(body: Buffer, contentType: string): Form {
  const marker = 'boundary=';
  const at = contentType.indexOf(marker);
  if (at < 0) throw invalidRequest('The multipart form has no boundary.');
  const boundary = Buffer.from(`--${contentType.slice(at + marker.length).split(';')[0]!.trim().replace(/^"|"$/g, '')}`);
  const form: Form = { fields: new Map() };
  let start = body.indexOf(boundary);
  while (start >= 0) {
    const next = body.indexOf(boundary, start + boundary.length);
    if (next < 0) break;
    const part = body.subarray(start + boundary.length + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString('utf8');
      const content = part.subarray(headerEnd + 4);
      const name = / name="([^"]*)"/.exec(headers)?.[1];
      const fileName = / filename="([^"]*)"/.exec(headers)?.[1];
      if (name === 'file' && fileName !== undefined) form.file = { name: fileName, bytes: Buffer.from(content) };
      else if (name) form.fields.set(name, content.toString('utf8'));
    }
    start = next;
  }
  return form;
}

/** Seconds of a PCM WAV file, or undefined when the bytes are not one. */
function wavSeconds(bytes: Buffer): number | undefined {
  if (bytes.length < 44 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  const byteRate = bytes.readUInt32LE(28);
  const dataAt = bytes.indexOf('data', 12, 'latin1');
  if (dataAt < 0 || byteRate === 0) return undefined;
  return Math.min(bytes.readUInt32LE(dataAt + 4), bytes.length - dataAt - 8) / byteRate;
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

function cues(seconds: number): Array<{ start: number; end: number; text: string }> {
  const count = Math.max(1, Math.ceil(seconds));
  return Array.from({ length: count }, (_, i) => ({ start: i, end: Math.min(i + 1, Math.max(seconds, 1)), text: `Second ${i + 1}.` }));
}

export function transcriptText(seconds: number, format: string): string {
  const list = cues(seconds);
  if (format === 'srt') return list.map((c, i) => `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.end, ',')}\n${c.text}\n`).join('\n');
  if (format === 'vtt') return `WEBVTT\n\n${list.map((c) => `${clock(c.start, '.')} --> ${clock(c.end, '.')}\n${c.text}\n`).join('\n')}`;
  return list.map((c) => c.text).join(' ');
}

function checkModel(model: unknown): string {
  if (typeof model !== 'string' || !/transcribe|whisper/i.test(model)) throw invalidRequest(`'model' must be a transcription model such as ${TRANSCRIBE_MODEL}`);
  return model;
}

function audioSeconds(bytes: Buffer): number {
  const seconds = wavSeconds(bytes);
  if (seconds === undefined) throw invalidRequest('The file is not audio the simulator can read (it reads WAV).');
  return seconds;
}

export async function transcribe(exchange: Exchange): Promise<void> {
  const contentType = exchange.header('content-type') ?? '';
  if (!contentType.startsWith('multipart/')) {
    // OpenRouter's shape.
    const body = exchange.body;
    if (!isObject(body) || !isObject(body.input_audio) || typeof body.input_audio.data !== 'string') throw invalidRequest("Send JSON { model, input_audio: { data, format } } or a multipart form with 'file'.");
    checkModel(body.model);
    const seconds = audioSeconds(Buffer.from(body.input_audio.data, 'base64'));
    exchange.sendJson({ text: transcriptText(seconds, 'text'), usage: { cost: Number((seconds * TRANSCRIBE_PRICE_PER_SECOND).toFixed(8)), seconds } });
    return;
  }
  const form = parseMultipart(exchange.rawBytes, contentType);
  checkModel(form.fields.get('model'));
  if (!form.file) throw invalidRequest("The form has no 'file'.");
  if (!/\.[A-Za-z0-9]+$/.test(form.file.name)) throw invalidRequest('The file name must carry its extension.');
  const seconds = audioSeconds(form.file.bytes);
  const format = form.fields.get('response_format') ?? 'json';
  if (!['json', 'text', 'srt', 'vtt', 'verbose_json'].includes(format)) throw invalidRequest(`'response_format' ${format} is not one of json, text, srt, vtt, verbose_json`);
  const text = transcriptText(seconds, format === 'srt' || format === 'vtt' ? format : 'text');
  const usage = { type: 'duration', seconds };
  if (form.fields.get('stream') === 'true' && (format === 'json' || format === 'text')) {
    exchange.head(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (const word of text.split(' ')) exchange.res.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta: `${word} ` })}\n\n`);
    exchange.res.write(`data: ${JSON.stringify({ type: 'transcript.text.done', text, usage })}\n\n`);
    exchange.res.end();
    return;
  }
  if (format === 'json' || format === 'verbose_json') exchange.sendJson({ text, usage });
  else exchange.sendPlain(200, 'text/plain; charset=utf-8', text);
}
