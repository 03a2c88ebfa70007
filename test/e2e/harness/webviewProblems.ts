// The webview problems (uncaught exceptions, CSP violations) the session's driver saw (scripts/webviewProblems.mjs),
// turned into failures of the step during which they happened.
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

export interface WebviewProblem {
  kind: string;
  text: string;
  url: string;
}

interface Watcher {
  watchWebviewProblems(target: Page | BrowserContext, onProblem: (problem: WebviewProblem) => void): Promise<void>;
  describeProblems(problems: WebviewProblem[]): string;
}

/** The runner's module (an ES module; Node 24, which runs the tests, can require it). */
const watcher = (): Watcher => require(join(process.env.E2E_ROOT!, 'scripts', 'webviewProblems.mjs')) as Watcher;

/** Problems seen and not yet claimed by a test. */
const seen: WebviewProblem[] = [];

export function watchWebviews(context: BrowserContext): Promise<void> {
  return watcher().watchWebviewProblems(context, (problem) => seen.push(problem));
}

/** Takes the problems seen so far (a test that causes some on purpose claims them). */
export function takeWebviewProblems(): WebviewProblem[] {
  return seen.splice(0);
}

/** In an afterEach hook: fails the test that just ran if a webview reported a problem meanwhile. */
export function checkWebviewProblems(hook: Mocha.Context): void {
  const problems = takeWebviewProblems();
  if (problems.length === 0 || hook.currentTest?.state === 'failed') return;
  (hook.test as Mocha.Hook | undefined)?.error(new Error(`a webview reported ${problems.length} problem(s) during this step:\n${watcher().describeProblems(problems)}`));
}
