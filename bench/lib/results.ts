// A bench's latest figures, written to bench/results/<name>.json with the commit and date they were measured on, so
// docs/benchmarks.md can show them as tables (`npm run readme:tables` regenerates them) instead of figures copied by
// hand. Committing the file is what publishes a run; a run on a tree with uncommitted changes says so (`dirty`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

/** The repository: out/bench/lib/ when built. */
const ROOT = join(__dirname, '..', '..', '..');

export interface BenchFigure {
  measure: string;
  /** As it should read, with its unit ("68 ms", "9.55×"). */
  value: string;
  /** The target in words, when the bench has one ("≤ 300 ms"). */
  target?: string;
  met?: boolean;
}

export interface BenchResults {
  bench: string;
  command: string;
  commit: string;
  dirty: boolean;
  date: string;
  /** What the run measured over, and the machine's state where it matters ("200,000 records in 52 files"). */
  conditions: string;
  figures: BenchFigure[];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** Writes the results file for `bench` and returns its path; `date` is the run's wall-clock day (UTC). */
export function recordResults(bench: string, conditions: string, figures: BenchFigure[], now = new Date()): string {
  const results: BenchResults = {
    bench,
    command: `npm run bench:${bench}`,
    commit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
    // Other benches' results files, written earlier in the same chain of runs, are not changes to what was measured.
    dirty: git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results']) !== '',
    date: now.toISOString().slice(0, 10),
    // The machine's load beside what was measured: on a shared machine it moves every wall-clock figure.
    conditions: `${conditions}; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
    figures,
  };
  const folder = join(ROOT, 'bench', 'results');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${bench}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Figures written to ${file} (commit ${results.commit}${results.dirty ? ', with uncommitted changes' : ''}); \`npm run readme:tables\` puts them in docs/benchmarks.md.`);
  return file;
}
