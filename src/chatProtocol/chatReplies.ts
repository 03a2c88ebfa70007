// The chat's requests' replies (`send`, `compare` and `resolveOverflow` in messages.ts): each request's typed reply,
// and the check the page runs on it against the request it answers (webviewProtocol.ts).
import { isRecord, type Cleaner } from './validate';

/**
 * The reply to `send`: sent (or run as a slash command), or not, and why: a reply is still running (`busy`), or the
 * chat would overflow the model's context window (`heldBack`: the context warning says what can be done). The page
 * gives a message that was not sent back to the input.
 */
export type SendReply = { sent: true } | { sent: false; why: 'busy' | 'heldBack' };
/** The reply to `compare`: started, or not (cancelled, a reply running, too many models, not saved). */
export interface CompareReply {
  started: boolean;
}
/** The reply to `resolveOverflow`: whether anything was sent (a branch or a cancel sends nothing). */
export interface OverflowReply {
  sent: boolean;
}
export interface ChatReplies {
  send: SendReply;
  sendPrompt: SendReply;
  compare: CompareReply;
  resolveOverflow: OverflowReply;
}
export type ChatReply = ChatReplies[keyof ChatReplies];

const SEND_WHY: readonly string[] = ['busy', 'heldBack'];
const flag = (field: string) => (v: unknown) => (isRecord(v) && Object.keys(v).length === 1 && typeof v[field] === 'boolean' ? { [field]: v[field] } : undefined);

const sendReply: Cleaner<SendReply> = (v) => {
  if (!isRecord(v)) return undefined;
  if (v.sent === true && Object.keys(v).length === 1) return { sent: true };
  return v.sent === false && typeof v.why === 'string' && SEND_WHY.includes(v.why) && Object.keys(v).length === 2 ? { sent: false, why: v.why as 'busy' | 'heldBack' } : undefined;
};

/** Each request's reply, checked by the page against the request it answers. */
export const REPLIES: { [K in keyof ChatReplies]: Cleaner<ChatReplies[K]> } = {
  send: sendReply,
  sendPrompt: sendReply,
  compare: flag('started') as Cleaner<CompareReply>,
  resolveOverflow: flag('sent') as Cleaner<OverflowReply>,
};
