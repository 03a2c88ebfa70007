// How much text one chat reply may hold. A stream that never ends would otherwise grow a string until V8's limit
// and fail with a raw RangeError, after holding hundreds of MB; at the cap the text so far is kept and the stream
// fails with a clear error. No `vscode` import.

/** The most text one reply may hold, in characters: content, reasoning, refusal and tool-call arguments together. */
export const MAX_REPLY_CHARS = 32 * 1024 * 1024;

/**
 * What a new tool call or choice costs, in characters: a stream that opens a new (empty) one with every chunk would
 * otherwise grow the heap without adding any text.
 */
export const ENTRY_CHARS = 64;

/** Characters left for a reply, shared by all of its choices. */
export class ReplyBudget {
  exceeded = false;
  room: number;
  constructor(readonly limit: number) {
    this.room = limit;
  }

  /** `text`, or as much of it as fits (never half a surrogate pair); marks the budget exceeded when it is cut. */
  take(text: string): string {
    if (text.length <= this.room) {
      this.room -= text.length;
      return text;
    }
    this.exceeded = true;
    let end = this.room;
    if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    this.room = 0;
    return text.slice(0, end);
  }

  /** Takes ENTRY_CHARS for a new tool call or choice; false (and the budget exceeded) when they do not fit. */
  takeEntry(): boolean {
    if (this.room < ENTRY_CHARS) {
      this.exceeded = true;
      this.room = 0;
      return false;
    }
    this.room -= ENTRY_CHARS;
    return true;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
