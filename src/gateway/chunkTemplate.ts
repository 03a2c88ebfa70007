// Fast path for the common chunk shape. In a typical stream every content chunk is byte-identical to the previous
// one except for the content string, e.g.
//   {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"tok "},"finish_reason":null}]}
// After a chunk of that shape has been parsed in full and checked, its text before and after the content string
// literal becomes a template. A later chunk that starts with the same prefix and ends with the same suffix parses
// to the same object except for delta.content, so only the literal in between needs decoding. Anything that does
// not match exactly, or whose middle is not a plain JSON string literal, goes through JSON.parse as usual.

const MARKER = '"delta":{"content":"';
const QUOTE = 34;
const BACKSLASH = 92;
/** Stop learning after this many templates in a row that never matched a later chunk. */
const LEARN_BUDGET = 8;

export class ChunkTemplate {
  #prefix = '';
  #suffix = '';
  #active = false;
  #hitsSinceLearned = 0;
  #unusedTemplates = 0;

  /** The content of `data` when it fits the current template, else undefined. */
  match(data: string): string | undefined {
    if (!this.#active) return undefined;
    const prefix = this.#prefix;
    const suffix = this.#suffix;
    const end = data.length - suffix.length;
    if (end < prefix.length || !data.startsWith(prefix) || !data.endsWith(suffix)) return undefined;
    const content = stringLiteralBody(data, prefix.length, end);
    if (content !== undefined) this.#hitsSinceLearned++;
    return content;
  }

  /**
   * Offers a chunk that was just parsed in full. It becomes the template when it is a plain content chunk:
   * exactly one choice at index 0, a delta holding nothing but a string content, no finish reason, usage or error.
   */
  learn(data: string, chunk: Record<string, unknown>): void {
    if (this.#unusedTemplates >= LEARN_BUDGET || !isPlainContentChunk(chunk)) return;
    const markerAt = data.indexOf(MARKER);
    if (markerAt < 0 || data.indexOf(MARKER, markerAt + 1) >= 0) return;
    const start = markerAt + MARKER.length;
    const end = closingQuote(data, start);
    if (end < 0) return;
    const content = (((chunk.choices as unknown[])[0] as Record<string, unknown>).delta as Record<string, unknown>).content;
    if (stringLiteralBody(data, start, end) !== content) return;
    if (this.#active && this.#hitsSinceLearned === 0) this.#unusedTemplates++;
    else this.#unusedTemplates = 0;
    if (this.#unusedTemplates >= LEARN_BUDGET) {
      this.#active = false;
      return;
    }
    this.#prefix = data.slice(0, start);
    this.#suffix = data.slice(end);
    this.#active = true;
    this.#hitsSinceLearned = 0;
  }
}

function isPlainContentChunk(chunk: Record<string, unknown>): boolean {
  if (chunk.error != null || chunk.usage != null) return false;
  const choices = chunk.choices;
  if (!Array.isArray(choices) || choices.length !== 1) return false;
  const choice = choices[0] as Record<string, unknown> | null;
  if (choice === null || typeof choice !== 'object' || choice.index !== 0 || choice.finish_reason != null) return false;
  const delta = choice.delta as Record<string, unknown> | null;
  if (delta === null || typeof delta !== 'object' || typeof delta.content !== 'string') return false;
  for (const key in delta) if (key !== 'content') return false;
  return true;
}

/** Index of the quote that closes the string literal starting at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return -1;
}

/** The value of the JSON string literal whose body is text[start, end), or undefined when it is not one. */
function stringLiteralBody(text: string, start: number, end: number): string | undefined {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === BACKSLASH || c < 0x20) return decodeEscaped(text, start, end);
  }
  return text.slice(start, end);
}

function decodeEscaped(text: string, start: number, end: number): string | undefined {
  try {
    const value: unknown = JSON.parse(text.slice(start - 1, end + 1));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
