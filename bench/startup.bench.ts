// npm run bench:startup — the first screen in a real VS Code (code-server + Chromium): activate() time, the size of
// what activation loads (from a production build), New Chat until the composer takes typing, and the Video Jobs
// tree's first data; the chat panel is reported against a bare webview opened in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_JOBS } from './startup/seed';
import { recordResults } from './lib/results';

const root = join(__dirname, '..', '..');
const TARGETS = { activationMs: 15, activationKB: 150, newChatReadyMs: 300, newChatOverBareMs: 100 };

interface HostResult {
  activationMs: number;
  /** The CPU time of the extension host's process during activate(): what the target judges. */
  activationCpuMs: number;
  activationPhases: Record<string, number>;
  jobStoreBuildMs: number;
  jobFolderReadMs: number;
  loadedAtActivation: string[];
  newChatReadyMs: number;
  bareWebviewReadyMs: number;
  videoTreeFirstDataMs: number;
}

function productionSizes(): Record<string, number> {
  const dist = mkdtempSync(join(tmpdir(), 'mg-startup-dist-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--production', '--quiet', '--dist', dist], { stdio: 'inherit' });
    // Every file of the extension host's code; the webview's scripts load in the webview, not the extension host.
    const sizes: Record<string, number> = {};
    for (const file of readdirSync(dist).filter((f) => f.endsWith('.js'))) sizes[file] = statSync(join(dist, file)).size;
    return sizes;
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

function runInHost(): HostResult {
  // The profile starts with BENCH_JOBS video jobs in its folder, as a user's would after a while.
  const script = `import { runHostTests } from ${JSON.stringify(join(root, 'scripts', 'vscode-host.mjs'))};
import { createRequire } from 'node:module';
const seed = createRequire(import.meta.url)(${JSON.stringify(join(root, 'out', 'bench', 'startup', 'seed.js'))});
const prepare = (userDataDir) => seed.writeJobs(seed.profileJobFolder(userDataDir));
process.exit(await runHostTests({ extensionTestsPath: ${JSON.stringify(join(root, 'out', 'bench', 'startup', 'index.js'))}, prepare }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = /startup-bench (\{.*\})/.exec(child.stdout ?? '')?.[1];
  if (!line) throw new Error(`the startup bench did not report (exit ${child.status}):\n${(child.stdout ?? '').slice(-2000)}\n${(child.stderr ?? '').slice(-2000)}`);
  return JSON.parse(line) as HostResult;
}

const sizes = productionSizes();
const host = runInHost();
const activationBytes = host.loadedAtActivation.reduce((sum, file) => sum + (sizes[file] ?? 0), 0);
const lazyBytes = Object.entries(sizes).filter(([file]) => !host.loadedAtActivation.includes(file)).reduce((sum, [, size]) => sum + size, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const rows: Array<[string, string, string, boolean]> = [
  // The target judges CPU time: on a shared machine the wall time also holds the turns other processes take meanwhile
  // (a phase of 0.6 ms in one run takes 20 ms in the next), which no change to activate() can remove.
  [
    'activate(): CPU time (wall time, and each phase\'s)',
    `${host.activationCpuMs.toFixed(1)} ms (wall ${host.activationMs.toFixed(1)} ms: ${Object.entries(host.activationPhases ?? {}).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')})`,
    `< ${TARGETS.activationMs} ms CPU`,
    host.activationCpuMs < TARGETS.activationMs,
  ],
  [
    `job store over ${BENCH_JOBS} jobs: built (on the activation path) / folder read (after it)`,
    `${host.jobStoreBuildMs.toFixed(1)} ms / ${host.jobFolderReadMs.toFixed(1)} ms (${(host.jobStoreBuildMs / host.jobFolderReadMs).toFixed(2)}×)`,
    '',
    true,
  ],
  [`code loaded at activation (${host.loadedAtActivation.join(', ')})`, kb(activationBytes), `< ${TARGETS.activationKB} KB`, activationBytes < TARGETS.activationKB * 1024],
  [`code loaded on first use (${Object.keys(sizes).filter((file) => !host.loadedAtActivation.includes(file)).join(', ')})`, kb(lazyBytes), '', true],
  ['New Chat → composer takes typing', `${host.newChatReadyMs.toFixed(0)} ms (${(host.newChatReadyMs / host.bareWebviewReadyMs).toFixed(2)}× a bare webview, ${host.bareWebviewReadyMs.toFixed(0)} ms)`, `< ${TARGETS.newChatReadyMs} ms`, host.newChatReadyMs < TARGETS.newChatReadyMs],
  [
    'New Chat → composer takes typing, minus a bare webview',
    `${(host.newChatReadyMs - host.bareWebviewReadyMs).toFixed(0)} ms`,
    `< ${TARGETS.newChatOverBareMs} ms`,
    host.newChatReadyMs - host.bareWebviewReadyMs < TARGETS.newChatOverBareMs,
  ],
  ['focus Video Jobs → first tree data', `${host.videoTreeFirstDataMs.toFixed(0)} ms`, '', true],
];
// The run is what docs/benchmarks.md shows (`npm run readme:tables`), the size of what activation loads included.
recordResults(
  'startup',
  `code-server + Chromium, a profile holding ${BENCH_JOBS} video jobs (bench/startup/seed.ts), the production build; one run`,
  rows.map(([measure, value, target, met]) => (target ? { measure, value, target, met } : { measure, value })),
);
console.log('| measure | this run | target |\n|---|---|---|');
for (const [what, value, target, met] of rows) console.log(`| ${what} | ${value} | ${target}${target && !met ? ' (missed)' : ''} |`);
process.exitCode = rows.every(([, , , met]) => met) ? 0 : 1;
