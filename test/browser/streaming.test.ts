import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { fuzzDocuments } from './fuzzCorpus';
import { launchChromium, loadCorpus, servePage, type CorpusDocument, type ServedPage } from './harness';

interface Chunking {
  seed: number;
  minChunk: number;
  maxChunk: number;
  /** Chance that an animation frame runs after a delta (the rest of the time deltas pile up). */
  frameChance: number;
}

interface ChunkingJob {
  documents: CorpusDocument[];
  chunkings: Chunking[];
  /** After every frame, compare with a fresh instance given the same prefix at once. */
  compareIntermediate: boolean;
}

interface Failure {
  document: string;
  what: string;
  detail: string;
}

/** Runs in the page: streams every document under every chunking and reports DOMs that differ. */
function runChunkings(job: ChunkingJob): Failure[] {
  type MD = typeof import('../../src/webview/markdown/index');
  const md = (window as unknown as { MD: MD }).MD;
  const failures: Failure[] = [];
  const random = (seed: number) => {
    let state = seed >>> 0;
    return () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  };
  const manualScheduler = () => {
    let pending: (() => void) | undefined;
    let time = 0;
    return {
      requestFrame(callback: () => void) {
        pending = callback;
        return () => (pending = undefined);
      },
      now: () => time,
      runFrame() {
        time += 1000;
        const callback = pending;
        pending = undefined;
        callback?.();
      },
    };
  };
  const firstDifference = (actual: string, expected: string) => {
    let i = 0;
    while (i < actual.length && actual[i] === expected[i]) i++;
    return `at ${i}: got ${JSON.stringify(actual.slice(Math.max(0, i - 80), i + 80))}\n     want ${JSON.stringify(expected.slice(Math.max(0, i - 80), i + 80))}`;
  };
  const container = () => document.body.appendChild(document.createElement('div'));

  for (const doc of job.documents) {
    const oneShotHost = container();
    const oneShot = new md.StreamingMarkdown(oneShotHost, { scheduler: manualScheduler() });
    oneShot.append(doc.text);
    oneShot.end();
    const expected = oneShotHost.innerHTML;
    const referenceHost = container();
    referenceHost.append(md.renderMarkdown(doc.text));
    if (referenceHost.innerHTML !== expected) {
      failures.push({ document: doc.name, what: 'one-shot differs from renderMarkdown()', detail: firstDifference(expected, referenceHost.innerHTML) });
    }
    if (oneShot.text !== doc.text) failures.push({ document: doc.name, what: 'text', detail: 'md.text differs from the input' });
    const mayDefineLinks = doc.text.includes(']:');

    for (const chunking of job.chunkings) {
      const next = random(chunking.seed + doc.text.length);
      const scheduler = manualScheduler();
      const host = container();
      const streaming = new md.StreamingMarkdown(host, { scheduler });
      let position = 0;
      while (position < doc.text.length) {
        const size = chunking.minChunk + Math.floor(next() * (chunking.maxChunk - chunking.minChunk + 1));
        streaming.append(doc.text.slice(position, position + size));
        position += size;
        if (next() >= chunking.frameChance) continue;
        scheduler.runFrame();
        if (!job.compareIntermediate || mayDefineLinks) continue;
        const freshHost = container();
        const fresh = new md.StreamingMarkdown(freshHost, { scheduler: manualScheduler() });
        fresh.append(doc.text.slice(0, position));
        fresh.flush();
        if (freshHost.innerHTML !== host.innerHTML) {
          failures.push({ document: doc.name, what: `intermediate DOM after ${position} chars (seed ${chunking.seed})`, detail: firstDifference(host.innerHTML, freshHost.innerHTML) });
        }
        freshHost.remove();
      }
      streaming.end();
      if (host.innerHTML !== expected) {
        failures.push({ document: doc.name, what: `final DOM (seed ${chunking.seed}, chunks ${chunking.minChunk}-${chunking.maxChunk})`, detail: firstDifference(host.innerHTML, expected) });
      }
      if (streaming.text !== doc.text) failures.push({ document: doc.name, what: 'text', detail: 'md.text differs after chunking' });
      host.remove();
    }
    oneShotHost.remove();
    referenceHost.remove();
    if (failures.length > 20) break;
  }
  return failures;
}

function chunkings(count: number, firstSeed: number): Chunking[] {
  const shapes = [
    { minChunk: 1, maxChunk: 1, frameChance: 0.3 },
    { minChunk: 1, maxChunk: 4, frameChance: 0.5 },
    { minChunk: 2, maxChunk: 8, frameChance: 0.25 },
    { minChunk: 1, maxChunk: 40, frameChance: 0.8 },
    { minChunk: 5, maxChunk: 200, frameChance: 1 },
  ];
  return Array.from({ length: count }, (_, i) => ({ seed: firstSeed + i, ...shapes[i % shapes.length] }));
}

function report(failures: Failure[]): string {
  return failures.map((f) => `${f.document}: ${f.what}\n  ${f.detail}`).join('\n');
}

describe('StreamingMarkdown in Chromium: any chunking gives the one-shot DOM', function () {
  this.timeout(60_000);
  let browser: Browser;
  let served: ServedPage;
  let page: Page;

  before(async () => {
    [browser, served] = await Promise.all([launchChromium(), servePage()]);
    page = await browser.newPage();
    page.on('pageerror', (error) => console.error('page error:', error));
    await page.goto(served.url);
  });

  after(async () => {
    await browser?.close();
    await served?.close();
  });

  it('renders every corpus document identically for 15 seeded chunkings each', async () => {
    const documents = loadCorpus();
    assert.ok(documents.length >= 10, 'corpus is missing');
    const failures = await page.evaluate(runChunkings, { documents, chunkings: chunkings(15, 1), compareIntermediate: false });
    assert.equal(failures.length, 0, report(failures));
  });

  it('matches a fresh render of the same prefix after every frame', async () => {
    const failures = await page.evaluate(runChunkings, { documents: loadCorpus(), chunkings: chunkings(3, 100), compareIntermediate: true });
    assert.equal(failures.length, 0, report(failures));
  });

  it('renders 60 fuzzed documents (block-boundary edge cases) identically under random chunkings', async () => {
    const documents = fuzzDocuments(60, 7);
    const failures = await page.evaluate(runChunkings, { documents, chunkings: chunkings(4, 500), compareIntermediate: false });
    assert.equal(failures.length, 0, report(failures));
  });

  it('commits bursts larger than one parse slice, including a single list longer than a slice', async () => {
    const corpus = loadCorpus();
    const longList = Array.from({ length: 300 }, (_, i) => `- item ${i} with *some* text\n${i % 7 === 0 ? '\n' : ''}`).join('');
    const joined = corpus.map((doc) => doc.text).join('\n\n');
    const documents = [
      { name: 'whole corpus x3', text: [joined, joined, joined].join('\n\n') },
      { name: 'long list then prose', text: `Intro\n\n${longList}\nAfter the list.\n\n${joined}` },
    ];
    const bursts = [
      { seed: 1, minChunk: 3000, maxChunk: 9000, frameChance: 1 },
      { seed: 2, minChunk: 1, maxChunk: 2000, frameChance: 0.5 },
    ];
    const failures = await page.evaluate(runChunkings, { documents, chunkings: bursts, compareIntermediate: false });
    assert.equal(failures.length, 0, report(failures));
  });

  it('keeps fuzzed intermediate DOMs equal to a fresh render of the prefix', async () => {
    const documents = fuzzDocuments(20, 8);
    const failures = await page.evaluate(runChunkings, { documents, chunkings: chunkings(2, 900), compareIntermediate: true });
    assert.equal(failures.length, 0, report(failures));
  });
});
