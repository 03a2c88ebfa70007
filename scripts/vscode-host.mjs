// Runs the extension-host test suite inside a real VS Code: the VS Code server from the npm `code-server`
// package (cached by host-cache.mjs), opened by Debian's Chromium through playwright-core. The workbench
// calls window.codeAutomationExit(code) when the suite ends, as it does for @vscode/test-web.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { format } from 'node:util';
import { ensureCodeServer, ROOT } from './host-cache.mjs';
import { watchWebviewProblems } from './webviewProblems.mjs';

export const SUITE_START = '--- model-gateway host suite ---';
const SUITE_END = 'host: ';
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** Starts VS Code's own server; resolves once it is listening. */
export async function startVSCodeServer({ port, userDataDir, extensionsDir, settings = {}, env = {}, args: extraArgs = [], smokeTestDriver = true, onOutput }) {
  const { node, serverMain } = ensureCodeServer();
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // The server has no flag for workspace trust; without this setting the window opens in Restricted Mode.
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': false, ...settings }, null, 2));
  const args = [serverMain, '--host', '127.0.0.1', '--port', String(port), '--without-connection-token', '--accept-server-license-terms', ...(smokeTestDriver ? ['--enable-smoke-test-driver'] : []), '--disable-telemetry', '--user-data-dir', userDataDir, '--server-data-dir', userDataDir, '--extensions-dir', extensionsDir, ...extraArgs];
  // A process group of its own: the server's helpers (agent host, extension hosts) end with it.
  const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('VS Code server did not start within 60 s')), 60_000);
    const onData = (buf) => {
      const text = buf.toString();
      onOutput?.(text);
      if (text.includes(`Extension host agent listening on ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`VS Code server exited with ${code} before listening`));
    });
  });
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          signalGroup('SIGKILL');
          return resolve();
        }
        child.once('exit', () => {
          signalGroup('SIGKILL');
          resolve();
        });
        signalGroup('SIGTERM');
        setTimeout(() => signalGroup('SIGKILL'), 5000).unref();
      }),
  };
}

/** The workbench URL for `folder`, whose extension host runs the module `extensionTestsPath` exports `run()` from. */
export function workbenchUrl(port, folder, extensionTestsPath) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(ROOT)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ];
  return `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Receives what the workbench's smoke-test driver reports, on a page or on every page of a browser context: each
 * log line (`onLog`) and the test payload's exit code (`onExit`).
 */
export async function exposeAutomation(target, { onLog, onExit }) {
  await target.exposeFunction('codeAutomationLog', (_type, args) => onLog(Array.isArray(args) ? format(...args) : String(args)));
  await target.exposeFunction('codeAutomationExit', (code) => onExit(Number(code)));
}

/** Where the driver appends the webview problems it sees (one JSON line each), for the suite inside the host. */
export const WEBVIEW_PROBLEMS_ENV = 'MODEL_GATEWAY_WEBVIEW_PROBLEMS';

/**
 * Opens the workbench with the test payload and resolves with the suite's exit code.
 * `extensionTestsPath` is a module exporting `run()` (the same file @vscode/test-electron loads).
 * Uncaught exceptions and CSP violations in the workbench's webviews go to a file the suite reads (its
 * environment names it): test/host/index.ts fails the test during which one happened.
 */
/** `prepare(userDataDir)` runs before the server starts (the startup bench fills the profile's storage). */
export async function runHostTests({ extensionTestsPath, folder, timeoutMs = 15 * 60_000, env = {}, settings = {}, verbose = !!process.env.HOST_VERBOSE, prepare }) {
  const { chromium } = await import('playwright-core');
  const port = await freePort();
  const scratch = mkdtempSync(join(tmpdir(), 'mg-host-'));
  const userDataDir = join(scratch, 'data');
  const workspace = folder ?? join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const problemsFile = join(scratch, 'webview-problems.jsonl');
  writeFileSync(problemsFile, '');
  const serverLog = [];
  prepare?.(userDataDir);
  const server = await startVSCodeServer({ port, userDataDir, extensionsDir: join(scratch, 'extensions'), env: { ...env, [WEBVIEW_PROBLEMS_ENV]: problemsFile }, settings, onOutput: (t) => { serverLog.push(t); if (verbose) process.stderr.write(t); } });
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    await watchWebviewProblems(page, (problem) => appendFileSync(problemsFile, `${JSON.stringify(problem)}\n`));
    let resolveExit;
    const exited = new Promise((r) => (resolveExit = r));
    // The workbench forwards every log line here; print only the suite's own output, which index.ts
    // brackets between two markers (everything, with HOST_VERBOSE=1).
    let inSuite = false;
    await exposeAutomation(page, {
      onLog: (line) => {
        if (line.includes(SUITE_START)) inSuite = true;
        if (verbose || (inSuite && !line.includes(SUITE_START) && !/^\[[\w:. -]+\] /.test(line))) process.stdout.write(line.endsWith('\n') ? line : `${line}\n`);
        if (line.includes(SUITE_END)) inSuite = false;
      },
      onExit: (code) => resolveExit(code),
    });
    page.on('pageerror', (err) => verbose && process.stderr.write(`[page error] ${err.message}\n`));
    if (verbose) page.on('console', (msg) => process.stderr.write(`[console.${msg.type()}] ${msg.text()}\n`));
    // A busy machine can take well over the default 30 s to load the workbench; the suite's own timeout applies.
    await page.goto(workbenchUrl(port, workspace, extensionTestsPath), { waitUntil: 'domcontentloaded', timeout: 180_000 });
    let timer;
    const timeout = new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    const result = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (result === 'timeout') {
      process.stderr.write(`VS Code host tests timed out after ${timeoutMs} ms. Server output:\n${serverLog.join('').slice(-4000)}\n`);
      return 1;
    }
    return result;
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
