// What the chat session store lists, gives back on delete, reports to its owner, and is built with.
import type { Clock } from '../../util/clock';

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The model of the session's settings ('' before one is chosen). */
  model: string;
  /** The user's questions in it. */
  turns: number;
}

/** A deleted session's files, exactly as they were, so the deletion can be undone. */
export interface RemovedSession {
  readonly summary: SessionSummary;
  readonly files: ReadonlyMap<string, string>;
}

/** What the store tells its owner; failures are reported, never thrown. */
export interface StoreReporter {
  error(error: unknown, what: string): void;
  /** A session file could not be read at all and was moved aside (to `movedTo`, in the same folder). */
  corrupt(file: string, movedTo: string, reason: string): void;
  /** A session file had turns that were repaired or dropped; the rest of the session was kept. */
  repaired(sessionId: string, repaired: number, dropped: number): void;
  /** A chat could not be saved before a request, so the request was not sent: `failure` says so to the user. */
  notSaved(failure: Error): void;
}

export interface StoreOptions {
  clock?: Clock;
  /** This extension host's process id (named in temp and lock files). */
  pid?: number;
  isAlive?: (pid: number) => boolean;
  /** How long a lock may go unrefreshed before another window breaks it (fileLock.ts). */
  lockStaleMs?: number;
  report?: Partial<StoreReporter>;
}

/**
 * The session file's format. 1: every file before the number was kept up to date (media turns, speech and image
 * attachments were added under it, so what a 1 holds depends on its writer). 2: user turns with text and image
 * attachments, assistant turns, and media turns of the kinds image, video and speech. A file of a lower format is read
 * and written as this one; a file of a higher one is read as far as this version understands it and copied before
 * this version first rewrites it. Raise it whenever a file may hold what this version's reader would leave out.
 */
export const FORMAT = 2;
/** Files this version can read: from the first format on. */
export const OLDEST_FORMAT = 1;
/** The index's own format (its summaries have not changed). */
export const INDEX_FORMAT = 1;
