// What the packaged extension hands to every other installed extension: `vscode.extensions.getExtension(id).exports`,
// read by the probe extension (test/e2e/probe) installed beside it. The test build exports hooks into the key,
// the stores and the connection (TEST_BUILD in scripts/build.mjs); the package a user installs must export none of
// them: no function, no object with a class behind it, no secret storage or memento, no copy of the key.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXTENSION_ID } from './harness/session';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';

interface ProbeReport {
  found: boolean;
  copies: number;
  isActive: boolean;
  activationError?: string;
  extensionPath?: string;
  exportsType: string;
  sameAsProperty: boolean;
  findings: string[];
  control: string[];
}

describe('e2e 1b: what the packaged extension exports', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('exports', ['firstRun']);

  it('exports nothing that reaches the key or the stores, and runs from the installed .vsix', async () => {
    rmSync(e.s.probeReport, { force: true });
    await e.wb.runCommand('E2E Probe: Describe Model Gateway Exports');
    await until(() => existsSync(e.s.probeReport), 'the probe to write its report');
    const report = JSON.parse(readFileSync(e.s.probeReport, 'utf8')) as ProbeReport;
    assert.equal(report.found, true, 'the probe sees the extension');
    assert.equal(report.copies, 1, 'one copy of the extension is loaded');
    assert.equal(report.activationError, undefined);
    assert.equal(report.isActive, true);
    assert.equal(report.sameAsProperty, true);
    // The walk finds what it must: a secret storage, a memento, the key and a function in a control object.
    for (const what of ['a secret storage', 'a memento', 'holds the API key', 'a function']) {
      assert.ok(report.control.some((f) => f.includes(what)), `the probe's walk finds ${what} (control: ${report.control.join('; ')})`);
    }
    assert.deepEqual(report.findings, [], `exports (${report.exportsType}) reach: ${report.findings.join('; ')}`);

    // Installed from the package: a copy in the profile's extensions folder, not the source folder, built
    // without the test hooks.
    const installed = realpathSync(report.extensionPath ?? '');
    assert.ok(!relative(realpathSync(e.s.paths.extensions), installed).startsWith('..'), `${installed} is in the extensions folder`);
    assert.ok(relative(realpathSync(e.s.paths.root), installed).startsWith('..'), `${installed} is outside the source folder`);
    assert.match(installed, new RegExp(`${EXTENSION_ID.replace(/\./g, '\\.')}-\\d`));
    assert.ok(existsSync(join(installed, 'dist', 'extension.js')));
    assert.ok(!existsSync(join(installed, 'src')) && !existsSync(join(installed, 'dist', 'extension.js.map')), 'no source or map file was installed');
    await e.wb.closeToasts();
  });
});
