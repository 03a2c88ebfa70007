// Reasoning that a model writes into its answer text, as `<think>…</think>` (DeepSeek-R1, Qwen3 and most local
// models served without a reasoning parser), moved out of the content into the reasoning, chunk by chunk.
//
// Rules (a small state machine; each character is looked at a bounded number of times, no regular expression):
// - Only a block that opens the answer counts: `<think>` (or `<thinking>`) with nothing but whitespace before it,
//   or right after an earlier block closed. Once the answer has started, a `<think>` in it is text: a reply that
//   explains the tag, or a code block holding it, is shown as written.
// - A tag may arrive split across chunks (`<thi` + `nk>`): the undecided tail is held back, at most one tag's
//   length (and a bounded run of leading whitespace), until the next chunk decides it.
// - The whitespace between a closed block and the answer is dropped, so the answer does not start with blank lines.
// - At the end of the stream what was held back goes where it was heading; a block that never closed (the model ran
//   out of tokens while thinking) is all reasoning.

const OPEN_TAGS = ['<think>', '<thinking>'] as const;
const CLOSE_OF: Record<(typeof OPEN_TAGS)[number], string> = { '<think>': '</think>', '<thinking>': '</thinking>' };
/** Leading whitespace held while waiting to see whether a block opens; past it, the answer has started. */
const MAX_HELD_WHITESPACE = 4096;

export interface SplitText {
  content: string;
  reasoning: string;
}

type Mode = 'start' | 'think' | 'answer';

export class InlineReasoningSplitter {
  #mode: Mode = 'start';
  /** Text not yet decided: leading whitespace and the start of an opening tag, or the start of a closing tag. */
  #held = '';
  #close = '';
  /** A block has closed: whitespace before the answer is dropped. */
  #afterBlock = false;

  /** True once the answer text has started: every later chunk is content, unchanged. */
  get passThrough(): boolean {
    return this.#mode === 'answer';
  }

  /** Splits the next chunk of content. */
  push(text: string): SplitText {
    if (this.#mode === 'answer') return { content: text, reasoning: '' };
    const out: SplitText = { content: '', reasoning: '' };
    let rest = this.#held + text;
    this.#held = '';
    while (rest !== '') {
      rest = this.#mode === 'think' ? this.#thinking(rest, out) : this.#mode === 'start' ? this.#starting(rest, out) : ((out.content += rest), '');
    }
    return out;
  }

  /** The stream ended: what was held back, where it belongs. */
  end(): SplitText {
    const held = this.#held;
    this.#held = '';
    if (this.#mode === 'think') return { content: '', reasoning: held };
    if (this.#mode === 'start' && this.#afterBlock && isBlank(held)) return { content: '', reasoning: '' };
    return { content: held, reasoning: '' };
  }

  /** Before the answer: returns what is left to look at, having held or placed the rest. */
  #starting(text: string, out: SplitText): string {
    let i = 0;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i === text.length) {
      if (i > MAX_HELD_WHITESPACE) return this.#answer(text, out);
      this.#held = text;
      return '';
    }
    if (text.charCodeAt(i) === 0x3c /* < */) {
      for (const tag of OPEN_TAGS) {
        if (text.startsWith(tag, i)) {
          this.#mode = 'think';
          this.#close = CLOSE_OF[tag];
          return text.slice(i + tag.length);
        }
      }
      const tail = text.length - i;
      if (OPEN_TAGS.some((tag) => tail < tag.length && tag.startsWith(text.slice(i)))) {
        this.#held = text;
        return '';
      }
    }
    return this.#answer(this.#afterBlock ? text.slice(i) : text, out);
  }

  #answer(text: string, out: SplitText): string {
    this.#mode = 'answer';
    out.content += text;
    return '';
  }

  /** Inside a block: reasoning up to the closing tag; a possible start of it at the end is held. */
  #thinking(text: string, out: SplitText): string {
    const at = text.indexOf(this.#close);
    if (at >= 0) {
      out.reasoning += text.slice(0, at);
      this.#mode = 'start';
      this.#afterBlock = true;
      return text.slice(at + this.#close.length);
    }
    const keep = heldTail(text, this.#close);
    out.reasoning += text.slice(0, text.length - keep);
    this.#held = text.slice(text.length - keep);
    return '';
  }
}

/** The length of the longest end of `text` that is a proper start of `tag`. */
function heldTail(text: string, tag: string): number {
  for (let k = Math.min(tag.length - 1, text.length); k > 0; k--) {
    if (text.endsWith(tag.slice(0, k))) return k;
  }
  return 0;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** A whole text split at once (a non-streamed answer, a stored reply). */
export function splitInlineReasoning(text: string): SplitText {
  const splitter = new InlineReasoningSplitter();
  const first = splitter.push(text);
  const last = splitter.end();
  return { content: first.content + last.content, reasoning: first.reasoning + last.reasoning };
}
