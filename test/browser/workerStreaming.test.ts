import assert from 'node:assert/strict';
import type { Failure } from './chunkingRunner';
import { fuzzDocuments } from './fuzzCorpus';
import { loadCorpus } from './harness';
import { useSuitePage } from './suitePage';
import { runWorkerChunkings } from './workerChunkingRunner';

function report(failures: Failure[]): string {
  return failures.map((f) => `${f.document}: ${f.what}\n  ${f.detail}`).join('\n');
}

const CHUNKINGS = [
  { seed: 1, minChunk: 1, maxChunk: 4, frameChance: 0.5 },
  { seed: 2, minChunk: 2, maxChunk: 40, frameChance: 0.3 },
  { seed: 3, minChunk: 50, maxChunk: 3000, frameChance: 1 },
];

// The chat panel's policy for its worker: started from a blob: URL made of its script, fetched from the page's
// resource root ('self' here). Any CSP violation fails the test during which it happens (launchChromium).
const WORKER_CSP = "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src data:; font-src 'none'; connect-src 'self'; frame-src 'none'; worker-src blob:; form-action 'none'; base-uri 'none'";

describe('StreamingMarkdown with the markdown worker in Chromium: any chunking gives the one-shot DOM', function () {
  this.timeout(120_000);
  const suite = useSuitePage(undefined, { csp: WORKER_CSP });

  it('ends with the one-shot DOM when finish() waits for the worker, for the corpus and fuzzed documents', async () => {
    const documents = [...loadCorpus(), ...fuzzDocuments(12, 21)];
    const result = await suite.page.evaluate(runWorkerChunkings, { documents, chunkings: CHUNKINGS, ending: 'finish' as const });
    assert.equal(result.failures.length, 0, report(result.failures));
    assert.ok(result.workerOps > 0, 'the worker sent something to render');
    // The worker is the chat's whole script: one that ran its page part there would throw, and every stream would
    // still end right, rendered on the page.
    assert.equal(result.failedOnItsOwn, 0, 'the worker failed by itself');
  });

  it('ends with the one-shot DOM when end() takes over from the worker mid-stream', async () => {
    const documents = [...loadCorpus(), ...fuzzDocuments(12, 22)];
    const result = await suite.page.evaluate(runWorkerChunkings, { documents, chunkings: CHUNKINGS, ending: 'end' as const });
    assert.equal(result.failures.length, 0, report(result.failures));
    assert.equal(result.failedOnItsOwn, 0, 'the worker failed by itself');
  });

  it('carries on without the worker when it dies mid-stream, with the same final DOM', async () => {
    const documents = loadCorpus();
    const result = await suite.page.evaluate(runWorkerChunkings, { documents, chunkings: CHUNKINGS, ending: 'finish' as const, failAfterDeltas: 7 });
    assert.equal(result.failures.length, 0, report(result.failures));
  });
});
