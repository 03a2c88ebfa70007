// What the user is told when a chat cannot be saved before its request (read-only folder, full disk): nothing was
// sent, which folder, why in words, and what to do. Loaded with the chat panels, not at activation.

const REASONS: Readonly<Record<string, string>> = {
  EROFS: 'the folder is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/** The chat could not be written before its request: nothing was sent. Names the folder and why, in words. */
export class ChatNotSavedError extends Error {
  readonly reason: string;

  constructor(
    readonly folder: string,
    cause: unknown,
  ) {
    const reason = REASONS[(cause as NodeJS.ErrnoException | undefined)?.code ?? ''] ?? (cause instanceof Error ? cause.message : String(cause)).slice(0, 200);
    super(`Model Gateway could not save the chat in ${folder} (${reason}), so nothing was sent. Your message is back in the input box: free some disk space or make the folder writable, then send it again.`);
    this.reason = reason;
  }
}
