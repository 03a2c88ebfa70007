// What the hostile-glob test runs inside a worker (test/util/inWorker.ts): one `applyTo` against one long path,
// timed where it runs, so a matcher that backtracks is ended by the worker's timeout instead of freezing mocha.
import { performance } from 'node:perf_hooks';
import { applicable } from '../../../src/chat/core/instructions';

/** Matches an instruction file whose `applyTo` is `glob` against `path`; returns whether it applied and the time taken. */
export function matchInstruction(glob: string, path: string): { applied: boolean; problems: string[]; ms: number } {
  const started = performance.now();
  const { files, problems } = applicable([{ label: 'x.instructions.md', location: '/w/x', scoped: true, text: `---\napplyTo: "${glob}"\n---\nRules.\n` }], [path]);
  return { applied: files.length === 1, problems, ms: performance.now() - started };
}
