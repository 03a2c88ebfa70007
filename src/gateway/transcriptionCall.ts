// Reading a 2xx transcription answer for the client: a whole body (transcription.ts's transcriptOf), or an SSE
// stream of transcript deltas, each handed on as it arrives. Failures are AttemptFailures, as every reader's.
import type { Dispatcher } from 'undici';
import { GatewayError } from './errors';
import { AttemptFailure, badResponse } from './failures';
import { headerText, type Headers } from './retry';
import { readBody, type AttemptContext } from './responseReaders';
import { SseDecoder } from './sse';
import { TRANSCRIPT_BODY_LIMIT, TranscriptStream, transcriptOf } from './transcription';
import type { Transcription, TranscriptionRequest } from './types';

export { transcriptionBody } from './transcription';

export async function readTranscription(res: Dispatcher.ResponseData, ctx: AttemptContext, request: TranscriptionRequest, onDelta?: (text: string) => void): Promise<Transcription> {
  const contentType = headerText(res.headers as Headers, 'content-type');
  if ((contentType ?? '').toLowerCase().includes('text/event-stream')) return readStream(res, ctx, onDelta);
  const body = await readBody(res, ctx, TRANSCRIPT_BODY_LIMIT, 'The transcript');
  const read = transcriptOf(body, contentType, request);
  if ('error' in read) throw new AttemptFailure(ctx.failures.fromPayload(read.error, 200, ctx.requestId), 'body');
  if ('problem' in read) throw new AttemptFailure(badResponse(read.problem, ctx.requestId), 'body');
  onDelta?.(read.text);
  return read;
}

async function readStream(res: Dispatcher.ResponseData, ctx: AttemptContext, onDelta?: (text: string) => void): Promise<Transcription> {
  const stream = new TranscriptStream(onDelta);
  const decoder = new SseDecoder({ onEvent: (_type, data) => void stream.push(data) });
  try {
    for await (const chunk of res.body) {
      ctx.control.touch();
      decoder.push(chunk as Buffer);
      if (stream.finished) break;
    }
    decoder.end();
  } catch (error) {
    throw ctx.failures.body(error, ctx.control, ctx.requestId, 'stream_interrupted', undefined);
  } finally {
    if (!res.body.destroyed) res.body.destroy();
  }
  if (stream.error !== undefined) throw new AttemptFailure(ctx.failures.fromPayload(stream.error, 200, ctx.requestId), 'body');
  const result = stream.result();
  if (result) return result;
  const message = stream.partial === '' ? 'The gateway ended the transcript stream without sending anything.' : 'The gateway ended the transcript stream before the transcript was complete.';
  throw new AttemptFailure(new GatewayError({ status: 0, code: 'stream_interrupted', message, requestId: ctx.requestId }), 'body');
}
