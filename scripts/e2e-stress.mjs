// `npm run test:e2e:stress`: the e2e stage (`npm test -- --only e2e`) several times in a row, three by default,
// while a spinning process keeps one core busy, as on a slow or shared machine where timing bugs show. Each run is
// reported; the script fails if any run fails or the busy process stopped. `--runs N` changes the count (fewer than
// three is announced as narrowing, like MOCHA_GREP, which narrows each run as in `npm test`). About 7 min a run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './host-cache.mjs';
import { narrowedLine, narrowing, stageCounts, stressVerdict } from './stageReport.mjs';

const FULL_RUNS = 3;
const at = process.argv.indexOf('--runs');
const wanted = at > 0 ? Number(process.argv[at + 1]) : FULL_RUNS;
if (!Number.isSafeInteger(wanted) || wanted < 1) {
  console.log(`--runs takes a whole number of runs (at least 1), not ${process.argv[at + 1]}`);
  process.exit(2);
}
const narrowedBy = narrowing(process.env, []);
if (wanted < FULL_RUNS) narrowedBy.push(`--runs ${wanted}`);
if (narrowedBy.length > 0) console.log(narrowedLine(narrowedBy));

// One core kept busy; the spinner ends itself once this script is gone, even if it is killed without a word.
const SPIN = `const parent = ${process.pid}; for (let i = 1; ; i++) if (i % 50_000_000 === 0) { try { process.kill(parent, 0); } catch { process.exit(0); } }`;
const spinner = spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' });
let spinning = true;
spinner.on('exit', () => (spinning = false));
const stopSpinner = () => {
  if (spinning) spinner.kill('SIGKILL');
};
process.on('exit', stopSpinner);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
console.log(`e2e stress: process ${spinner.pid} keeps one core busy; ${wanted} run${wanted === 1 ? '' : 's'} of the e2e stage follow`);

function runStage() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'test.mjs'), '--only', 'e2e'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

const runs = [];
for (let i = 1; i <= wanted; i++) {
  console.log(`\n=== e2e stress run ${i} of ${wanted} (one core busy) ===`);
  const started = Date.now();
  const { code, out } = await runStage();
  runs.push({ counts: stageCounts('e2e', out, code), seconds: Math.round((Date.now() - started) / 1000), spinning });
  console.log(stressVerdict(runs, wanted).lines.at(-2));
}
stopSpinner();
const verdict = stressVerdict(runs, wanted);
console.log(`\n${verdict.lines.join('\n')}`);
if (narrowedBy.length > 0) console.log(narrowedLine(narrowedBy));
process.exit(verdict.ok ? 0 : 1);
