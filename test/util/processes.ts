// Real child processes in tests: ending one as a crash would, without waiting on one that has already gone.
import { fork, type ChildProcess } from 'node:child_process';

/** SIGKILLs `child` (no clean-up runs in it, as when a window dies) and resolves once it has exited. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Runs a compiled script as a child process (a window of its own) and resolves with its exit code. */
export function runScript(script: string, args: readonly string[]): Promise<number | null> {
  const child = fork(script, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.on('exit', resolve));
}
