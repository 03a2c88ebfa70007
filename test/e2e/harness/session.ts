// One VS Code for the whole end-to-end suite: code-server's VS Code server (the npm package the host tests use,
// cached in .vscode-test/), a fresh profile with the packaged .vsix installed by `--install-extension`, the
// gateway simulator, and Debian's Chromium driven by playwright-core. code-server (not the bare server) keeps
// secrets across reloads, as a user's code-server does.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator';
import { watchWebviews } from './webviewProblems';

export const EXTENSION_ID = 'model-gateway.model-gateway';
export const SIM_KEY = `sk-sim-e2e-${'0123456789abcdef'.repeat(2)}`;
// Jobs take 8 s, long enough to see queued and in progress; a job meant to fail ("[fail]", followed through three
// resubmissions) fails within a second or two, since only its failure is watched.
const SIM_OPTIONS: SimulatorOptions = {
  tokensPerSecond: 20,
  apiKey: SIM_KEY,
  video: (request) => (request.prompt.startsWith('[fail]') ? { queuedMs: 500, inProgressMs: 1000 } : { queuedMs: 3000, inProgressMs: 5000 }),
};

export interface E2EPaths {
  root: string;
  vsix: string;
  /** Git-ignored folder for screenshots and logs of this run. */
  artifacts: string;
  scratch: string;
  userData: string;
  extensions: string;
  workspace: string;
}

/** What the runner (scripts/run-e2e.mjs) passes in the environment. */
function pathsFromEnv(): E2EPaths {
  const root = process.env.E2E_ROOT;
  const vsix = process.env.E2E_VSIX;
  const artifacts = process.env.E2E_ARTIFACTS;
  const codeServer = process.env.E2E_CODE_SERVER;
  if (!root || !vsix || !artifacts || !codeServer) throw new Error('Run the end-to-end suite with `npm run test:e2e` (scripts/run-e2e.mjs sets E2E_ROOT, E2E_VSIX, E2E_ARTIFACTS, E2E_CODE_SERVER).');
  const scratch = mkdtempSync(join(tmpdir(), 'mg-e2e-'));
  return { root, vsix, artifacts, scratch, userData: join(scratch, 'data'), extensions: join(scratch, 'extensions'), workspace: join(scratch, 'workspace') };
}

const USER_SETTINGS = {
  'security.workspace.trust.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'editor.minimap.enabled': false,
  'window.restoreWindows': 'all',
  // Status checks every 1-2 s, so each state of a job (queued, in progress, completed) is seen.
  'modelGateway.video.pollMinSeconds': 1,
  'modelGateway.video.pollMaxSeconds': 2,
};

export class E2ESession {
  readonly paths = pathsFromEnv();
  sim!: Simulator;
  page!: Page;
  /** Screenshots taken so far (they are numbered in order). */
  screenshots = 0;
  private browser: Browser | undefined;
  private context: BrowserContext | undefined;
  private server: ChildProcess | undefined;
  private port = 0;
  private serverOutput = '';

  get url(): string {
    return `http://127.0.0.1:${this.port}/?folder=${encodeURIComponent(this.paths.workspace)}`;
  }

  async start(): Promise<void> {
    const { paths } = this;
    mkdirSync(join(paths.userData, 'User'), { recursive: true });
    mkdirSync(paths.workspace, { recursive: true });
    writeFileSync(join(paths.userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
    writeFileSync(join(paths.workspace, 'hello.py'), 'def greet(name):\n    return f"Hello, {name}!"\n\n\nprint(greet("world"))\n');
    await this.installVsix();
    this.sim = await startSimulator(SIM_OPTIONS);
    await this.startServer();
    const { chromium } = await import('playwright-core');
    const { chromiumPath, CHROMIUM_FLAGS } = hostHelpers();
    this.browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'] });
    this.context = await this.browser.newContext({ viewport: { width: 1400, height: 860 } });
    await watchWebviews(this.context);
    await this.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${this.port}` });
    // The machine has no internet: pages the tests open outside VS Code get a stub, so their address stays theirs.
    await this.context.route(/^https:\/\/example\.com\//, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>stub</title>' }));
    this.page = await this.context.newPage();
    this.page.setDefaultTimeout(60_000);
    await this.page.goto(this.url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  }

  /**
   * `--install-extension` with the packaged file, as a user installs a downloaded .vsix; beside it the probe
   * (test/e2e/probe), which reads the extension's exports as any other extension can.
   */
  private async installVsix(): Promise<void> {
    const { paths } = this;
    const probe = await this.packageProbe();
    const install = ['--install-extension', paths.vsix, '--install-extension', probe];
    const result = spawnSync(process.execPath, [process.env.E2E_CODE_SERVER!, ...install, '--user-data-dir', paths.userData, '--extensions-dir', paths.extensions], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    const installed = result.stdout.match(/successfully installed/gi)?.length ?? 0;
    if (result.status !== 0 || installed < 2) throw new Error(`--install-extension failed (${result.status}): ${result.stdout}\n${result.stderr}`);
  }

  /** The probe packaged with its config: where to write its report, and the key to look for. */
  private async packageProbe(): Promise<string> {
    const folder = join(this.paths.scratch, 'probe');
    cpSync(join(this.paths.root, 'test', 'e2e', 'probe'), folder, { recursive: true });
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ out: this.probeReport, key: SIM_KEY }));
    const packagePath = join(this.paths.scratch, 'probe.vsix');
    const vsce = require(join(this.paths.root, 'node_modules', '@vscode', 'vsce')) as { createVSIX(options: object): Promise<unknown> };
    await vsce.createVSIX({ cwd: folder, packagePath, dependencies: false, allowMissingRepository: true, skipLicense: true });
    return packagePath;
  }

  /** Where the probe writes what it found (see test/e2e/probe/extension.js). */
  get probeReport(): string {
    return join(this.paths.scratch, 'probe-report.json');
  }

  private async startServer(): Promise<void> {
    const { paths } = this;
    this.port = await hostHelpers().freePort();
    const args = [
      process.env.E2E_CODE_SERVER!,
      '--bind-addr', `127.0.0.1:${this.port}`,
      '--auth', 'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir', paths.userData,
      '--extensions-dir', paths.extensions,
      // Debug level: the extension's log records each command run (see Workbench.commandRuns()). code-server takes
      // one level for everything.
      '--log', 'debug',
    ];
    // Its own process group, so the server's helpers (extension hosts, agent host) end with it.
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.server = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not start in 90 s:\n${this.serverOutput.slice(-3000)}`)), 90_000);
      const onData = (buf: Buffer) => {
        this.serverOutput = (this.serverOutput + buf.toString()).slice(-50_000);
        if (/HTTP server listening/.test(this.serverOutput)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited with ${code}:\n${this.serverOutput.slice(-3000)}`));
      });
    });
  }

  serverLog(): string {
    return this.serverOutput;
  }


  /** The pid of the extension host process (a child of the server started with --type=extensionHost). */
  extensionHostPids(): number[] {
    const ps = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' }).stdout;
    return ps
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === this.server?.pid && m[3].includes('--type=extensionHost'))
      .map((m) => Number(m[1]));
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await this.sim?.close().catch(() => undefined);
    const pid = this.server?.pid;
    if (pid && this.server?.exitCode === null) {
      const exited = new Promise((resolve) => this.server!.once('exit', resolve));
      signalGroup(pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    if (pid) signalGroup(pid, 'SIGKILL');
    if (!process.env.E2E_KEEP) rmSync(this.paths.scratch, { recursive: true, force: true });
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** The host runner's helpers (an ES module; Node 24, which runs the tests, can require it). */
interface HostHelpers {
  freePort(): Promise<number>;
  chromiumPath(): string;
  CHROMIUM_FLAGS: string[];
}
const hostHelpers = (): HostHelpers => require(join(process.env.E2E_ROOT!, 'scripts', 'vscode-host.mjs')) as HostHelpers;

let shared: Promise<E2ESession> | undefined;
let sharedSession: E2ESession | undefined;

/** The suite's one session, started on first use and stopped after the last test. */
export function session(): Promise<E2ESession> {
  shared ??= (async () => {
    const s = new E2ESession();
    sharedSession = s;
    await s.start();
    return s;
  })();
  return shared;
}

/** On a failure: a screenshot and the server's last output, in the artifacts folder. */
afterEach(async function () {
  const test = this.currentTest;
  if (test?.state !== 'failed' || !sharedSession?.page) return;
  const name = test.fullTitle().replace(/[^\w]+/g, '-').slice(0, 80);
  mkdirSync(sharedSession.paths.artifacts, { recursive: true });
  await sharedSession.page.screenshot({ path: join(sharedSession.paths.artifacts, `FAILED-${name}.png`) }).catch(() => undefined);
  writeFileSync(join(sharedSession.paths.artifacts, `FAILED-${name}.server.log`), sharedSession.serverLog());
});

after(async function () {
  this.timeout(30_000);
  await sharedSession?.stop();
});
