// Entry point loaded by the extension host for the tests in test/host/suite (both in code-server and under
// @vscode/test-electron): it runs mocha inside the host, where `require('vscode')` is the real API.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha = require('mocha');
import { describeProblems, takeWebviewProblems, type WebviewProblem } from './webviewProblems';

/** What other extensions' fetch depends on; captured when this file loads, before any test runs a request. */
export function processWideFetchState() {
  const slots = globalThis as unknown as Record<symbol, unknown>;
  return { fetch: globalThis.fetch, dispatcher1: slots[Symbol.for('undici.globalDispatcher.1')], dispatcher2: slots[Symbol.for('undici.globalDispatcher.2')] };
}
(globalThis as Record<string, unknown>).__modelGatewayFetchStateAtLoad ??= processWideFetchState();

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/**
 * Webview problems found when the detector came in and not fixed yet: each is printed on every run, matched to
 * its test and its text exactly, so nothing else slips through. Remove an entry with its fix.
 */
const KNOWN_PROBLEMS: Array<{ test: RegExp; problem: RegExp; why: string }> = [];

function isKnown(test: string, problem: WebviewProblem): boolean {
  const known = KNOWN_PROBLEMS.find((k) => k.test.test(test) && k.problem.test(`${problem.kind}: ${problem.text}`));
  if (known) console.log(`    !!! KNOWN webview problem, not failed (${known.why}): ${problem.kind}: ${problem.text.slice(0, 200)}`);
  return known !== undefined;
}

export function run(): Promise<void> {
  return runSuite(path.join(__dirname, 'suite'));
}

/** Runs the mocha tests under `dir` in this extension host (the untrusted-folder suite has its own folder). */
export function runSuite(dir: string): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec', forbidOnly: true });
  const grep = process.env.MODEL_GATEWAY_HOST_GREP;
  console.log('--- model-gateway host suite ---');
  if (grep) {
    // Not "host: …": the runner takes that for the suite's closing line.
    console.log(`!!! the host suite is narrowed by MODEL_GATEWAY_HOST_GREP=${grep} !!!`);
    mocha.grep(grep);
  }
  // An uncaught exception or a CSP violation in a webview fails the test during which the driver saw it.
  mocha.suite.afterEach(function () {
    const problems = takeWebviewProblems().filter((problem) => !isKnown(this.currentTest?.title ?? '', problem));
    if (problems.length === 0 || this.currentTest?.state === 'failed') return;
    (this.test as Mocha.Hook | undefined)?.error(new Error(`a webview reported ${problems.length} problem(s) during this test:\n${describeProblems(problems)}`));
  });
  for (const file of findTests(dir)) mocha.addFile(file);
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // The plain closing line lets CI count the host suite like the Node one.
      const skipped = runner.stats?.pending ? `, ${runner.stats.pending} skipped` : '';
      console.log(`host: ${runner.stats?.passes ?? 0} passed, ${failures} failed${skipped}`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
  });
}
