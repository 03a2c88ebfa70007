// CLI: runs the gateway simulator until SIGINT/SIGTERM. Usage: see README.md beside this file.
import { startSimulator, type SimulatorOptions } from './index';

const USAGE = `Usage: node out/test/simulator/main.js [--port 8787] [--host 127.0.0.1] [--key sk-...] [--tps 40]
       [--queued-ms 1500] [--in-progress-ms 3000] [--rate-limit REQUESTS/WINDOW_MS] [--token-limit TOKENS] [--fault NAME] [--quiet]`;

function parseArgs(argv: string[]): { options: SimulatorOptions; fault?: string } {
  const options: SimulatorOptions = { port: 8787, quiet: false };
  const video = { queuedMs: 1500, inProgressMs: 3000 };
  let fault: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    const number = (): number => {
      const text = value();
      const parsed = Number(text);
      if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${flag} needs a non-negative number, got '${text}'`);
      return parsed;
    };
    switch (flag) {
      case '--port': options.port = number(); break;
      case '--host': options.host = value(); break;
      case '--key': options.apiKey = value(); break;
      case '--tps': options.tokensPerSecond = number(); break;
      case '--queued-ms': video.queuedMs = number(); break;
      case '--in-progress-ms': video.inProgressMs = number(); break;
      case '--rate-limit': {
        const match = /^(\d+)\/(\d+)$/.exec(value());
        if (!match) throw new Error('--rate-limit needs REQUESTS/WINDOW_MS, e.g. 60/60000');
        options.rateLimit = { ...options.rateLimit, requests: Number(match[1]), windowMs: Number(match[2]) };
        break;
      }
      case '--token-limit': {
        const tokens = number();
        options.rateLimit = { requests: Number.MAX_SAFE_INTEGER, windowMs: 60_000, ...options.rateLimit, tokens };
        break;
      }
      case '--fault': fault = value(); break;
      case '--quiet': options.quiet = true; break;
      case '--help': case '-h':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown argument '${flag}'\n${USAGE}`);
    }
  }
  options.video = video;
  return { options, fault };
}

async function main(): Promise<void> {
  const { options, fault } = parseArgs(process.argv.slice(2));
  const simulator = await startSimulator(options);
  if (fault) simulator.setDefaultFault(fault);
  process.stdout.write(`Base URL: ${simulator.baseUrl}\n`);
  process.stdout.write(`API key: ${simulator.apiKey}\n`);
  if (!options.quiet) {
    process.stdout.write(`Disabled key: ${simulator.keys.disabled}\nRestricted key (model-k3 only): ${simulator.keys.restricted}\n`);
  }
  const stop = (): void => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
