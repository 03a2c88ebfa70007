// Saves one chat for its controller: the session goes to the store, and turns another window wrote meanwhile are
// taken in (and the transcript shown again). Before a request leaves, the save must succeed: when it cannot (a
// read-only folder, a full disk) nothing is sent, and the send is taken back whole: the chat as it was, and what
// the user typed back in the input (the store has told the user which folder, and why).
import type { Attachment } from '../../chatProtocol/attachments';
import type { ChatSession, Turn } from '../../chatProtocol/session';
import type { ChatEvent } from './chatEvent';
import { ChatNotSavedError } from './notSaved';
import { baseOf, mergeSessions } from './sessionMerge';
import type { ChatSessionStore } from './sessionStore';

/** What the user typed, to give back when it was not sent. */
export interface Draft {
  text: string;
  attachments: readonly Attachment[];
}

/** The chat as it was before a send changed it. */
export interface SendUndo {
  turns: Turn[];
  title: string;
  updatedAt: number;
  draft?: Draft;
}

export class ChatSaver {
  constructor(
    private readonly state: ChatSession,
    private readonly store: ChatSessionStore,
    private readonly fire: (event: ChatEvent) => void,
    private readonly disposed: () => boolean,
  ) {}

  /** Taken before a send changes the chat. */
  undoPoint(draft?: Draft): SendUndo {
    return { turns: this.state.turns.slice(), title: this.state.title, updatedAt: this.state.updatedAt, draft };
  }

  /** Not saved, so not sent: the chat goes back to what it was, and what the user typed to the input. */
  takeBack(undo: SendUndo): false {
    Object.assign(this.state, { turns: undo.turns, title: undo.title, updatedAt: undo.updatedAt });
    if (this.disposed()) return false;
    this.fire({ type: 'title', title: undo.title });
    this.fire({ type: 'reloaded' });
    if (undo.draft) this.fire({ type: 'notSent', ...undo.draft });
    return false;
  }

  /** Saves before a request leaves: false (the user told) when the chat could not be written. */
  saveBeforeSend(pinned?: string): Promise<boolean> {
    return this.save(pinned, true).then(
      () => true,
      () => false,
    );
  }

  /**
   * Saves the session; turns another window added meanwhile are taken in, and the transcript shown again. `pinned`
   * is a reply this window is streaming (always kept as ours). `beforeSend`: a failure rejects.
   */
  async save(pinned?: string, beforeSend = false): Promise<void> {
    const sent = baseOf(this.state);
    const merged = await (beforeSend ? this.store.saveBeforeSend(this.state, (error, folder) => new ChatNotSavedError(folder, error)) : this.store.save(this.state));
    if (!merged || this.disposed()) return;
    const next = mergeSessions(sent, this.state, merged, pinned);
    const titleChanged = next.title !== this.state.title;
    Object.assign(this.state, { title: next.title, settings: next.settings, createdAt: next.createdAt, updatedAt: next.updatedAt, turns: next.turns });
    if (titleChanged) this.fire({ type: 'title', title: this.state.title });
    this.fire({ type: 'reloaded' });
  }
}
