// What the hostile-glob test runs inside a worker (test/util/inWorker.ts): one `applyTo` against one long path,
// counting the matcher's steps, so a matcher that backtracks is ended by the worker's timeout instead of freezing mocha.
import { DEFAULT_MATCH_STEPS } from '../../../src/chat/core/glob';
import { appliesTo } from '../../../src/chat/core/instructions';

/** Matches `glob` against `path` under the default budget; returns whether it applied and the steps it took. */
export function matchInstruction(glob: string, path: string): { applied: boolean; problems: string[]; steps: number } {
  const budget = { steps: DEFAULT_MATCH_STEPS };
  const problems: string[] = [];
  const applied = appliesTo([glob], [path], budget, problems);
  return { applied, problems, steps: DEFAULT_MATCH_STEPS - budget.steps };
}
