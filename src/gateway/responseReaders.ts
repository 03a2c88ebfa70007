// Reading a 2xx response body of one attempt: JSON (bounded), a whole chat completion, or a chat stream. Every
// failure is an AttemptFailure built by the client's FailureMapper, so the retry loop can judge it.

import type { Dispatcher } from 'undici';
import { readBytes, type AttemptControl } from './attemptControl';
import { ChatStreamAccumulator, ChatStreamParser } from './chatStream';
import { GatewayError } from './errors';
import { AttemptFailure, badResponse, tooLarge, type FailureMapper } from './failures';
import { headerText, type Headers } from './retry';
import type { ChatDelta, ChatOptions, ChatResult, VideoJob } from './types';
import { isRecord } from '../util/records';

type ResponseData = Dispatcher.ResponseData;

export interface AttemptContext {
  control: AttemptControl;
  requestId: string | undefined;
  failures: FailureMapper;
}

const JSON_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * A 2xx body, refused without reading it when its Content-Length is over `limit`, and cut off (and refused) as soon
 * as it passes `limit`. `what` names it in the message ("The gateway's answer").
 */
export async function readBody(res: ResponseData, ctx: AttemptContext, limit: number, what: string): Promise<Buffer> {
  const declared = headerText(res.headers as Headers, 'content-length');
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) {
    res.body.on('error', () => undefined).destroy();
    throw new AttemptFailure(tooLarge(what, limit, ctx.requestId, Number(declared)), 'body');
  }
  let read: { bytes: Buffer; overflow: boolean };
  try {
    read = await readBytes(res.body, ctx.control, limit);
  } catch (error) {
    throw ctx.failures.body(error, ctx.control, ctx.requestId, 'network', undefined);
  }
  if (read.overflow) throw new AttemptFailure(tooLarge(what, limit, ctx.requestId), 'body');
  return read.bytes;
}

export async function readJson(res: ResponseData, ctx: AttemptContext, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const text = (await readBody(res, ctx, limit, "The gateway's answer")).toString('utf8');
  if (text.trim() === '') throw new AttemptFailure(badResponse('The gateway sent an empty response.', ctx.requestId), 'body');
  try {
    return JSON.parse(text);
  } catch {
    throw new AttemptFailure(badResponse('The gateway sent a response that is not valid JSON.', ctx.requestId), 'body');
  }
}

export async function readChatCompletion(res: ResponseData, ctx: AttemptContext, onDelta: ChatOptions['onDelta']): Promise<ChatResult> {
  const body = await readJson(res, ctx);
  if (!isRecord(body)) throw new AttemptFailure(badResponse('The chat completion from the gateway is not an object.', ctx.requestId), 'body');
  const acc = new ChatStreamAccumulator();
  acc.handleCompletion(body);
  if (acc.failure) throw new AttemptFailure(ctx.failures.stream(acc.failure, acc, ctx.requestId), 'body');
  const result = acc.result();
  if (onDelta) {
    const delta = fullDelta(result);
    if (delta) onDelta(delta);
  }
  return result;
}

export function readChatStream(res: ResponseData, ctx: AttemptContext, onDelta: ChatOptions['onDelta']): Promise<ChatResult> {
  const { control, requestId, failures } = ctx;
  const body = res.body;
  const parser = new ChatStreamParser(onDelta);
  const acc = parser.accumulator;
  return new Promise<ChatResult>((resolve, reject) => {
    let settled = false;
    let receivedBytes = false;
    const fail = (error: unknown): void => {
      settled = true;
      body.destroy();
      reject(error);
    };
    const settleIfClosed = (): void => {
      if (acc.failure) fail(new AttemptFailure(failures.stream(acc.failure, acc, requestId), 'body'));
      else if (acc.done) {
        settled = true;
        resolve(acc.result());
      }
    };
    body.on('data', (chunk: Buffer) => {
      control.touch();
      if (settled) return;
      receivedBytes = true;
      try {
        parser.push(chunk);
      } catch (error) {
        fail(error);
        return;
      }
      if (acc.closed) settleIfClosed();
    });
    body.on('end', () => {
      if (settled) return;
      try {
        parser.end();
      } catch (error) {
        fail(error);
        return;
      }
      if (acc.closed) settleIfClosed();
      else if (acc.finished) {
        settled = true;
        resolve(acc.result());
      } else if (!receivedBytes) {
        fail(new AttemptFailure(badResponse('The gateway ended the stream without sending anything.', requestId), 'body'));
      } else {
        fail(
          new AttemptFailure(
            new GatewayError({
              status: 0,
              code: 'stream_interrupted',
              message: 'The gateway ended the stream before the reply was complete.',
              requestId,
              partial: acc.result(),
            }),
            'body',
          ),
        );
      }
    });
    body.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(failures.body(error, control, requestId, 'stream_interrupted', acc.result()));
    });
  });
}

export function videoJobOf(body: unknown): VideoJob {
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.status !== 'string') {
    throw badResponse('The video job from the gateway has no id or status.');
  }
  const problem = jobIdProblem(body.id);
  if (problem) throw badResponse(`The gateway gave the video job an id that cannot be checked: ${problem}`);
  return body as VideoJob;
}

/**
 * Why a job id cannot go into the poll path, or undefined when it can. `.` and `..` survive encodeURIComponent and
 * would be resolved as dot segments (by URL parsers, proxies and servers alike), and `%2E%2E` is read as `..` by
 * WHATWG URL parsing, so ids made of dot segments are refused rather than encoded.
 */
export function jobIdProblem(id: string): string | undefined {
  if (id === '') return 'it is empty.';
  const segments = safeDecode(id).split(/[/\\]/);
  if (segments.some((segment) => segment === '.' || segment === '..')) return `"${id.length > 80 ? `${id.slice(0, 79)}…` : id}" has a "." or ".." path segment.`;
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function fullDelta(result: ChatResult): ChatDelta | undefined {
  const delta: ChatDelta = {};
  if (result.content) delta.content = result.content;
  if (result.reasoning) delta.reasoning = result.reasoning;
  if (result.refusal) delta.refusal = result.refusal;
  if (result.toolCalls.length > 0) delta.toolCalls = result.toolCalls.map((call, index) => ({ index, ...call }));
  return Object.keys(delta).length > 0 ? delta : undefined;
}

