// `npm start`: build, start the gateway simulator, start VS Code with the extension loaded and pointed at it,
// hand the simulator's key to the extension (which stores it in SecretStorage, never in settings), and print
// the URL to open. Desktop `code` is used when it exists; otherwise code-server serves the workbench.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCodeServer, ROOT } from './host-cache.mjs';
import { freePort } from './vscode-host.mjs';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};

if (spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--quiet'], { stdio: 'inherit' }).status !== 0) process.exit(1);

// A budget the demo can reach (a video's polling, a few chats and a comparison), so the status bar's "slowing
// down" and the chat's rate-limit countdown can be seen; `--rate-limit R/MS` changes it, `--rate-limit off` drops it.
const rateLimitOption = option('--rate-limit', '40/60000');
const DEMO_RATE_LIMIT = rateLimitOption === 'off' ? null : { requests: Number(rateLimitOption.split('/')[0]), windowMs: Number(rateLimitOption.split('/')[1]), tokens: 200_000 };
const { startSimulator } = require(join(ROOT, 'out', 'test', 'simulator', 'index.js'));
const simPort = Number(option('--gateway-port', 8787));
let sim;
try {
  sim = await startSimulator({ port: simPort, tokensPerSecond: 60, rateLimit: DEMO_RATE_LIMIT });
} catch {
  sim = await startSimulator({ port: 0, tokensPerSecond: 60, rateLimit: DEMO_RATE_LIMIT });
}

const scratch = mkdtempSync(join(tmpdir(), 'model-gateway-demo-'));
const userData = join(scratch, 'data');
const extensionsDir = join(scratch, 'extensions');
const workspace = join(scratch, 'workspace');
mkdirSync(join(userData, 'User'), { recursive: true });
mkdirSync(extensionsDir, { recursive: true });
mkdirSync(workspace, { recursive: true });
writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': false, 'modelGateway.baseUrl': sim.baseUrl, 'workbench.startupEditor': 'none' }, null, 2));
writeFileSync(join(workspace, 'hello.ts'), 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n');
// The extension reads this once at activation and stores the key in SecretStorage for that (loopback) origin.
const seedFile = join(scratch, 'seed-key.json');
writeFileSync(seedFile, JSON.stringify({ origin: sim.origin, apiKey: sim.apiKey }), { mode: 0o600 });
const env = { ...process.env, MODEL_GATEWAY_SEED_KEY_FILE: seedFile };

const children = [];
function cleanup() {
  for (const child of children) child.kill('SIGTERM');
  void sim.close();
  rmSync(scratch, { recursive: true, force: true });
}
process.on('SIGINT', () => (cleanup(), process.exit(0)));
process.on('SIGTERM', () => (cleanup(), process.exit(0)));

console.log(`Gateway simulator: ${sim.baseUrl} (key ${sim.apiKey.slice(0, 7)}…)`);
const desktop = spawnSync('code', ['--version'], { stdio: 'ignore' }).status === 0 && !args.includes('--web');
if (desktop) {
  const child = spawn('code', ['--new-window', `--user-data-dir=${userData}`, `--extensions-dir=${extensionsDir}`, `--extensionDevelopmentPath=${ROOT}`, workspace], { env, stdio: 'inherit' });
  children.push(child);
  console.log('Opened VS Code with Model Gateway loaded. Press Ctrl+C here to stop the simulator.');
} else {
  const { node, codeServerEntry } = ensureCodeServer();
  // Installed by link, so the workbench loads this checkout's package.json and dist/ as they are.
  symlinkSync(ROOT, join(extensionsDir, 'model-gateway.model-gateway-0.1.0'));
  const port = Number(option('--port', 0)) || (await freePort());
  const child = spawn(node, [codeServerEntry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--user-data-dir', userData, '--extensions-dir', extensionsDir, workspace], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let announced = false;
  const onOutput = (buf) => {
    if (process.env.VERBOSE) process.stderr.write(buf);
    if (!announced && /HTTP server listening/.test(buf.toString())) {
      announced = true;
      console.log(`\nModel Gateway is running in VS Code (code-server). Open:\n\n  http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}\n\nTry: the Model Gateway view in the activity bar, "Model Gateway: New Chat" in the command palette, and the status bar item.\nPress Ctrl+C to stop.`);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  child.on('exit', (code) => {
    console.log(`code-server exited (${code}).`);
    cleanup();
    process.exit(code ?? 0);
  });
}
