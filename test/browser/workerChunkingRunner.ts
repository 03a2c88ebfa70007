// Runs in the test page (Playwright sends the function's source): streams documents through the markdown worker under
// seeded chunkings, letting the worker's messages arrive between deltas, and reports every final DOM that differs from
// the one-shot render (on the page, no worker). Ends with finish() or, mid-stream, with end() (the page takes over).
import type { CorpusDocument } from './harness';
import type { PageHelpers } from './pageHelpers';
import type { Chunking, Failure } from './chunkingRunner';

export interface WorkerChunkingJob {
  documents: CorpusDocument[];
  chunkings: Chunking[];
  ending: 'finish' | 'end';
  /** Kill the worker after this many deltas (the page must carry on alone). */
  failAfterDeltas?: number;
}

/** `failedOnItsOwn`: streams that found the worker no longer usable though the job did not kill it. */
export async function runWorkerChunkings(job: WorkerChunkingJob): Promise<{ failures: Failure[]; workerOps: number; failedOnItsOwn: number }> {
  type MD = typeof import('./markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const random = (window as unknown as { seededRandom: (seed: number) => () => number }).seededRandom;
  const failures: Failure[] = [];
  const { manualScheduler, firstDifference } = (window as unknown as { pageHelpers: PageHelpers }).pageHelpers;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  let workerOps = 0;
  let failedOnItsOwn = 0;
  let worker = await md.MarkdownWorker.load('/md-worker.js');
  if (!worker) return { failures: [{ document: '-', what: 'worker', detail: 'MarkdownWorker.load gave nothing' }], workerOps, failedOnItsOwn };

  for (const doc of job.documents) {
    const oneShotHost = document.body.appendChild(document.createElement('div'));
    const oneShot = new md.StreamingMarkdown(oneShotHost, { scheduler: manualScheduler() });
    oneShot.append(doc.text);
    oneShot.end();
    const expected = oneShotHost.innerHTML;
    oneShotHost.remove();
    for (const chunking of job.chunkings) {
      if (!worker.usable) {
        if (job.failAfterDeltas === undefined) failedOnItsOwn++;
        worker = (await md.MarkdownWorker.load('/md-worker.js'))!;
      }
      const next = random(chunking.seed + doc.text.length);
      const scheduler = manualScheduler();
      const host = document.body.appendChild(document.createElement('div'));
      let rendered = 0;
      const streaming = new md.StreamingMarkdown(host, { scheduler, worker, onRendered: () => rendered++ });
      let position = 0;
      let deltas = 0;
      while (position < doc.text.length) {
        const size = chunking.minChunk + Math.floor(next() * (chunking.maxChunk - chunking.minChunk + 1));
        streaming.append(doc.text.slice(position, position + size));
        position += size;
        if (++deltas === job.failAfterDeltas) worker.terminate();
        if (next() < chunking.frameChance) {
          await tick();
          scheduler.runFrame();
        }
      }
      if (job.ending === 'finish') {
        let done = false;
        void streaming.finish().then(() => (done = true));
        for (let waits = 0; !done && waits < 10_000; waits++) {
          await tick();
          scheduler.runFrame();
        }
        if (!done) failures.push({ document: doc.name, what: 'finish() never resolved', detail: `seed ${chunking.seed}` });
      } else {
        streaming.end();
      }
      workerOps += rendered;
      if (host.innerHTML !== expected) {
        failures.push({ document: doc.name, what: `final DOM after ${job.ending}() with the worker (seed ${chunking.seed}, chunks ${chunking.minChunk}-${chunking.maxChunk})`, detail: firstDifference(host.innerHTML, expected) });
      }
      host.remove();
      if (failures.length > 20) return { failures, workerOps, failedOnItsOwn };
    }
  }
  if (!worker.usable && job.failAfterDeltas === undefined) failedOnItsOwn++;
  worker.terminate();
  return { failures, workerOps, failedOnItsOwn };
}
