// How every webview's messages are checked, in both directions: each webview declares its protocol once (one file
// per webview: the chat's messages.ts, the Usage dashboard's dashboardProtocol.ts) as a table of shapes, one per
// message type, and both sides check with it. What a side receives is checked strictly (anything that does not match
// exactly is dropped and logged); what the host sends is trimmed to what the page accepts, so one odd field never
// blanks a page. Messages that need an answer are requests: they carry a `requestId`, and the host answers each with
// one `reply` message holding the request's typed reply or an error. Pure and browser-safe: the pages use it too.
import { conforms, hasOnlyKeys, isCount, isRecord, sameData, type Cleaner } from './validate';

/** A message's fields (besides `type`), each with the cleaner that checks it. */
export type Shape = Record<string, Cleaner<unknown>>;
export type Shapes<Message extends { type: string }> = Record<Message['type'], Shape>;
export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

/** A field that may be absent. */
export function optional<T>(clean: Cleaner<T>): Cleaner<T> & { optional: true } {
  return Object.assign((value: unknown) => clean(value), { optional: true as const });
}

const isOptional = (clean: Cleaner<unknown>): boolean => (clean as { optional?: boolean }).optional === true;

/** A cleaner that accepts exactly the values `check` accepts, unchanged. */
export function exactly<T>(check: (value: unknown) => value is T): Cleaner<T> {
  return (value) => (check(value) ? value : undefined);
}

/** Strict: the message exactly as the protocol allows, else why not. */
export function parseWith<T>(raw: unknown, shapes: Record<string, Shape>): Parsed<T> {
  if (!isRecord(raw)) return { ok: false, reason: 'not an object' };
  const type = raw.type;
  if (typeof type !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, type)) return { ok: false, reason: `unknown type ${JSON.stringify(type)?.slice(0, 60)}` };
  const shape = shapes[type];
  if (!hasOnlyKeys(raw, ['type', ...Object.keys(shape)])) return { ok: false, reason: `${type}: unexpected field` };
  for (const [field, clean] of Object.entries(shape)) {
    if (raw[field] === undefined && isOptional(clean)) continue;
    if (!conforms(raw[field], clean)) return { ok: false, reason: `${type}: bad ${field}` };
  }
  return { ok: true, message: raw as T };
}

/** The message when it fits one of the shapes, else undefined (for callers that drop what does not fit, unexplained). */
export function messageOf<T>(raw: unknown, shapes: Record<string, Shape>): T | undefined {
  const parsed = parseWith<T>(raw, shapes);
  return parsed.ok ? parsed.message : undefined;
}

/** Lenient: the message cut down to what the protocol allows, or undefined when a required field has nothing usable. */
export function cleanWith<T>(message: { type: string }, shapes: Record<string, Shape>): T | undefined {
  const shape = shapes[message.type];
  if (!shape) return undefined;
  const fields = message as unknown as Record<string, unknown>;
  const cleaned: Record<string, unknown> = { type: message.type };
  for (const [field, clean] of Object.entries(shape)) {
    const value = fields[field] === undefined ? undefined : clean(fields[field]);
    if (value !== undefined) cleaned[field] = value;
    else if (!isOptional(clean)) return undefined;
  }
  return cleaned as T;
}

// ---- requests and their replies ------------------------------------------------------------------------------

/** Which id a page gave its request (the page counts them). */
export const isRequestId = (value: unknown): value is number => isCount(value);

/** The host's answer to one request: its typed reply, or why it failed (`error`). */
export type ReplyMessage<Reply> = { type: 'reply'; requestId: number; reply?: Reply; error?: string };

/** The fields of a `reply` message, for a protocol's table of the host's messages: `reply` is one of `replies`. */
export function replyShape(replies: Record<string, Cleaner<unknown>>): Shape {
  const anyReply: Cleaner<unknown> = (value) => {
    for (const clean of Object.values(replies)) {
      if (conforms(value, clean)) return value;
    }
    return undefined;
  };
  return { requestId: exactly(isRequestId), reply: optional(anyReply), error: optional((v) => (typeof v === 'string' ? v.slice(0, 500) : undefined)) };
}

/** The reply to a request of type `type` as its protocol declares it, or undefined for anything else. */
export function parseReply<Replies>(replies: { [K in keyof Replies]: Cleaner<Replies[K]> }, type: keyof Replies, message: ReplyMessage<unknown>): Replies[keyof Replies] | undefined {
  const clean = replies[type];
  return message.reply !== undefined && conforms(message.reply, clean) ? (message.reply as Replies[keyof Replies]) : undefined;
}

// ---- the host's end ------------------------------------------------------------------------------------------

export interface PortLog {
  warn(message: string): void;
  error(message: string): void;
}

/**
 * The host's end of one page's messages: every message from the page passes `receive` (strict), every message to
 * it passes `send` (trimmed). `name` starts the log lines ("Chat", "Usage dashboard").
 */
export class ProtocolPort<FromPage extends { type: string }, ToPage extends { type: string }> {
  /** Message types already logged as trimmed (logged once each, not once per message). */
  private readonly trimmedTypes = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly shapes: { page: Shapes<FromPage>; host: Shapes<ToPage> },
    private readonly transport: (message: ToPage) => void,
    private readonly log: PortLog,
  ) {}

  /** The message when it is one the protocol allows; anything else is logged and dropped (undefined). */
  receive(raw: unknown): FromPage | undefined {
    const parsed = parseWith<FromPage>(raw, this.shapes.page);
    if (parsed.ok) return parsed.message;
    this.log.warn(`${this.name}: dropped a message from the webview (${parsed.reason}).`);
    return undefined;
  }

  /** Sends the message trimmed to what the page accepts; returns what was sent (undefined: nothing fit). */
  send(message: ToPage): ToPage | undefined {
    const clean = cleanWith<ToPage>(message, this.shapes.host);
    if (!clean) {
      this.log.error(`${this.name}: could not send ${message.type} to the webview: nothing in it fits the protocol.`);
      return undefined;
    }
    if (clean !== message && !sameData(clean, message) && !this.trimmedTypes.has(message.type)) {
      this.trimmedTypes.add(message.type);
      this.log.warn(`${this.name}: trimmed ${message.type} to what the webview accepts (an over-long or malformed field).`);
    }
    this.transport(clean);
    return clean;
  }
}

// ---- the page's end ------------------------------------------------------------------------------------------

/**
 * The page's requests waiting for their reply. `request` gives the message its id and resolves with the reply its
 * protocol declares for it, or with `{ error }` when the host reports one or answers with anything else.
 */
export class PageRequests<Replies> {
  private nextId = 1;
  private readonly pending = new Map<number, { type: keyof Replies; settle: (answer: { reply: Replies[keyof Replies] } | { error: string }) => void }>();

  constructor(
    private readonly post: (message: { type: string; requestId: number }) => void,
    private readonly replies: { [K in keyof Replies]: Cleaner<Replies[K]> },
  ) {}

  request<K extends keyof Replies & string>(type: K, fields: Record<string, unknown>): Promise<{ reply: Replies[K] } | { error: string }> {
    const requestId = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(requestId, { type, settle: resolve as (answer: { reply: Replies[keyof Replies] } | { error: string }) => void });
      this.post({ ...fields, type, requestId });
    });
  }

  /** Settles the request a `reply` answers; false when it answers none that is waiting. */
  settle(message: ReplyMessage<unknown>): boolean {
    const waiting = this.pending.get(message.requestId);
    if (!waiting) return false;
    this.pending.delete(message.requestId);
    const reply = parseReply(this.replies, waiting.type, message);
    waiting.settle(reply !== undefined ? { reply } : { error: message.error ?? `the host's reply to ${String(waiting.type)} does not fit the protocol` });
    return true;
  }
}
