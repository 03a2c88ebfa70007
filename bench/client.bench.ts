// Benchmark: one SSE stream of N chat chunks (the simulator's `[chunks:N]` reply) consumed, in alternating rounds
// within one run, by
//   (a) GatewayClient.chat({stream:true}) with an onDelta callback,
//   (b) the official openai client (chat.completions.create({stream:true}), iterating chunks, concatenating content),
//   (c) a floor: undici request + streaming TextDecoder + eventsource-parser + JSON.parse per event, nothing else.
// The simulator's bytes are captured once and replayed by a minimal server in a child process, so the source
// is byte-identical, costs no CPU in this process, and is faster than any consumer (both drain rates are printed).
//
// Run: npm run bench:client   (or: node scripts/build.mjs --quiet && .vscode-test/node-24.9.0/bin/node out/bench/client.bench.js)
// Env: BENCH_CHUNKS (default 50000), BENCH_ROUNDS (default 15), BENCH_DEBUG=1 (print every run: ms/TTFD).
// Ratios are medians of per-round ratios (each round runs all three back to back), which cancels most of the
// drift a busy machine adds; the table shows plain medians.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createParser } from 'eventsource-parser';
import OpenAI from 'openai';
import { VERSION as OPENAI_VERSION } from 'openai/version';
import type { Dispatcher } from 'undici';
import { GatewayClient } from '../src/gateway/client';
import { loadUndici } from '../src/gateway/undiciLoader';
import { recordResults } from './lib/results';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const WARMUP_ROUNDS = 2;
const API_KEY = 'sk-bench-0123456789abcdef';
const MODEL = 'model-k3';
const MESSAGES = [{ role: 'user' as const, content: `[chunks:${CHUNKS}]` }];
const REQUEST_BODY = JSON.stringify({ model: MODEL, messages: MESSAGES, stream: true });

interface Run {
  ms: number;
  ttfdMs: number;
  peakHeapBytes: number;
  deltas: number;
  contentChars: number;
}

type Consumer = (baseUrl: string) => Promise<Run>;

/**
 * Before every run: collect garbage, then let the machine go quiet for a moment (the previous run's socket tail,
 * the server's event loop), so time to first delta measures this run and not the one before.
 */
async function settleBeforeRun(): Promise<HeapProbe> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 25));
  return new HeapProbe();
}

/** Heap sampling shared by every consumer: a baseline after GC, then a sample every 1024 deltas and at the end. */
class HeapProbe {
  readonly #base: number;
  #peak: number;
  constructor() {
    gc();
    this.#base = process.memoryUsage().heapUsed;
    this.#peak = this.#base;
  }
  sample(): void {
    const used = process.memoryUsage().heapUsed;
    if (used > this.#peak) this.#peak = used;
  }
  get peakGrowth(): number {
    this.sample();
    return this.#peak - this.#base;
  }
}

function startChild(args: string[], ready: RegExp): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      lines.push(line);
      if (ready.test(line)) resolve({ child, lines });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Reads the whole response without parsing; returns the bytes and the time taken. */
async function drain(dispatcher: Dispatcher, origin: string): Promise<{ bytes: Buffer; ms: number }> {
  const t0 = performance.now();
  const { body } = await loadUndici().request(dispatcher, {
    origin,
    path: '/v1/chat/completions',
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: REQUEST_BODY,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks) as Buffer, ms: performance.now() - t0 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function makeConsumers(bodyBytes: number): Record<string, Consumer> {
  const undici = loadUndici();
  let ours: GatewayClient | undefined;
  let openai: OpenAI | undefined;
  let floorPool: Dispatcher | undefined;
  void bodyBytes;

  const client: Consumer = async (baseUrl) => {
    ours ??= new GatewayClient({ baseUrl, apiKey: API_KEY, maxRetries: 0, proxy: false });
    const heap = await settleBeforeRun();
    let deltas = 0;
    let ttfd = -1;
    const t0 = performance.now();
    const result = await ours.chat(
      { model: MODEL, messages: MESSAGES, stream: true },
      {
        onDelta: () => {
          if (ttfd < 0) ttfd = performance.now() - t0;
          if ((++deltas & 1023) === 0) heap.sample();
        },
      },
    );
    const ms = performance.now() - t0;
    return { ms, ttfdMs: ttfd, peakHeapBytes: heap.peakGrowth, deltas, contentChars: result.content.length };
  };

  const official: Consumer = async (baseUrl) => {
    openai ??= new OpenAI({ apiKey: API_KEY, baseURL: baseUrl, maxRetries: 0 });
    const heap = await settleBeforeRun();
    let deltas = 0;
    let ttfd = -1;
    let text = '';
    const t0 = performance.now();
    const stream = await openai.chat.completions.create({ model: MODEL, messages: MESSAGES, stream: true });
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta?.content;
      if (content) {
        if (ttfd < 0) ttfd = performance.now() - t0;
        text += content;
        if ((++deltas & 1023) === 0) heap.sample();
      }
    }
    const ms = performance.now() - t0;
    return { ms, ttfdMs: ttfd, peakHeapBytes: heap.peakGrowth, deltas, contentChars: text.length };
  };

  const floor: Consumer = async (baseUrl) => {
    const url = new URL(baseUrl);
    floorPool ??= new undici.Pool(url.origin);
    const heap = await settleBeforeRun();
    let deltas = 0;
    let ttfd = -1;
    let contentChars = 0;
    const t0 = performance.now();
    const { body } = await undici.request(floorPool, {
      origin: url.origin,
      path: `${url.pathname}/chat/completions`,
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: REQUEST_BODY,
    });
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: (event) => {
        if (event.data === '[DONE]') return;
        const content = JSON.parse(event.data).choices[0]?.delta?.content;
        if (!content) return;
        if (ttfd < 0) ttfd = performance.now() - t0;
        contentChars += content.length;
        if ((++deltas & 1023) === 0) heap.sample();
      },
    });
    await new Promise<void>((resolve, reject) => {
      body.on('data', (bytes: Buffer) => parser.feed(decoder.decode(bytes, { stream: true })));
      body.on('end', resolve);
      body.on('error', reject);
    });
    const ms = performance.now() - t0;
    return { ms, ttfdMs: ttfd, peakHeapBytes: heap.peakGrowth, deltas, contentChars };
  };

  return { client, openai: official, floor };
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  const undici = loadUndici();
  const children: ChildProcess[] = [];
  try {
    // 1. The source: the simulator's reply, captured once.
    const simulatorMain = join(__dirname, '..', 'test', 'simulator', 'main.js');
    const sim = await startChild([simulatorMain, '--port', '0', '--quiet', '--key', API_KEY], /^API key:/);
    children.push(sim.child);
    const simBase = sim.lines.find((l) => l.startsWith('Base URL:'))!.slice('Base URL:'.length).trim();
    const simOrigin = new URL(simBase).origin;
    const simPool = new undici.Pool(simOrigin);
    const simDrains: number[] = [];
    let body: Buffer = Buffer.alloc(0);
    for (let i = 0; i < 5; i++) {
      const d = await drain(simPool, simOrigin);
      simDrains.push(d.ms);
      body = d.bytes;
    }
    await simPool.close();
    await stopChild(sim.child);
    const bodyFile = join(dir, 'stream.sse');
    writeFileSync(bodyFile, body);
    const eventCount = body.toString('utf8').split('\n\n').filter((e) => e.startsWith('data:')).length;

    // 2. The replay server, in its own process.
    const replay = await startChild([join(__dirname, 'lib', 'sseReplayServer.js'), bodyFile], /^listening \d+/);
    children.push(replay.child);
    const port = Number(/listening (\d+)/.exec(replay.lines[replay.lines.length - 1])![1]);
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    const replayPool = new undici.Pool(`http://127.0.0.1:${port}`);
    const replayDrains: number[] = [];
    for (let i = 0; i < 5; i++) {
      const d = await drain(replayPool, `http://127.0.0.1:${port}`);
      if (!d.bytes.equals(body)) throw new Error('the replay differs from the captured stream');
      replayDrains.push(d.ms);
    }
    await replayPool.close();

    // 3. Alternating rounds.
    const consumers = makeConsumers(body.length);
    const names = Object.keys(consumers);
    const runs: Record<string, Run[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const run = await consumers[name](baseUrl);
        if (run.deltas !== CHUNKS) throw new Error(`${name} saw ${run.deltas} content deltas, expected ${CHUNKS}`);
        if (round >= WARMUP_ROUNDS) runs[name].push(run);
      }
    }

    if (process.env.BENCH_DEBUG) for (const name of names) console.log(name, runs[name].map((r) => `${r.ms.toFixed(0)}/${r.ttfdMs.toFixed(1)}`).join(" "));
    // 4. Report.
    const mb = body.length / 1e6;
    const stats = Object.fromEntries(
      names.map((name) => {
        const r = runs[name];
        const ms = median(r.map((x) => x.ms));
        return [name, { ms, chunksPerSec: CHUNKS / (ms / 1000), mbPerSec: mb / (ms / 1000), ttfd: median(r.map((x) => x.ttfdMs)), heap: median(r.map((x) => x.peakHeapBytes)) / 1e6 }];
      }),
    );
    const label: Record<string, string> = {
      client: '(a) GatewayClient',
      openai: `(b) openai@${OPENAI_VERSION}`,
      floor: '(c) floor: undici+parser+JSON.parse',
    };
    console.log(`\nGateway client benchmark — Node ${process.version}, ${CHUNKS.toLocaleString('en-US')} content chunks (${eventCount.toLocaleString('en-US')} SSE events, ${fmt(mb, 2)} MB), ${ROUNDS} measured rounds after ${WARMUP_ROUNDS} warm-up, alternating order, medians.`);
    const simDrain = median(simDrains);
    const replayDrain = median(replayDrains);
    console.log(
      `Source: the simulator's [chunks:${CHUNKS}] reply, captured, then replayed byte for byte from a child process. ` +
        `Drain (bytes read, no parsing): simulator ${fmt(simDrain, 1)} ms (≤ ${fmt(CHUNKS / (simDrain / 1000))} chunks/s), replay ${fmt(replayDrain, 1)} ms.\n`,
    );
    const rows = [['consumer', 'time ms', 'chunks/s', 'MB/s', 'TTFD ms', 'peak heap MB']];
    for (const name of names) {
      const s = stats[name];
      rows.push([label[name], fmt(s.ms, 1), fmt(s.chunksPerSec), fmt(s.mbPerSec, 1), fmt(s.ttfd, 2), fmt(s.heap, 1)]);
    }
    const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
    for (const [i, row] of rows.entries()) {
      console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
      if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    }
    const perRound = (f: (a: Run, b: Run, c: Run) => number): number =>
      median(runs.client.map((a, i) => f(a, runs.openai[i], runs.floor[i])));
    const vsOpenai = perRound((a, b) => b.ms / a.ms);
    const vsFloor = perRound((a, _b, c) => a.ms / c.ms);
    const ttfdDiff = perRound((a, _b, c) => a.ttfdMs - c.ttfdMs);
    const checks = [
      [`client / openai throughput`, `${fmt(vsOpenai, 2)}×`, 'target ≥ 4×', vsOpenai >= 4],
      [`client time / floor time`, `${fmt(vsFloor, 3)}×`, 'target ≤ 1.10×', vsFloor <= 1.1],
      [`TTFD client − floor`, `${fmt(ttfdDiff, 2)} ms`, 'target within 1 ms', Math.abs(ttfdDiff) <= 1],
    ] as const;
    console.log('');
    for (const [what, value, target, met] of checks) console.log(`${what.padEnd(28)} ${value.padStart(9)}   ${target.padEnd(19)} ${met ? 'met' : 'NOT MET'}`);
    console.log('');
    recordResults(
      'client',
      `one ${CHUNKS.toLocaleString('en-US')}-chunk stream (${fmt(mb, 2)} MB) replayed byte for byte from a separate process, ${ROUNDS} alternating rounds, medians; Node ${process.version}`,
      [
        ...names.map((name) => ({ measure: `${label[name]}: time, chunks/s, first delta, peak heap`, value: `${fmt(stats[name].ms, 1)} ms, ${fmt(stats[name].chunksPerSec)}/s, ${fmt(stats[name].ttfd, 2)} ms, ${fmt(stats[name].heap, 1)} MB` })),
        ...checks.map(([measure, value, target, met]) => ({ measure, value, target: target.replace(/^target /, ''), met })),
      ],
    );
  } finally {
    for (const child of children) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
