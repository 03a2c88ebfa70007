// npm run bench:memory — does the extension host's heap come back? In a real VS Code (code-server + Chromium), the
// heap after a forced garbage collection before and after: a chat panel opened and closed 50 times, 100 replies
// streamed, the Usage dashboard opened and closed 20 times, and 200 finished video jobs shown for an hour of fake
// time (bench/memory/index.ts). Each must end within 5 MB of where it started; the growth per cycle is the slope of
// the readings taken along the way.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { recordResults, type BenchFigure } from './lib/results';
import type { CaseResult } from './memory/index';

const root = join(__dirname, '..', '..');
const MAX_GROWTH_BYTES = 5 * 1024 * 1024;

function runInHost(): CaseResult[] {
  const script = `import { runHostTests } from ${JSON.stringify(join(root, 'scripts', 'vscode-host.mjs'))};
process.exit(await runHostTests({ extensionTestsPath: ${JSON.stringify(join(root, 'out', 'bench', 'memory', 'index.js'))} }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const line = /memory-bench (\[.*\])/.exec(child.stdout ?? '')?.[1];
  if (!line) throw new Error(`the memory bench did not report (exit ${child.status}):\n${(child.stdout ?? '').slice(-3000)}\n${(child.stderr ?? '').slice(-2000)}`);
  return JSON.parse(line) as CaseResult[];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const signed = (bytes: number) => `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`;
const results = runInHost();
console.log('| case | cycles | heap before → after | growth | growth per cycle | target |\n|---|---|---|---|---|---|');
const figures: BenchFigure[] = [];
for (const r of results) {
  const growth = r.endBytes - r.startBytes;
  const ok = growth <= MAX_GROWTH_BYTES;
  const perCycle = `${r.slopeBytesPerCycle < 0 ? '−' : ''}${(Math.abs(r.slopeBytesPerCycle) / 1024).toFixed(1)} KB`;
  console.log(`| ${r.name} | ${r.cycles} | ${mb(r.startBytes)} → ${mb(r.endBytes)} | ${signed(growth)} | ${perCycle} | ≤ 5 MB${ok ? '' : ' (missed)'} |`);
  figures.push({
    measure: `${r.name}, ${r.cycles} cycles: heap growth after a forced GC`,
    value: `${signed(growth)} (${mb(r.startBytes)} → ${mb(r.endBytes)}), ${perCycle} per cycle`,
    target: '≤ 5 MB',
    met: ok,
  });
}
recordResults('memory', 'code-server + Chromium, the extension host\'s heap after a forced full GC before and after each case, warm-up cycles first (bench/memory/index.ts)', figures);
process.exitCode = figures.every((f) => f.met) ? 0 : 1;
