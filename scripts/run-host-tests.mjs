// The extension-host stage of `npm test` in code-server + Chromium (see vscode-host.mjs): the suite inside one
// workbench window, then the multi-window test (several workbench pages on one VS Code server), which runs in
// Node and drives the pages. Each prints its own "host: N passed, N failed" line; test.mjs adds them up.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './host-cache.mjs';
import { seedLedger, writeUntrustedFolder } from './untrustedFolder.mjs';
import { runHostTests } from './vscode-host.mjs';

const only = process.env.MODEL_GATEWAY_HOST_ONLY; // 'single', 'untrusted' or 'windows' while iterating
if (only) console.log(`!!! the host stage is narrowed by MODEL_GATEWAY_HOST_ONLY=${only} !!!`);
let code = 0;
if (!only || only === 'single') code = await runHostTests({ extensionTestsPath: join(ROOT, 'out', 'test', 'host', 'index.js') });
if (!only || only === 'untrusted') {
  // A window whose folder is not trusted (Restricted Mode), holding a hostile repository: nothing may be deleted,
  // frozen or sent because of it.
  const folder = mkdtempSync(join(tmpdir(), 'mg-untrusted-'));
  writeUntrustedFolder(folder);
  const settings = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' };
  code ||= await runHostTests({ extensionTestsPath: join(ROOT, 'out', 'test', 'host', 'untrusted', 'index.js'), folder, settings, prepare: seedLedger });
  rmSync(folder, { recursive: true, force: true });
}
if (!only || only === 'windows') {
  const windows = spawn(process.execPath, [join(ROOT, 'scripts', 'run-mocha.cjs'), 'host', join(ROOT, 'out', 'test', 'host', 'multiWindow')], { cwd: ROOT, stdio: 'inherit' });
  const windowsCode = await new Promise((resolve) => windows.on('exit', (c) => resolve(c ?? 1)));
  code ||= windowsCode;
}
process.exit(code);
