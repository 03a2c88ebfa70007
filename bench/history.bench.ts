// Bench: filtering the Chats view over 1,000 saved sessions of 50 turns each, in a real chat folder on disk.
//   (a) baseline, naive: every query lists the sessions, reads and parses every session file, and searches it;
//   (b) the view: the store's list (its index) plus SessionSearchIndex, which reads each session once, keeps its
//       lower-cased text, and reads a session again only when it changed. Cold (first query) and warm figures.
// Both must return the same sessions for every query. The target is checked at the end (exit code 1 if missed).
//
// Run: npm run bench:history   Env: HISTORY_SESSIONS (1000), HISTORY_TURNS (50), HISTORY_ROUNDS (7).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultSettings, emptyAssistantTurn, type ChatSession, type Turn } from '../src/chatProtocol/session';
import { NodeFileSystem } from '../src/util/storeFileSystem';
import { matchesAll, queryWords, SessionSearchIndex, searchTextOf } from '../src/chat/core/historySearch';
import { ChatSessionStore, type SessionSummary } from '../src/chat/core/sessionStore';
import { recordResults } from './lib/results';

const SESSIONS = Number(process.env.HISTORY_SESSIONS ?? 1000);
const TURNS = Number(process.env.HISTORY_TURNS ?? 50);
const ROUNDS = Number(process.env.HISTORY_ROUNDS ?? 7);
/** Targets: a warm filter ≤ 100 ms (what the user waits for) and ≥ 30× the naive scan (so the index never regresses to a scan); see docs/benchmarks.md. */
const TARGET_WARM_MS = 100;
const TARGET_SPEEDUP = 30;

const WORDS = 'the a model gateway stream token reply question code function error value type file test run build chat session video job list index parse render result request response server client cache time memory window view tree title filter search rust yaml python typescript async await promise array string number object class interface'.split(' ');

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function text(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  return out.join(' ');
}

function session(i: number, random: () => number): ChatSession {
  const turns: Turn[] = [];
  for (let t = 0; t < TURNS; t++) {
    const id = `t${t}`;
    // One marker word per session, so "rare" queries match exactly one.
    const said = t === TURNS - 1 ? `${text(random, 40)} marker${i}x` : text(random, t % 2 === 0 ? 30 : 120);
    turns.push(t % 2 === 0 ? { id, role: 'user', createdAt: i, content: said } : { ...emptyAssistantTurn(id, 'model-k3', i), content: said, status: 'complete' });
  }
  return { id: `s${String(i).padStart(5, '0')}`, title: text(random, 5), createdAt: i, updatedAt: 1_700_000_000_000 + i, settings: { ...defaultSettings(), model: 'model-k3' }, turns };
}

async function naive(store: ChatSessionStore, fs: NodeFileSystem, query: string): Promise<string[]> {
  const words = queryWords(query);
  const matched: string[] = [];
  for (const summary of await store.list()) {
    const raw = await fs.read(`${summary.id}.json`);
    if (raw === undefined) continue;
    const parsed = JSON.parse(raw) as { session: ChatSession };
    if (matchesAll(searchTextOf(parsed.session), words)) matched.push(summary.id);
  }
  return matched;
}

async function viewFilter(store: ChatSessionStore, index: SessionSearchIndex, query: string): Promise<string[]> {
  return (await index.filter(await store.list(), query)).map((s: SessionSummary) => s.id);
}

async function time<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await run();
  return { ms: performance.now() - start, result };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'mg-history-bench-'));
  try {
    const random = seeded(42);
    let bytes = 0;
    for (let i = 0; i < SESSIONS; i++) {
      const s = session(i, random);
      const data = `{"format":1,"rev":"bench-${i}","session":${JSON.stringify(s)}}`;
      bytes += data.length;
      writeFileSync(join(folder, `${s.id}.json`), data);
    }
    const fs = new NodeFileSystem(folder);
    const store = new ChatSessionStore(fs);
    await store.list(); // builds the index from the files, as the first look at an old folder does
    console.log(`${SESSIONS} sessions × ${TURNS} turns, ${(bytes / 1e6).toFixed(1)} MB on disk`);

    const queries = [`marker${Math.floor(SESSIONS / 2)}x`, 'gateway rust', 'nothing-matches-this', 'await promise yaml'];
    const index = new SessionSearchIndex((id) => store.peek(id));
    const heapBefore = process.memoryUsage().heapUsed;
    const cold = await time(() => viewFilter(store, index, queries[0]!));
    const heapAfter = process.memoryUsage().heapUsed;

    const naiveMs: number[] = [];
    const warmMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of queries) {
        const a = await time(() => naive(store, fs, query));
        const b = await time(() => viewFilter(store, index, query));
        if (a.result.join() !== b.result.join()) throw new Error(`The index and the naive scan disagree on “${query}”: ${a.result.length} vs ${b.result.length} sessions`);
        naiveMs.push(a.ms);
        warmMs.push(b.ms);
      }
    }

    // Another window saves one session: the next query reads that one file again.
    const changed = session(7, seeded(7));
    changed.turns.push({ id: 'extra', role: 'user', createdAt: 1, content: 'freshly-added-words' });
    changed.updatedAt += 10_000_000;
    await store.save(changed);
    const update = await time(() => viewFilter(store, index, 'freshly-added-words'));
    if (update.result.join() !== changed.id) throw new Error('The index missed a changed session');

    const naiveMedian = median(naiveMs);
    const warmMedian = median(warmMs);
    const speedup = naiveMedian / warmMedian;
    console.log(`naive scan (baseline):   ${naiveMedian.toFixed(1)} ms per query (median of ${naiveMs.length})`);
    console.log(`index, cold (1st query): ${cold.ms.toFixed(1)} ms, keeps ~${((heapAfter - heapBefore) / 1e6).toFixed(0)} MB of text`);
    console.log(`index, warm:             ${warmMedian.toFixed(1)} ms per query (median of ${warmMs.length}), ${speedup.toFixed(1)}× faster than the baseline`);
    console.log(`index, after one change: ${update.ms.toFixed(1)} ms`);
    const ok = warmMedian <= TARGET_WARM_MS && speedup >= TARGET_SPEEDUP;
    console.log(`target (warm ≤ ${TARGET_WARM_MS} ms and ≥ ${TARGET_SPEEDUP}× the baseline): ${ok ? 'met' : 'MISSED'}`);
    recordResults('history', `${SESSIONS.toLocaleString('en-US')} chats of ${TURNS} turns (${(bytes / 1e6).toFixed(1)} MB); baseline (read every file per query) ${naiveMedian.toFixed(0)} ms per query`, [
      { measure: 'filter, per query once the chats are read', value: `${warmMedian.toFixed(1)} ms (${speedup.toFixed(0)}× faster than the baseline)`, target: `≤ ${TARGET_WARM_MS} ms and ≥ ${TARGET_SPEEDUP}×`, met: ok },
      { measure: 'first query (reads the chats)', value: `${cold.ms.toFixed(0)} ms` },
      { measure: 'query after another window changed one chat', value: `${update.ms.toFixed(0)} ms` },
    ]);
    if (!ok) process.exitCode = 1;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
