// `npm test`: build, then (a) mocha in Node for everything that does not import vscode, (b) the browser
// tests in Chromium, (c) the suite inside a real VS Code extension host, (d) the end-to-end suite: the packaged
// .vsix installed in code-server and driven in Chromium. `--only unit|browser|host|e2e` runs one.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureNode24, ensureSystemPackages, ROOT } from './host-cache.mjs';

const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
const wanted = (stage) => !only || only === stage;

function run(cmd, args, { capture } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (b) => {
      out += b;
      process.stdout.write(b);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * Adds up every "<label>: N passed, N failed" line (the host stage prints one per run). No line, or a stage that
 * failed without reporting a failed test, counts as one failure.
 */
function counts(label, { out, code }) {
  const lines = [...out.matchAll(new RegExp(`^${label}: (\\d+) passed, (\\d+) failed`, 'gm'))];
  const sum = lines.reduce((total, m) => ({ passed: total.passed + Number(m[1]), failed: total.failed + Number(m[2]) }), { passed: 0, failed: 0 });
  if (lines.length === 0 || (code !== 0 && sum.failed === 0)) sum.failed += 1;
  return sum;
}

const started = Date.now();
const results = [];
if ((await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet'])).code !== 0) process.exit(1);
const node = ensureNode24();
if (wanted('browser') || wanted('host') || wanted('e2e')) ensureSystemPackages(['chromium']);

if (wanted('unit')) {
  results.push(['unit', counts('unit', await run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'unit', 'out/test/unit'], { capture: true }))]);
}
if (wanted('browser')) {
  results.push(['browser', counts('browser', await run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'browser', 'out/test/browser'], { capture: true }))]);
}
if (wanted('host')) {
  results.push(['host', counts('host', await run(node, [join(ROOT, 'scripts', 'run-host-tests.mjs')], { capture: true }))]);
}
if (wanted('e2e')) {
  results.push(['e2e', counts('e2e', await run(process.execPath, [join(ROOT, 'scripts', 'run-e2e.mjs')], { capture: true }))]);
}

const passed = results.reduce((n, [, r]) => n + r.passed, 0);
const failed = results.reduce((n, [, r]) => n + r.failed, 0);
console.log(`\n${results.map(([label, r]) => `${label} ${r.passed}/${r.passed + r.failed}`).join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
