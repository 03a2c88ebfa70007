// How `npm test` judges a stage from its output, and what narrowed the run. Pure functions: scripts/test.mjs uses
// them and test/unit/scripts/stageReport.test.ts checks them.

/** Environment variables that run fewer tests than CI's whole set. */
export const NARROWING_VARIABLES = ['MOCHA_GREP', 'MODEL_GATEWAY_HOST_GREP', 'MODEL_GATEWAY_HOST_ONLY'];

/** Every setting of this run that shrinks the test set, as `NAME=value` (and `--only stage`). */
export function narrowing(env, argv) {
  const found = NARROWING_VARIABLES.filter((name) => env[name] !== undefined && env[name] !== '').map((name) => `${name}=${env[name]}`);
  const only = argv.indexOf('--only');
  if (only >= 0) found.push(`--only ${argv[only + 1] ?? '(missing)'}`);
  return found;
}

/** The CI systems this project runs on set CI=true (and .ci/run exports it). */
export function isCI(env) {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/** The loud line printed before the run and repeated in the summary. */
export function narrowedLine(settings) {
  return `!!! NARROWED: this run is not the whole test set: narrowed by ${settings.join(', ')} !!!`;
}

const COUNT_LINE = /^([\w-]+): (\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/;

/**
 * Adds up every "<label>: N passed, N failed[, N skipped]" line of a stage's output (the host stage prints one per
 * run). A stage counts one extra failure, with the reason in `problems`, when it printed no such line, when a line
 * says it ran nothing (0 passed, 0 failed), or when it exited non-zero without reporting a failed test.
 */
export function stageCounts(label, out, exitCode) {
  const sum = { passed: 0, failed: 0, skipped: 0, problems: [] };
  let lines = 0;
  let empty = 0;
  for (const line of out.split('\n')) {
    const match = COUNT_LINE.exec(line);
    if (!match || match[1] !== label) continue;
    lines++;
    const [passed, failed, skipped] = [Number(match[2]), Number(match[3]), Number(match[4] ?? 0)];
    sum.passed += passed;
    sum.failed += failed;
    sum.skipped += skipped;
    if (passed + failed === 0) empty++;
  }
  if (lines === 0) sum.problems.push(`${label}: printed no "${label}: N passed, N failed" line`);
  else if (empty > 0) sum.problems.push(`${label}: ${empty === lines ? 'ran nothing' : `${empty} of its ${lines} runs ran nothing`} (0 passed, 0 failed)`);
  if (exitCode !== 0 && sum.failed === 0 && sum.problems.length === 0) sum.problems.push(`${label}: exited with ${exitCode} without a failed test`);
  sum.failed += sum.problems.length;
  return sum;
}

/**
 * The verdict of `npm run test:e2e:stress` (scripts/e2e-stress.mjs): a line per run (its counts, its time, whether the
 * busy core was still spinning), and ok only when all `wanted` runs ran, each passed, and the core was busy throughout.
 * `runs`: [{ counts: stageCounts(...), seconds, spinning }].
 */
export function stressVerdict(runs, wanted) {
  const lines = runs.map((run, i) => {
    const problems = [...run.counts.problems, ...(run.spinning ? [] : ['the busy process had stopped, so this was not a stress run'])];
    return `e2e stress run ${i + 1} of ${wanted}: ${run.counts.passed} passed, ${run.counts.failed} failed in ${run.seconds} s${problems.length ? ` (${problems.join('; ')})` : ''}`;
  });
  const bad = runs.filter((run) => run.counts.failed > 0 || !run.spinning).length;
  const ok = runs.length === wanted && bad === 0;
  lines.push(ok ? `e2e stress: all ${wanted} runs passed with one core busy` : `e2e stress: FAILED: ${bad} of ${runs.length} runs failed${runs.length < wanted ? `, ${wanted - runs.length} did not run` : ''}`);
  return { lines, ok };
}
