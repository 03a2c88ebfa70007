// Server-sent-event framing (WHATWG HTML §9.2.6) on top of eventsource-parser@3, fed raw bytes.
//
// What this layer adds to eventsource-parser 3.1.1:
// - UTF-8 decoding with a streaming TextDecoder, so characters split across chunks survive and exactly one
//   leading BOM is stripped (a mid-stream BOM is kept, as the spec says).
// - Line ends are made LF before eventsource-parser sees them (a CRLF split across chunks included): its CR path
//   searches for the next CR from every line, to the end of the chunk when there is none, which is quadratic in
//   the lines of a chunk (a 64 KB chunk of one CR and then LFs took 120 ms, 1 MB half a minute). This also completes a lone
//   CR at the very end of the stream, a line end per the spec's ABNF that eventsource-parser would withhold
//   forever as the possible first half of a CRLF (a final `data: [DONE]\r\r`, fixture case 78).
// - The persistent last event id: eventsource-parser reports `id` per event block only.
// - An optional lenient line mode for streams that never send a blank line (fixture case 43): when the stream
//   ends without a single event dispatched, every line is re-read as its own event.
// - A cap on an unfinished line or event (16 MB by default): eventsource-parser buffers both without limit, so a
//   line that never ends would grow the heap for as long as the server keeps sending.

import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface SseSink {
  onEvent(type: string, data: string, lastEventId: string): void;
  onComment?(text: string): void;
  onRetry?(ms: number): void;
}

export interface SseDecoderOptions {
  /** Re-read the stream line by line when it ends without any blank line (no event dispatched). */
  lenientLineFallback?: boolean;
  /** Longest unfinished line or event, in characters. Default 16 MB. */
  maxEventChars?: number;
}

/** A line or an event grew past the cap without ending; the decoder takes nothing more. */
export class SseOverflowError extends Error {
  override readonly name = 'SseOverflowError';
  constructor(
    readonly what: 'line' | 'event',
    readonly limit: number,
  ) {
    super(`The gateway sent a stream ${what} longer than ${formatChars(limit)} without ending it.`);
  }
}

function formatChars(chars: number): string {
  const mb = chars / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${chars} characters`;
}

const CR = 13;
const LF = 10;
const LINE_BREAK = /\n/g;
const CR_LINE_END = /\r\n?/g;
export const MAX_EVENT_CHARS = 16 * 1024 * 1024;
/** Text kept for the lenient fallback is capped: beyond this the stream is not worth rescuing. */
const LENIENT_FALLBACK_LIMIT = 16 * 1024 * 1024;

export class SseDecoder {
  readonly #sink: SseSink;
  readonly #decoder = new TextDecoder('utf-8');
  readonly #parser: EventSourceParser;
  #lastEventId = '';
  #dispatched = 0;
  /** The text fed last ended with a CR: an LF starting the next text is the rest of that CRLF. */
  #endsWithCR = false;
  #ended = false;
  /** Text seen before the first dispatch, for the lenient fallback; null once not needed. */
  #undispatched: string[] | null;
  #undispatchedLength = 0;
  #usedLenientFallback = false;
  readonly #maxEventChars: number;
  /** Characters of the line not yet ended, and of the event since the last blank line. */
  #lineChars = 0;
  #eventChars = 0;

  constructor(sink: SseSink, options: SseDecoderOptions = {}) {
    this.#sink = sink;
    this.#maxEventChars = options.maxEventChars ?? MAX_EVENT_CHARS;
    this.#undispatched = options.lenientLineFallback ? [] : null;
    this.#parser = this.#createParser(true);
  }

  /** Number of events dispatched so far. */
  get eventCount(): number {
    return this.#dispatched;
  }

  get usedLenientFallback(): boolean {
    return this.#usedLenientFallback;
  }

  /** Feeds bytes; throws SseOverflowError (and takes nothing more) when a line or event passes the cap. */
  push(bytes: Uint8Array): void {
    if (this.#ended) return;
    const text = this.#decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.#feed(text);
  }

  /** End of stream: flush the decoder, discard any unterminated event. */
  end(): void {
    if (this.#ended) return;
    const rest = this.#decoder.decode();
    if (rest.length > 0) this.#feed(rest);
    this.#ended = true;
    if (this.#dispatched === 0 && this.#undispatched !== null && this.#undispatchedLength > 0) {
      this.#replayLineByLine(this.#undispatched.join(''));
    }
    this.#undispatched = null;
  }

  #feed(raw: string): void {
    const text = this.#withLineFeeds(raw);
    if (text.length === 0) return;
    this.#measure(text);
    if (this.#undispatched !== null) this.#remember(text);
    this.#parser.feed(text);
  }

  /** The text with every line end (CRLF, CR, LF) an LF; an LF that completes a CRLF split across texts is dropped. */
  #withLineFeeds(raw: string): string {
    const text = this.#endsWithCR && raw.charCodeAt(0) === LF ? raw.slice(1) : raw;
    this.#endsWithCR = raw.charCodeAt(raw.length - 1) === CR;
    return text.includes('\r') ? text.replace(CR_LINE_END, '\n') : text;
  }

  /** Tracks the unfinished line and event (line ends are LFs by now; a blank line ends an event). */
  #measure(text: string): void {
    let start = 0;
    LINE_BREAK.lastIndex = 0;
    for (let match = LINE_BREAK.exec(text); match !== null; match = LINE_BREAK.exec(text)) {
      const segment = match.index - start;
      start = match.index + 1;
      if (this.#lineChars + segment === 0) this.#eventChars = 0;
      else this.#eventChars += segment + 1;
      this.#lineChars = 0;
      this.#check();
    }
    const tail = text.length - start;
    if (tail > 0) {
      this.#lineChars += tail;
      this.#eventChars += tail;
    }
    this.#check();
  }

  #check(): void {
    const what = this.#lineChars > this.#maxEventChars ? 'line' : this.#eventChars > this.#maxEventChars ? 'event' : undefined;
    if (what === undefined) return;
    this.#ended = true;
    this.#undispatched = null;
    throw new SseOverflowError(what, this.#maxEventChars);
  }

  #remember(text: string): void {
    if (this.#dispatched > 0 || this.#undispatchedLength + text.length > LENIENT_FALLBACK_LIMIT) {
      this.#undispatched = null;
      return;
    }
    this.#undispatched!.push(text);
    this.#undispatchedLength += text.length;
  }

  #replayLineByLine(text: string): void {
    this.#usedLenientFallback = true;
    const parser = this.#createParser(false);
    parser.feed(text.replace(LINE_BREAK, '\n\n'));
    parser.feed('\n\n');
  }

  #createParser(trackUndispatched: boolean): EventSourceParser {
    const sink = this.#sink;
    return createParser({
      onEvent: (event) => {
        if (event.id !== undefined) this.#lastEventId = event.id;
        this.#dispatched++;
        if (trackUndispatched && this.#undispatched !== null) {
          this.#undispatched = null;
          this.#undispatchedLength = 0;
        }
        sink.onEvent(event.event ?? 'message', event.data, this.#lastEventId);
      },
      onComment: sink.onComment ? (comment) => sink.onComment!(comment) : undefined,
      onRetry: sink.onRetry ? (ms) => sink.onRetry!(ms) : undefined,
    });
  }
}
