// What the Chats view does to saved sessions: rename, delete with undo, branch. Pure (no `vscode`): the open
// panels of this window are reached through OpenChats, so a session open here changes through its controller
// (which owns it while it is open) and one that is not changes through the store, which merges with any other
// window that has it open.
import type { ChatSession } from '../../chatProtocol/session';
import type { Clock } from '../../util/clock';
import { branchSession, cleanTitle, UndoableDeletes } from './historyModel';
import type { ChatSessionStore, RemovedSession } from './sessionStore';

/** How long a deletion can be undone. */
export const UNDO_MS = 30_000;

export interface OpenChat {
  readonly session: Readonly<ChatSession>;
  rename(title: string): Promise<void>;
}

export interface OpenChats {
  /** The session's chat if a panel of this window shows it. */
  find(id: string): OpenChat | undefined;
  /** Closes the session's panel in this window (if any) once what it holds is saved. */
  close(id: string): Promise<void>;
}

export type RenameResult = 'renamed' | 'empty' | 'missing';
export type UndoResult = 'restored' | 'expired' | 'exists';

export class ChatHistoryActions {
  private readonly deletes: UndoableDeletes<RemovedSession>;

  constructor(
    private readonly store: Pick<ChatSessionStore, 'peek' | 'save' | 'remove' | 'restore' | 'flush'>,
    private readonly open: OpenChats,
    private readonly clock: Clock,
    private readonly newId: () => string,
    undoWindowMs = UNDO_MS,
  ) {
    this.deletes = new UndoableDeletes(clock, undoWindowMs);
  }

  /** The session as this window knows it best: the open panel's copy, else the saved one. */
  async session(id: string): Promise<Readonly<ChatSession> | undefined> {
    return this.open.find(id)?.session ?? (await this.store.peek(id));
  }

  async rename(id: string, text: string): Promise<RenameResult> {
    const title = cleanTitle(text);
    if (title === undefined) return 'empty';
    const open = this.open.find(id);
    if (open) {
      await open.rename(title);
      return 'renamed';
    }
    const session = await this.store.peek(id);
    if (!session) return 'missing';
    // updatedAt stays: renaming does not move a chat to the top of the list.
    await this.store.save({ ...session, title });
    return 'renamed';
  }

  /** Deletes the session's files; the token undoes it within the undo window. Undefined when nothing was deleted. */
  async delete(id: string): Promise<number | undefined> {
    await this.open.close(id);
    await this.store.flush();
    const removed = await this.store.remove(id);
    return removed ? this.deletes.remember(removed) : undefined;
  }

  async undo(token: number): Promise<UndoResult> {
    const removed = this.deletes.take(token);
    if (!removed) return 'expired';
    return (await this.store.restore(removed)) ? 'restored' : 'exists';
  }

  /** Saves a new session holding `id`'s turns up to `turnId`, and returns it. */
  async branch(id: string, turnId: string): Promise<ChatSession | undefined> {
    const source = await this.session(id);
    const copy = source && branchSession(source, turnId, this.newId(), this.clock.now());
    if (!copy) return undefined;
    await this.store.save(copy);
    return copy;
  }

  dispose(): void {
    this.deletes.dispose();
  }
}
