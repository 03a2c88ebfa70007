// One choice of a chat completion as it streams in: content, reasoning, refusal and tool calls, assembled from
// deltas under the reply's budget (the rules are in chatStream.ts). Reasoning a model writes inline as
// `<think>…</think>` at the start of its content is moved to the reasoning here (inlineReasoning.ts), so no
// caller ever sees it in the answer text.
import { InlineReasoningSplitter, type SplitText } from './inlineReasoning';
import type { ReplyBudget } from './replyBudget';
import type { ChatDelta, ChatReply, ToolCall } from './types';

type Json = Record<string, unknown>;

/** One choice of a streamed answer so far. */
export interface ChoiceSnapshot extends ChatReply {
  index: number;
  role: string | null;
}

interface ToolCallDelta {
  index: number;
  id?: string;
  type?: string;
  name?: string;
  arguments?: string;
}

export class ChoiceAccumulator {
  role: string | null = null;
  content = '';
  reasoning = '';
  refusal = '';
  finishReason: string | null = null;
  readonly toolCalls: ToolCall[] = [];
  /** Wire index → position in toolCalls of the call currently receiving deltas at that index. */
  readonly #callAtWireIndex = new Map<number, number>();
  readonly #inline = new InlineReasoningSplitter();

  constructor(
    readonly index: number,
    readonly budget: ReplyBudget,
  ) {}

  /** Applies one streamed `delta`; returns what it added, or undefined when it added nothing. */
  applyDelta(delta: Json, wantDelta: boolean): ChatDelta | undefined {
    const role = delta.role;
    if (typeof role === 'string' && role !== '') this.role = role;
    let out: ChatDelta | undefined;

    const content = typeof delta.content === 'string' ? this.budget.take(delta.content) : delta.content;
    if (typeof content === 'string') {
      if (content !== '') out = this.addContent(content, wantDelta);
    } else if (Array.isArray(content)) {
      out = this.#applyContentParts(content, wantDelta);
    }

    const refusal = typeof delta.refusal === 'string' ? this.budget.take(delta.refusal) : undefined;
    if (refusal !== undefined && refusal !== '') {
      this.refusal += refusal;
      if (wantDelta) (out ??= {}).refusal = refusal;
    }

    const wireReasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    const reasoning = typeof wireReasoning === 'string' ? this.budget.take(wireReasoning) : undefined;
    if (reasoning !== undefined && reasoning !== '') {
      this.reasoning += reasoning;
      if (wantDelta) {
        out ??= {};
        out.reasoning = out.reasoning === undefined ? reasoning : out.reasoning + reasoning;
      }
    }

    const toolCalls = delta.tool_calls;
    if (Array.isArray(toolCalls) && toolCalls.length > 0) {
      const changes = this.#applyToolCalls(toolCalls, wantDelta);
      if (changes !== undefined && changes.length > 0) (out ??= {}).toolCalls = changes;
    }
    return out;
  }

  /** Applies a complete (non-streamed) `message`. */
  applyMessage(message: Json): void {
    this.applyDelta(message, false);
  }

  /** Content text (already within the budget), with an inline `<think>` block moved to the reasoning. */
  addContent(text: string, wantDelta: boolean): ChatDelta | undefined {
    if (this.#inline.passThrough) {
      this.content += text;
      return wantDelta ? { content: text } : undefined;
    }
    return this.#place(this.#inline.push(text), wantDelta);
  }

  /** The reply is over: text held back while deciding whether it opened a `<think>` block goes where it belongs. */
  settle(wantDelta: boolean): ChatDelta | undefined {
    return this.#place(this.#inline.end(), wantDelta);
  }

  #place(split: SplitText, wantDelta: boolean): ChatDelta | undefined {
    this.content += split.content;
    this.reasoning += split.reasoning;
    if (!wantDelta || (split.content === '' && split.reasoning === '')) return undefined;
    const out: ChatDelta = {};
    if (split.reasoning !== '') out.reasoning = split.reasoning;
    if (split.content !== '') out.content = split.content;
    return out;
  }

  setFinishReason(value: unknown): void {
    if (typeof value === 'string') this.finishReason = value;
  }

  snapshot(): ChoiceSnapshot {
    return {
      index: this.index,
      role: this.role,
      content: this.content,
      reasoning: this.reasoning,
      refusal: this.refusal,
      toolCalls: this.toolCalls.map((call) => ({ ...call })),
      finishReason: this.finishReason,
    };
  }

  #applyContentParts(parts: unknown[], wantDelta: boolean): ChatDelta | undefined {
    let text = '';
    let thinking = '';
    for (const part of parts) {
      if (part === null || typeof part !== 'object') continue;
      const p = part as Json;
      if (p.type === 'text' && typeof p.text === 'string') text += this.budget.take(p.text);
      else if (p.type === 'thinking') thinking += this.budget.take(textOfThinking(p.thinking));
    }
    this.reasoning += thinking;
    const out: ChatDelta = (text !== '' ? this.addContent(text, wantDelta) : undefined) ?? {};
    if (thinking !== '') out.reasoning = thinking + (out.reasoning ?? '');
    return wantDelta && (out.content !== undefined || out.reasoning !== undefined) ? out : undefined;
  }

  #applyToolCalls(items: unknown[], wantDelta: boolean): ToolCallDelta[] | undefined {
    const changes: ToolCallDelta[] | undefined = wantDelta ? [] : undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item === null || typeof item !== 'object') continue;
      const wire = item as Json;
      const wireIndex = typeof wire.index === 'number' ? wire.index : i;
      const id = typeof wire.id === 'string' ? wire.id : '';
      let position = this.#callAtWireIndex.get(wireIndex);
      if (position === undefined || (id !== '' && this.toolCalls[position].id !== '' && this.toolCalls[position].id !== id)) {
        if (!this.budget.takeEntry()) break;
        position = this.toolCalls.length;
        this.toolCalls.push({ id: '', type: 'function', name: '', arguments: '' });
        this.#callAtWireIndex.set(wireIndex, position);
      }
      const call = this.toolCalls[position];
      const change: ToolCallDelta = { index: position };
      if (id !== '') call.id = change.id = id;
      if (typeof wire.type === 'string' && wire.type !== '') call.type = change.type = wire.type;
      const fn = wire.function;
      if (fn !== null && typeof fn === 'object') {
        const { name, arguments: args } = fn as Json;
        if (typeof name === 'string' && name !== '') call.name = change.name = name;
        const text = this.budget.take(typeof args === 'string' ? args : args !== null && typeof args === 'object' ? JSON.stringify(args) : '');
        if (text !== '') {
          call.arguments += text;
          change.arguments = text;
        }
      }
      changes?.push(change);
    }
    return changes;
  }
}

function textOfThinking(thinking: unknown): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  let text = '';
  for (const part of thinking) {
    if (part !== null && typeof part === 'object' && typeof (part as Json).text === 'string') text += (part as Json).text;
  }
  return text;
}

