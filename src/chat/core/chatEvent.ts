// What a chat session reports of every change (the panel turns each into a webview message). Apart from the
// controller so the saver, which reports a message it could not save, names it without importing the controller.
import type { Attachment } from '../../chatProtocol/attachments';
import type { AssistantTurn, ChatSettings, MediaTurn, Turn, TurnDelta } from '../../chatProtocol/session';

export type ChatEvent =
  | { type: 'turnAdded'; turn: Turn }
  | { type: 'turnUpdated'; turn: MediaTurn }
  | { type: 'delta'; delta: TurnDelta }
  | { type: 'turnFinished'; turn: AssistantTurn }
  /** The reply's request waits for the gateway's rate limit, `waitMs` more (null: it was sent); Stop cancels it. */
  | { type: 'waiting'; turnId: string; waitMs: number | null; /** a long wait: the user may send it now */ sendAnyway: boolean }
  | { type: 'turnsRemoved'; fromIndex: number }
  | { type: 'settings'; settings: ChatSettings }
  | { type: 'title'; title: string }
  /** Another window's changes to this chat were merged in: the transcript should be shown again. */
  | { type: 'reloaded' }
  /** A message could not be saved, so it was not sent: its text (and context) go back to the input. */
  | { type: 'notSent'; text: string; attachments: readonly Attachment[] };
