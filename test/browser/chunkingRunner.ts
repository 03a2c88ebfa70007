// Runs in the test page (Playwright sends the function's source): streams documents under seeded chunkings and reports
// every final (and optionally intermediate) DOM that differs from the one-shot render.
import type { CorpusDocument } from './harness';
import type { PageHelpers } from './pageHelpers';

export interface Chunking {
  seed: number;
  minChunk: number;
  maxChunk: number;
  /** Chance that an animation frame runs after a delta (the rest of the time deltas pile up). */
  frameChance: number;
}

export interface ChunkingJob {
  documents: CorpusDocument[];
  chunkings: Chunking[];
  /** After every frame, compare with a fresh instance given the same prefix at once. */
  compareIntermediate: boolean;
  /** End with finish() and frames until it is done, instead of end(). */
  finishInFrames?: boolean;
}

export interface Failure {
  document: string;
  what: string;
  detail: string;
}

/** Runs in the page: streams every document under every chunking and reports DOMs that differ. */
export function runChunkings(job: ChunkingJob): Failure[] {
  type MD = typeof import('./markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const failures: Failure[] = [];
  const random = (window as unknown as { seededRandom: (seed: number) => () => number }).seededRandom;
  const { manualScheduler, firstDifference } = (window as unknown as { pageHelpers: PageHelpers }).pageHelpers;
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
    // Block by block, in runs, it is what markdown-it renders for the whole document at once.
    const runs = Array.from(oneShotHost.children);
    const blocks = runs.map((run) => run.innerHTML).join('');
    const wholeDocument = md.createSanitizer(window)(new md.MarkdownRenderer().renderDocument(doc.text));
    const wholeHost = container();
    wholeHost.append(wholeDocument);
    if (!runs.every((run) => run.className === 'md-run') || oneShotHost.childNodes.length !== runs.length) {
      failures.push({ document: doc.name, what: 'top level is not runs only', detail: oneShotHost.innerHTML.slice(0, 200) });
    } else if (blocks !== wholeHost.innerHTML) {
      failures.push({ document: doc.name, what: 'blocks differ from a whole-document render', detail: firstDifference(blocks, wholeHost.innerHTML) });
    }
    wholeHost.remove();
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
      if (job.finishInFrames) {
        void streaming.finish();
        let frames = 0;
        while (scheduler.runFrame() && frames < 100_000) frames++;
      } else {
        streaming.end();
      }
      if (host.innerHTML !== expected) {
        const how = job.finishInFrames ? 'finish()' : 'end()';
        failures.push({ document: doc.name, what: `final DOM after ${how} (seed ${chunking.seed}, chunks ${chunking.minChunk}-${chunking.maxChunk})`, detail: firstDifference(host.innerHTML, expected) });
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
