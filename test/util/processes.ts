// Real child processes in tests: ending one as a crash would, without waiting on one that has already gone.
import type { ChildProcess } from 'node:child_process';

/** SIGKILLs `child` (no clean-up runs in it, as when a window dies) and resolves once it has exited. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
