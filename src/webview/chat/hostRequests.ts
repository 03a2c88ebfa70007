// The chat page's requests to the host (Send, Compare, an overflow's way out), each answered with its typed reply
// (chatProtocol/messages.ts). What the host did not carry out goes back to the input: the page is told so in the
// reply, never by a draft.
import { REPLIES, type ChatReplies, type OverflowChoice, type WebviewMessage } from '../../chatProtocol/messages';
import { PageRequests, type ReplyMessage } from '../../chatProtocol/webviewProtocol';

export interface RequestsHost {
  post(message: WebviewMessage): void;
  /** Puts text back in the input (appended to what is there). */
  giveBack(text: string): void;
  notify(text: string): void;
}

export class HostRequests {
  private readonly pending: PageRequests<ChatReplies>;

  constructor(private readonly host: RequestsHost) {
    this.pending = new PageRequests<ChatReplies>((message) => host.post(message as WebviewMessage), REPLIES);
  }

  /** Settles the request a `reply` answers. */
  settle(message: ReplyMessage<unknown>): void {
    this.pending.settle(message);
  }

  /**
   * A message from the input: not sent (a reply running, or held back: the context warning says why), it comes back.
   * A prompt file's expansion goes as `sendPrompt` (never read as a command), and what comes back is what was typed,
   * not the file's text, which the next Send would read as typed.
   */
  async send(text: string, prompt?: { typed: string }): Promise<void> {
    const answer = prompt ? await this.pending.request('sendPrompt', { text }) : await this.pending.request('send', { text });
    const reply = 'reply' in answer ? answer.reply : undefined;
    if (reply?.sent) return;
    this.host.giveBack(prompt ? prompt.typed : text);
    if (reply?.why === 'busy') this.host.notify('Not sent: a reply is still running.');
  }

  /** Compare: not started (cancelled, a reply running, the chat not saved), the question comes back. */
  async compare(text: string): Promise<void> {
    const answer = await this.pending.request('compare', { text, models: [] });
    if (!('reply' in answer) || !answer.reply.started) this.host.giveBack(text);
  }

  /** An overflow's way out; `text` is what it took from the input, which comes back when nothing was sent. */
  async resolveOverflow(choice: OverflowChoice, text: string): Promise<void> {
    const answer = await this.pending.request('resolveOverflow', { choice, text });
    if (choice === 'newest' && text.trim() !== '' && !('reply' in answer && answer.reply.sent)) this.host.giveBack(text);
  }
}
