// The end-to-end stage of `npm test`: packages the extension as `npm run package` does (the .vsix a user installs),
// then runs test/e2e in mocha. The suite installs that .vsix into a fresh code-server profile and drives the
// workbench in Chromium (see test/e2e/harness). Screenshots and logs go to .e2e/ (git-ignored).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCodeServer, ensureSystemPackages, PRODUCTION_BUILD_ENV, ROOT } from './host-cache.mjs';

const { version, name } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const vsix = join(ROOT, `${name}-${version}.vsix`);
const artifacts = join(ROOT, '.e2e');

ensureSystemPackages(['chromium']);
const { node, codeServerEntry } = ensureCodeServer();
rmSync(vsix, { force: true });
// Within `npm test`, the production build test.mjs made already becomes dist/ (the host stage, which needs the test
// build there, has run): `npm run package` without its build. Run alone, `npm run package` does it all.
const prebuilt = process.env[PRODUCTION_BUILD_ENV];
if (prebuilt) {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  cpSync(prebuilt, join(ROOT, 'dist'), { recursive: true });
}
const script = prebuilt ? 'package:vsix' : 'package';
const packaged = spawnSync('npm', ['run', '--silent', script], { cwd: ROOT, encoding: 'utf8' });
if (packaged.status !== 0 || !existsSync(vsix)) {
  process.stdout.write(`${packaged.stdout}\n${packaged.stderr}\nnpm run ${script} did not produce ${vsix}\ne2e: 0 passed, 1 failed\n`);
  process.exit(1);
}
// Only this run's screenshots and failure reports.
rmSync(artifacts, { recursive: true, force: true });
mkdirSync(artifacts, { recursive: true });

const result = spawnSync(node, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'e2e', 'out/test/e2e'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, E2E_ROOT: ROOT, E2E_VSIX: vsix, E2E_ARTIFACTS: artifacts, E2E_CODE_SERVER: codeServerEntry  },
});
process.exit(result.status ?? 1);
