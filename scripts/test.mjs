// `npm test`: build, then (a) mocha in Node for everything that does not import vscode, (b) the browser
// tests in Chromium, (c) the suite inside a real VS Code extension host, (d) the end-to-end suite: the packaged
// .vsix installed in code-server and driven in Chromium. `--only unit|browser|host|e2e` runs one.
// Anything that narrows the run (--only, a grep) is announced loudly, repeated in the summary, and refused under CI.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNode24, ensureSystemPackages, PRODUCTION_BUILD_ENV, ROOT } from './host-cache.mjs';
import { isCI, narrowedLine, narrowing, stageCounts } from './stageReport.mjs';

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const wanted = (stage) => !only || only === stage;

function run(cmd, args, { capture, echo = true } = {}) {
  const begun = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (b) => {
      out += b;
      if (echo) process.stdout.write(b);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, out, seconds: Math.round((Date.now() - begun) / 1000) }));
  });
}

const narrowedBy = narrowing(process.env, process.argv);
if (narrowedBy.length > 0) {
  console.log(narrowedLine(narrowedBy));
  if (isCI(process.env)) {
    console.log('CI must run the whole test set: unset these (or CI) to run it.');
    process.exit(2);
  }
}

// Each stage's wall time goes into the summary: CI's fresh-clone run has a 15-minute limit to watch.
function counts(label, { out, code, seconds }) {
  const sum = { ...stageCounts(label, out, code), seconds };
  for (const problem of sum.problems) console.log(`FAILED STAGE ${problem}`);
  return sum;
}

const started = Date.now();
const results = [];
if ((await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet'])).code !== 0) process.exit(1);
// The production build, once: the unit tests check its bundles (activationBundle.test.ts) and the e2e stage packages
// it (run-e2e.mjs). Each builds it itself when run without this variable.
if (wanted('unit') || wanted('e2e')) {
  const production = join(ROOT, 'out', 'production');
  const args = ['--production', '--quiet', '--dist', production, '--metafile', join(production, 'meta.json')];
  mkdirSync(production, { recursive: true });
  if ((await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), ...args])).code !== 0) process.exit(1);
  process.env[PRODUCTION_BUILD_ENV] = production;
}
const node = ensureNode24();
if (wanted('browser') || wanted('host') || wanted('e2e')) ensureSystemPackages(['chromium']);
// A fresh clone has no VS Code server yet: install it (minutes of npm and native rebuilds) while the unit and browser
// stages run, its output held back so theirs stays readable. Only this one process builds the cache.
const hostCache = wanted('host') || wanted('e2e') ? prepareHostCache() : undefined;

function prepareHostCache() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'host-cache.mjs'), 'all'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

async function hostCacheReady() {
  const waitFrom = Date.now();
  const { code, out } = await hostCache;
  // How long the host stage waited for the VS Code server install after the unit and browser stages ended.
  console.log(`host cache ready ${Math.round((Date.now() - started) / 1000)} s into the run (waited ${Math.round((Date.now() - waitFrom) / 1000)} s)`);
  if (code === 0) return true;
  process.stdout.write(out);
  console.log(`FAILED STAGE host cache: scripts/host-cache.mjs exited with ${code}`);
  return false;
}

// The unit and browser stages run side by side, one per core; the browser stage's output is printed when it ends.
const unitRun = wanted('unit') ? run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'unit', 'out/test/unit'], { capture: true }) : undefined;
const browserRun = wanted('browser') ? run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'browser', 'out/test/browser'], { capture: true, echo: !unitRun }) : undefined;
if (unitRun) results.push(['unit', counts('unit', await unitRun)]);
if (browserRun) {
  const browser = await browserRun;
  if (unitRun) process.stdout.write(browser.out);
  results.push(['browser', counts('browser', browser)]);
}
if (hostCache && !(await hostCacheReady())) process.exit(1);
if (wanted('host')) {
  results.push(['host', counts('host', await run(node, [join(ROOT, 'scripts', 'run-host-tests.mjs')], { capture: true }))]);
}
if (wanted('e2e')) {
  results.push(['e2e', counts('e2e', await run(process.execPath, [join(ROOT, 'scripts', 'run-e2e.mjs')], { capture: true }))]);
}

const passed = results.reduce((n, [, r]) => n + r.passed, 0);
const failed = results.reduce((n, [, r]) => n + r.failed, 0);
const skipped = results.reduce((n, [, r]) => n + r.skipped, 0);
console.log(`\n${results.map(([label, r]) => `${label} ${r.passed}/${r.passed + r.failed} (${r.seconds} s)`).join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`);
for (const [, r] of results) for (const problem of r.problems) console.log(`FAILED STAGE ${problem}`);
if (narrowedBy.length > 0) console.log(narrowedLine(narrowedBy));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
