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

function counts(label, out) {
  const m = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed`, 'm').exec(out);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : { passed: 0, failed: 1 };
}

const started = Date.now();
const results = [];
if ((await run(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet'])).code !== 0) process.exit(1);
const node = ensureNode24();
if (wanted('browser') || wanted('host') || wanted('e2e')) ensureSystemPackages(['chromium']);

if (wanted('unit')) {
  const { out } = await run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'unit', 'out/test/unit'], { capture: true });
  results.push(['unit', counts('unit', out)]);
}
if (wanted('browser')) {
  const { out } = await run(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'browser', 'out/test/browser'], { capture: true });
  results.push(['browser', counts('browser', out)]);
}
if (wanted('host')) {
  const { out } = await run(node, [join(ROOT, 'scripts', 'run-host-tests.mjs')], { capture: true });
  results.push(['host', counts('host', out)]);
}
if (wanted('e2e')) {
  const { out } = await run(process.execPath, [join(ROOT, 'scripts', 'run-e2e.mjs')], { capture: true });
  results.push(['e2e', counts('e2e', out)]);
}

const passed = results.reduce((n, [, r]) => n + r.passed, 0);
const failed = results.reduce((n, [, r]) => n + r.failed, 0);
console.log(`\n${results.map(([label, r]) => `${label} ${r.passed}/${r.passed + r.failed}`).join(', ')} in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
