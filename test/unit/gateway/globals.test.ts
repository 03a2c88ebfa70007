// The client never changes process-wide state: importing it and making requests leaves the global undici
// dispatcher and globalThis.fetch exactly as they were, and undici itself loads only on the first request.
// Checked in a fresh Node process so nothing else in the test run has touched those globals first.

import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';

function runProbe(script: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: join(__dirname, '..', '..', '..', '..'), timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    });
  });
}

describe('gateway: process-wide state', () => {
  it('leaves the global undici dispatcher and globalThis.fetch unchanged after import and requests', async () => {
    const report = await runProbe(`require(${JSON.stringify(join(__dirname, 'helpers', 'globalsProbe.js'))})`);
    assert.deepEqual(report.models, ['m']);
    assert.equal(report.undiciLoaded, true, 'undici served the requests');
    assert.deepEqual(report.dispatcherBefore, ['undefined', 'undefined'], 'a fresh process has no global dispatcher yet');
    assert.equal(report.unchangedByImport, true);
    assert.equal(report.unchangedByRequests, true);
    assert.equal(report.fetchWorks, true, 'globalThis.fetch still works afterwards');
  });

  it('does not load undici at import time', async () => {
    const index = join(__dirname, '..', '..', '..', 'src', 'gateway', 'index.js');
    const report = await runProbe(
      `require(${JSON.stringify(index)}); process.stdout.write(JSON.stringify({ loaded: Object.keys(require.cache).some((p) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(p)) }))`,
    );
    assert.equal(report.loaded, false);
  });

  it('would notice a change: requiring undici directly does install a global dispatcher', async () => {
    const report = await runProbe(
      `const k = Symbol.for('undici.globalDispatcher.1'); const before = globalThis[k]; require('undici'); process.stdout.write(JSON.stringify({ changed: before !== globalThis[k] }))`,
    );
    assert.equal(report.changed, true);
  });
});
