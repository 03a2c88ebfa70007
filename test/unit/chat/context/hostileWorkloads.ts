// Work for the hang detector (test/util/inWorker.ts): each export runs a parser of repository content on hostile
// input inside a worker thread, where a runaway regex can be stopped. Not a test file: mocha does not load it.
import { IgnoreRules } from '../../../../src/chat/core/context/gitignore';

/** How many of `paths` the .gitignore `content` hides, applied at the root and again from a nested folder. */
export function countIgnored(content: string, paths: readonly string[]): number {
  const rules = new IgnoreRules();
  rules.add('', content);
  rules.add('a', content);
  return paths.filter((path) => rules.ignores(path)).length;
}
