// Runs the mocha files under the given folders and ends with a plain "<label>: N passed, N failed" line.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const [label, ...dirs] = process.argv.slice(2);
const grep = process.env.MOCHA_GREP;

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.js') ? [full] : [];
  });
}

// The end-to-end flows skip what depends on a failed step themselves (test/e2e/harness/suite.ts): no bail.
const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, reporter: 'spec', color: !process.env.CI, forbidOnly: true });
if (grep) {
  console.log(`!!! ${label}: narrowed by MOCHA_GREP=${grep} !!!`);
  mocha.grep(grep);
}
const files = dirs.flatMap(findTests).sort();
for (const file of files) mocha.addFile(path.resolve(file));
if (files.length === 0) {
  console.log(`${label}: no test files in ${dirs.join(', ')}`);
  console.log(`${label}: 0 passed, 1 failed`);
  process.exit(1);
}
const runner = mocha.run((failures) => {
  const skipped = runner.stats.pending ? `, ${runner.stats.pending} skipped` : '';
  console.log(`${label}: ${runner.stats.passes} passed, ${failures} failed${skipped}`);
  process.exitCode = failures > 0 ? 1 : 0;
  // Open handles left by a faulty test must not hang CI; mocha has already reported everything.
  setTimeout(() => process.exit(process.exitCode), 2000).unref();
});
