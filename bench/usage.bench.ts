// Bench: the usage ledger at a year of heavy use, 200,000 records in the ledger's own files on disk.
//   baseline: the least any reader can do: read every file whole, split the lines, JSON.parse each one;
//   (a) the dashboard's first paint, host side: a fresh Ledger reads every file (bounded chunks, each line checked),
//       sums the last 30 days by day and model with the table by model, and the update is serialised and checked as
//       the page checks it (parseDashboardUpdate). Target ≤ 300 ms.
//   (b) Export Usage to CSV and to JSON: read, sort, format, write atomically. Target ≤ 2 s each.
// Also checks the files stay under 50 MB. Figures are printed with their ratio to the baseline of this run; a
// missed target exits with 1.
//
// Run: npm run bench:usage   Env: USAGE_RECORDS (200000), USAGE_ROUNDS (5).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeFileAtomic } from '../src/util/atomicFile';
import { parseDashboardUpdate } from '../src/usage/core/dashboardProtocol';
import { exportText } from '../src/usage/core/exportFormat';
import { Ledger, monthOf } from '../src/usage/core/ledger';
import { encodeRecord } from '../src/usage/core/ledgerLine';
import type { UsageRecord } from '../src/usage/core/recordTypes';
import { periodStart, summarize } from '../src/usage/core/summary';
import { recordResults } from './lib/results';

const RECORDS = Number(process.env.USAGE_RECORDS ?? 200_000);
const ROUNDS = Number(process.env.USAGE_ROUNDS ?? 5);
const TARGET_PAINT_MS = 300;
const TARGET_EXPORT_MS = 2000;
const TARGET_BYTES = 50 * 1024 * 1024;

const MODELS = ['openai/gpt-4o-mini', 'anthropic/claude-3-7-sonnet-20250219', 'model-k3', 'model-5.2', 'google/gemini-2.0-flash', 'model-image-1.0', 'model-1.0-video-edit', 'model-speech-1.0'];
const SURFACES = ['chat', 'compare', 'title', 'vscode-chat', 'image', 'video', 'speech', 'chat-image'];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function makeRecords(now: number): UsageRecord[] {
  const random = seeded(24);
  const span = 365 * 86_400_000;
  return Array.from({ length: RECORDS }, (_, i) => {
    const m = Math.floor(random() * MODELS.length);
    const modality = m === 5 ? 'image' : m === 6 ? 'video' : m === 7 ? 'speech' : 'chat';
    const r: UsageRecord = {
      time: Math.floor(now - span + (span * i) / RECORDS),
      profile: i % 5 === 0 ? 'work' : 'default',
      workspace: `project-${i % 12}`,
      surface: SURFACES[Math.floor(random() * SURFACES.length)]!,
      model: MODELS[m]!,
      modality,
      outcome: random() < 0.03 ? 'error' : 'ok',
      costSource: random() < 0.1 ? 'unknown' : random() < 0.5 ? 'reported' : 'estimated',
    };
    if (modality === 'chat') Object.assign(r, { inputTokens: Math.floor(random() * 20_000), outputTokens: Math.floor(random() * 2_000), cachedTokens: Math.floor(random() * 5_000), reasoningTokens: Math.floor(random() * 500) });
    if (modality === 'image') Object.assign(r, { images: 1 + Math.floor(random() * 4), imageBytes: 200_000 + Math.floor(random() * 900_000), imageSize: '1024x1024' });
    if (modality === 'video') r.videoSeconds = 4 + Math.floor(random() * 8);
    if (modality === 'speech') r.speechChars = Math.floor(random() * 3000);
    if (r.costSource !== 'unknown') r.cost = Number((random() * 0.05).toFixed(6));
    return r;
  });
}

/** Writes the records as four windows would have: one file per window per month. */
function writeLedger(dir: string, records: UsageRecord[]): number {
  const files = new Map<string, string[]>();
  records.forEach((r, i) => {
    const key = join(dir, 'usage', monthOf(r.time), `window-${i % 4}.jsonl`);
    let lines = files.get(key);
    if (!lines) files.set(key, (lines = []));
    lines.push(encodeRecord(r));
  });
  let bytes = 0;
  for (const [file, lines] of files) {
    mkdirSync(join(file, '..'), { recursive: true });
    const text = `${lines.join('\n')}\n`;
    writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

function allFiles(dir: string): string[] {
  const root = join(dir, 'usage');
  return readdirSync(root).flatMap((month) => readdirSync(join(root, month)).map((name) => join(root, month, name)));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(what: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await what();
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mg-usage-bench-'));
  try {
    const now = Date.now();
    const records = makeRecords(now);
    const bytes = writeLedger(dir, records);
    const onDisk = allFiles(dir).reduce((sum, f) => sum + statSync(f).size, 0);
    console.log(`${RECORDS} records in ${allFiles(dir).length} files: ${(onDisk / 1024 / 1024).toFixed(1)} MB (${(bytes / RECORDS).toFixed(0)} bytes a record)`);

    const baseline: number[] = [];
    const paint: number[] = [];
    const csv: number[] = [];
    const json: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      baseline.push(
        await time(() => {
          let n = 0;
          for (const file of allFiles(dir)) for (const line of readFileSync(file, 'utf8').split('\n')) if (line) n += JSON.parse(line) ? 1 : 0;
          if (n !== RECORDS) throw new Error(`baseline read ${n}`);
        }),
      );
      paint.push(
        await time(async () => {
          // As the dashboard opens: the default period (30 days) reads the months that can hold it.
          const { records: read, damaged } = await new Ledger(dir, 'bench').read(periodStart('30d', now));
          if (read.length === 0 || damaged.length) throw new Error(`read ${read.length}, ${damaged.length} damaged`);
          const update = { type: 'summary', summary: summarize(read, { period: '30d', stackBy: 'model', groupBy: 'model', now }), damaged: 0 };
          if (!parseDashboardUpdate(JSON.parse(JSON.stringify(update)))) throw new Error('the page would refuse the update');
        }),
      );
      for (const [format, into] of [['csv', csv], ['json', json]] as const) {
        into.push(
          await time(async () => {
            const { records: read } = await new Ledger(dir, 'bench').read();
            if (read.length !== RECORDS) throw new Error(`exported ${read.length}`);
            await writeFileAtomic(join(dir, `export.${format}`), exportText(read, format));
          }),
        );
      }
    }
    const base = median(baseline);
    const report = (name: string, ms: number, target: number) => {
      console.log(`${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  (${(ms / base).toFixed(2)}× the baseline; target ≤ ${target} ms)`);
      return ms <= target;
    };
    console.log(`${'baseline: read + JSON.parse'.padEnd(34)} ${base.toFixed(0).padStart(6)} ms`);
    const ok = [
      report('dashboard first paint (host side)', median(paint), TARGET_PAINT_MS),
      report('export to CSV', median(csv), TARGET_EXPORT_MS),
      report('export to JSON', median(json), TARGET_EXPORT_MS),
      onDisk < TARGET_BYTES,
    ];
    const figure = (measure: string, ms: number, target: number) => ({ measure, value: `${ms.toFixed(0)} ms (${(ms / base).toFixed(2)}× the baseline)`, target: `≤ ${target} ms`, met: ms <= target });
    recordResults('usage', `${RECORDS.toLocaleString('en-US')} records in ${allFiles(dir).length} files (${(onDisk / 1024 / 1024).toFixed(1)} MB); baseline (read every file, parse each line) ${base.toFixed(0)} ms`, [
      figure('dashboard first paint (host side)', median(paint), TARGET_PAINT_MS),
      figure('Export Usage to CSV', median(csv), TARGET_EXPORT_MS),
      figure('Export Usage to JSON', median(json), TARGET_EXPORT_MS),
    ]);
    if (onDisk >= TARGET_BYTES) console.log(`the ledger is ${onDisk} bytes, over ${TARGET_BYTES}`);
    if (ok.includes(false)) {
      console.log('A target was missed.');
      process.exitCode = 1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
