// Assembly of chat-completion results, as pure classes fed bytes or event payloads (no I/O).
//
// Accumulation rules (../shared/fixtures/sse/README.md):
// - `data: [DONE]` ends the stream; anything after it is ignored.
// - `event: error`, an error in band (inBandError.ts: `error`, Portkey's failure, DashScope's
//   output.code), or data that is not JSON is a stream error; text already received is kept.
// - `choices` may be missing, null or []; such chunks (Azure filter results, usage-only chunks) and ids of ""
//   never provide metadata.
// - content, refusal and reasoning (`reasoning_content` or `reasoning`) are concatenated; null adds nothing.
//   A `<think>…</think>` block opening the content is reasoning too (chatChoice.ts, inlineReasoning.ts).
//   Content given as an array of parts (Mistral magistral) sends `text` parts to content and `thinking` parts
//   to reasoning.
// - Tool calls are keyed by `index`; id/type/name are replaced only when non-empty, arguments concatenated.
//   A different non-empty id at an index already holding an id starts a new call (Cerebras, case 34).
// - finish_reason keeps the last non-null value; usage the last non-null top-level object (never summed).
// - A reply holds at most MAX_REPLY_CHARS of text, content, reasoning, refusal and tool-call arguments of every
//   choice together: a stream that never ends would otherwise grow a string to V8's limit and fail with a raw
//   RangeError. The text up to the cap is kept and the stream fails as `reply-too-long`. Each new tool call or
//   choice counts as ENTRY_CHARS, so empty ones cannot pile up either.

import { ChunkTemplate } from './chunkTemplate';
import { MAX_REPLY_CHARS, ReplyBudget } from './replyBudget';
import { ChoiceAccumulator, type ChoiceSnapshot } from './chatChoice';
import { SseDecoder, SseOverflowError } from './sse';
import type { ChatDelta, ChatResult, Usage } from './types';
import { isRecord } from '../util/records';
import { inBandError } from './inBandError';

export { parseToolArguments } from './toolArguments';
export { MAX_REPLY_CHARS } from './replyBudget';
export type { ChoiceSnapshot } from './chatChoice';

type Json = Record<string, unknown>;

/** Distinct response ids, models and object types noted per stream (diagnostics; a hostile stream could send millions). */
const MAX_SEEN = 16;

export type StreamFailureKind = 'sse-error-event' | 'error-object-in-stream' | 'invalid-json' | 'oversized' | 'reply-too-long';

export interface StreamFailure {
  kind: StreamFailureKind;
  /**
   * The server's error object (or the offending text for invalid JSON, what was too long for oversized, the cap in
   * characters for reply-too-long).
   */
  payload: unknown;
}


/** Collects metadata and choices from chat-completion chunks (streamed) or one completion (non-streamed). */
export class ChatStreamAccumulator {
  id = '';
  model = '';
  created = 0;
  usage: Usage | null = null;
  done = false;
  failure: StreamFailure | null = null;
  jsonChunks = 0;
  readonly responseIdsSeen: string[] = [];
  readonly modelsSeen: string[] = [];
  readonly objectTypesSeen: string[] = [];

  readonly #onDelta: ((delta: ChatDelta) => void) | undefined;
  readonly #template = new ChunkTemplate();
  readonly #budget: ReplyBudget;
  #first: ChoiceAccumulator | undefined;
  readonly #others = new Map<number, ChoiceAccumulator>();

  constructor(onDelta?: (delta: ChatDelta) => void, maxReplyChars = MAX_REPLY_CHARS) {
    this.#onDelta = onDelta;
    this.#budget = new ReplyBudget(maxReplyChars);
  }

  /** No further event changes the result: [DONE] arrived or the stream failed. */
  get closed(): boolean {
    return this.done || this.failure !== null;
  }

  /** The first choice has a finish reason (a stream may then end without [DONE]). */
  get finished(): boolean {
    return this.#first !== undefined && this.#first.finishReason !== null;
  }

  /** Did anything reach the caller yet (text, reasoning, refusal or tool calls)? */
  get hasOutput(): boolean {
    const c = this.#first;
    return c !== undefined && (c.content !== '' || c.reasoning !== '' || c.refusal !== '' || c.toolCalls.length > 0);
  }

  handleEvent(type: string, data: string): void {
    if (this.closed) return;
    if (type === 'error') {
      this.failure = { kind: 'sse-error-event', payload: errorPayloadOf(data) };
      return;
    }
    const templated = this.#template.match(data);
    if (templated !== undefined) {
      this.jsonChunks++;
      this.#appendContent(templated);
      return;
    }
    if (data.length === 6 && data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      this.failure = { kind: 'invalid-json', payload: data.length > 200 ? `${data.slice(0, 200)}…` : data };
      return;
    }
    if (!isRecord(chunk)) return;
    this.handleChunk(chunk);
    if (this.failure === null) this.#template.learn(data, chunk);
  }

  /** Content for the first choice from a chunk that matched the template (metadata unchanged by construction). */
  #appendContent(wireContent: string): void {
    const content = this.#budget.take(wireContent);
    if (content !== '') {
      const added = this.#first!.addContent(content, this.#onDelta !== undefined);
      if (added !== undefined) this.#onDelta!(added);
    }
    this.#checkBudget();
  }

  /** After the text that fitted was taken: a reply past the cap ends the stream as failed. */
  #checkBudget(): void {
    if (this.#budget.exceeded && this.failure === null) this.failure = { kind: 'reply-too-long', payload: this.#budget.limit };
  }

  /** One parsed `chat.completion.chunk`. */
  handleChunk(chunk: Json): void {
    const inBand = inBandError(chunk);
    if (inBand !== undefined) {
      this.failure = { kind: 'error-object-in-stream', payload: inBand };
      return;
    }
    this.jsonChunks++;
    this.#noteSeen(chunk);
    const choices = chunk.choices;
    if (Array.isArray(choices) && choices.length > 0) {
      this.#takeMetadata(chunk);
      for (let i = 0; i < choices.length; i++) {
        const choice = choices[i];
        if (isRecord(choice)) this.#applyChoice(choice, false);
      }
    }
    const usage = chunk.usage;
    if (isRecord(usage)) this.usage = usage as Usage;
    this.#checkBudget();
  }

  /** A complete, non-streamed `chat.completion` body. */
  handleCompletion(body: Json): void {
    const inBand = inBandError(body);
    if (inBand !== undefined) {
      this.failure = { kind: 'error-object-in-stream', payload: inBand };
      return;
    }
    const choices = body.choices;
    if (Array.isArray(choices) && choices.length > 0) {
      this.#takeMetadata(body);
      for (const choice of choices) if (isRecord(choice)) this.#applyChoice(choice, true);
    }
    if (isRecord(body.usage)) this.usage = body.usage as Usage;
    this.#checkBudget();
    if (this.failure === null) this.done = true;
  }

  /** The assembled first choice with the response metadata. Called when the reply is over (finished or failed). */
  result(): ChatResult {
    this.#settle();
    const c = this.#first;
    return {
      id: this.id,
      model: this.model,
      created: this.created,
      content: c?.content ?? '',
      reasoning: c?.reasoning ?? '',
      refusal: c?.refusal ?? '',
      toolCalls: c ? c.toolCalls.map((call) => ({ ...call })) : [],
      finishReason: c?.finishReason ?? null,
      usage: this.usage,
    };
  }

  /** Every choice, by index (n > 1 requests interleave several). Called when the reply is over. */
  choices(): ChoiceSnapshot[] {
    this.#settle();
    const all = [...this.#others.values()];
    if (this.#first) all.push(this.#first);
    return all.sort((a, b) => a.index - b.index).map((c) => c.snapshot());
  }

  /** Text held back while an inline `<think>` block was undecided is placed (and reported) once the reply is over. */
  #settle(): void {
    const added = this.#first?.settle(this.#onDelta !== undefined);
    if (added !== undefined) this.#onDelta!(added);
    for (const other of this.#others.values()) other.settle(false);
  }

  #applyChoice(choice: Json, complete: boolean): void {
    const index = typeof choice.index === 'number' ? choice.index : 0;
    const acc = this.#choiceAt(index);
    if (acc === undefined) return;
    const body = complete ? choice.message : choice.delta;
    if (isRecord(body)) {
      const wantDelta = index === 0 && this.#onDelta !== undefined;
      const added = acc.applyDelta(body, wantDelta);
      if (added !== undefined) this.#onDelta!(added);
    }
    const finish = choice.finish_reason;
    if (finish !== null && finish !== undefined) acc.setFinishReason(finish);
  }

  /** The choice at `index`, or undefined when a new one does not fit in the reply's budget. */
  #choiceAt(index: number): ChoiceAccumulator | undefined {
    if (index === 0) return (this.#first ??= new ChoiceAccumulator(0, this.#budget));
    let acc = this.#others.get(index);
    if (acc === undefined) {
      if (!this.#budget.takeEntry()) return undefined;
      this.#others.set(index, (acc = new ChoiceAccumulator(index, this.#budget)));
    }
    return acc;
  }

  #takeMetadata(chunk: Json): void {
    if (this.id === '' && typeof chunk.id === 'string') this.id = chunk.id;
    if (this.model === '' && typeof chunk.model === 'string') this.model = chunk.model;
    if (this.created === 0 && typeof chunk.created === 'number') this.created = chunk.created;
  }

  #noteSeen(chunk: Json): void {
    noteDistinct(this.responseIdsSeen, chunk.id);
    noteDistinct(this.modelsSeen, chunk.model);
    noteDistinct(this.objectTypesSeen, chunk.object);
  }
}

function noteDistinct(seen: string[], value: unknown): void {
  if (typeof value !== 'string' || value === '' || seen.length >= MAX_SEEN || seen[seen.length - 1] === value) return;
  if (!seen.includes(value)) seen.push(value);
}

function errorPayloadOf(data: string): unknown {
  try {
    const parsed: unknown = JSON.parse(data);
    if (isRecord(parsed) && isRecord(parsed.error)) return parsed.error;
    return parsed;
  } catch {
    return data;
  }
}

/** Bytes of an SSE chat-completion stream in, assembled result out. */
export class ChatStreamParser {
  readonly accumulator: ChatStreamAccumulator;
  readonly #sse: SseDecoder;

  constructor(onDelta?: (delta: ChatDelta) => void, maxReplyChars = MAX_REPLY_CHARS) {
    const accumulator = (this.accumulator = new ChatStreamAccumulator(onDelta, maxReplyChars));
    this.#sse = new SseDecoder(
      { onEvent: (type, data) => accumulator.handleEvent(type, data) },
      { lenientLineFallback: true },
    );
  }

  get eventCount(): number {
    return this.#sse.eventCount;
  }

  get usedLenientFallback(): boolean {
    return this.#sse.usedLenientFallback;
  }

  push(bytes: Uint8Array): void {
    if (!this.accumulator.closed) this.#guarded(() => this.#sse.push(bytes));
  }

  end(): void {
    if (!this.accumulator.closed) this.#guarded(() => this.#sse.end());
  }

  /** A line or event past the SSE cap closes the stream as failed; what was assembled so far stays. */
  #guarded(feed: () => void): void {
    try {
      feed();
    } catch (error) {
      if (!(error instanceof SseOverflowError)) throw error;
      this.accumulator.failure = { kind: 'oversized', payload: error.message };
    }
  }
}

