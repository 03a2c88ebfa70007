// The one catch around every command (the way VS Code's git extension wraps each of its commands): a failure that
// escapes a handler is worded once through the error vocabulary (errorAdvice.ts) and shown with the actions that fix
// it, instead of VS Code's "Running the contributed command … failed" with the raw message. A cancellation is
// silent: the user asked for it.
import { adviceFor, isCancellation, type ErrorAdvice } from './errorAdvice';

export interface CommandFailureReport {
  /** Shows the worded failure, with its actions, to the user. */
  advise(advice: ErrorAdvice): void;
  /** Writes what escaped to the log (with the command id, for a bug report). */
  log(message: string): void;
}

/**
 * `handler` run so that nothing escapes it: what it returns, or undefined after a failure was reported. The command
 * resolves either way, so VS Code adds no message of its own.
 */
export function guardCommand(id: string, handler: (...args: any[]) => unknown, report: () => CommandFailureReport): (...args: unknown[]) => Promise<unknown> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (isCancellation(error)) return undefined;
      const to = report();
      to.log(`Command ${id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      to.advise(adviceFor(error));
      return undefined;
    }
  };
}
