// What the gateway-answer hang tests run inside a worker (test/util/inWorker.ts): each takes plain data, feeds it to
// one parser of gateway answers the way the client does, and returns a small summary that can cross to the test.

import { ChatStreamParser } from '../../../src/gateway/chatStream';
import { describeErrorBody } from '../../../src/gateway/errors';
import { FailureMapper } from '../../../src/gateway/failures';
import { imageGenerationOf } from '../../../src/gateway/mediaReaders';
import { jobIdProblem } from '../../../src/gateway/responseReaders';
import { SseDecoder } from '../../../src/gateway/sse';
import { classifyModel } from '../../../src/models/core/modelKind';
import { realClock } from '../../../src/util/clock';

const failures = new FailureMapper({ origin: 'http://gateway.test', apiKey: 'sk-test', timeoutMs: 1000, idleTimeoutMs: 1000, clock: realClock });

/** An image answer `{ data: [entry] }` read as generateImage reads it: the kept image's size, or the error message. */
export function readImageAnswer(entry: unknown, maxBytes: number): string {
  try {
    const generation = imageGenerationOf({ created: 1, data: [entry] }, { requested: 1, maxBytes, baseUrl: 'http://gateway.test/v1', nowSeconds: 1, requestId: undefined, failures });
    const image = generation.images[0];
    return image.kind === 'data' ? `${image.contentType} ${image.data.length}` : image.url;
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

/** Text pushed to an SSE decoder in chunks of `chunkChars` (as bytes): how many events it dispatched. */
export function decodeSse(text: string, chunkChars: number): number {
  let events = 0;
  const decoder = new SseDecoder({ onEvent: () => events++ }, { lenientLineFallback: true });
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length; at += chunkChars) decoder.push(encoder.encode(text.slice(at, at + chunkChars)));
  decoder.end();
  return events;
}

/** A chat stream pushed in chunks of `chunkChars`: the failure kind (or "complete"/"open") and the content's length. */
export function parseChatStream(text: string, chunkChars: number): { outcome: string; contentChars: number } {
  const parser = new ChatStreamParser();
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length; at += chunkChars) parser.push(encoder.encode(text.slice(at, at + chunkChars)));
  parser.end();
  const acc = parser.accumulator;
  return { outcome: acc.failure?.kind ?? (acc.done ? 'complete' : 'open'), contentChars: acc.result().content.length };
}

/** An HTTP error body as the client reads it: the message. */
export function describeHttpError(body: string, contentType: string): string {
  return describeErrorBody(502, body, contentType, 'sk-test').message;
}

export function checkJobId(id: string): string {
  return jobIdProblem(id) ?? 'ok';
}

export function modelKind(id: string): string {
  return classifyModel({ id, owned_by: id });
}
