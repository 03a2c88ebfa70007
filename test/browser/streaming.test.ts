import assert from 'node:assert/strict';
import { fuzzDocuments } from './fuzzCorpus';
import { runChunkings, type Chunking, type Failure } from './chunkingRunner';
import { loadCorpus } from './harness';
import { useSuitePage } from './suitePage';

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
  const suite = useSuitePage();

  it('renders every corpus document identically for 15 seeded chunkings each', async () => {
    const documents = loadCorpus();
    assert.ok(documents.length >= 10, 'corpus is missing');
    const failures = await suite.page.evaluate(runChunkings, { documents, chunkings: chunkings(15, 1), compareIntermediate: false });
    assert.equal(failures.length, 0, report(failures));
  });

  it('ends with the same DOM when finish() renders the rest in frames', async () => {
    const documents = [...loadCorpus(), ...fuzzDocuments(30, 11)];
    const failures = await suite.page.evaluate(runChunkings, { documents, chunkings: chunkings(5, 40), compareIntermediate: false, finishInFrames: true });
    assert.equal(failures.length, 0, report(failures));
  });

  it('matches a fresh render of the same prefix after every frame', async () => {
    const failures = await suite.page.evaluate(runChunkings, { documents: loadCorpus(), chunkings: chunkings(3, 100), compareIntermediate: true });
    assert.equal(failures.length, 0, report(failures));
  });

  it('renders 60 fuzzed documents (block-boundary edge cases) identically under random chunkings', async () => {
    const documents = fuzzDocuments(60, 7);
    const failures = await suite.page.evaluate(runChunkings, { documents, chunkings: chunkings(4, 500), compareIntermediate: false });
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
    const failures = await suite.page.evaluate(runChunkings, { documents, chunkings: bursts, compareIntermediate: false });
    assert.equal(failures.length, 0, report(failures));
  });

  it('keeps intermediate DOMs equal to a fresh render of the prefix across many runs of blocks', async () => {
    const text = loadCorpus()
      .filter((doc) => !doc.text.includes(']:'))
      .map((doc) => doc.text)
      .join('\n\n');
    // Frames are rarer than in the other runs: every frame renders the whole prefix again to compare.
    const sparseFrames = [
      { seed: 300, minChunk: 1, maxChunk: 40, frameChance: 0.05 },
      { seed: 301, minChunk: 50, maxChunk: 400, frameChance: 0.3 },
    ];
    const failures = await suite.page.evaluate(runChunkings, { documents: [{ name: 'corpus without link definitions', text }], chunkings: sparseFrames, compareIntermediate: true });
    assert.equal(failures.length, 0, report(failures));
  });

  it('keeps fuzzed intermediate DOMs equal to a fresh render of the prefix', async () => {
    const documents = fuzzDocuments(20, 8);
    const failures = await suite.page.evaluate(runChunkings, { documents, chunkings: chunkings(2, 900), compareIntermediate: true });
    assert.equal(failures.length, 0, report(failures));
  });
});
