// The markdown worker, run by the chat's script (chat/main.ts) where it finds no document: parses, renders and
// highlights the streams a page sends it (StreamPlanner, the same code the page runs without a worker) and sends back
// each final block's view and the open tail's views. It never sees a DOM: the page builds every node through its
// allowlist (nodeBuilder.ts), whatever this sends.
import { MarkdownRenderer } from './markdownRenderer';
import { StreamPlanner } from './streamPlanner';
import { WORKER_TAIL_INTERVAL_MS, type FromWorker, type ToWorker, type WorkerOp } from './workerProtocol';

interface Stream {
  planner: StreamPlanner;
  ops: WorkerOp[];
  ended: boolean;
  lastTailAt: number;
}

const scope = self as unknown as { onmessage: ((event: MessageEvent<ToWorker>) => void) | null; postMessage(message: FromWorker): void };
const renderer = new MarkdownRenderer();
const streams = new Map<number, Stream>();
const dirty = new Set<number>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerDueAt = Infinity;

function streamFor(id: number): Stream {
  let stream = streams.get(id);
  if (!stream) {
    const ops: WorkerOp[] = [];
    const planner = new StreamPlanner(renderer, {
      commit: (commit) => ops.push({ kind: 'commit', commit }),
      recommit: (index, html) => ops.push({ kind: 'recommit', index, html }),
      batchEnd: (consumed, definitions) => ops.push({ kind: 'batchEnd', consumed, definitions }),
    });
    stream = { planner, ops, ended: false, lastTailAt: -Infinity };
    streams.set(id, stream);
  }
  return stream;
}

scope.onmessage = (event) => {
  const message = event.data;
  if (message.close) {
    streams.delete(message.stream);
    dirty.delete(message.stream);
    return;
  }
  const stream = streamFor(message.stream);
  if (message.text) stream.planner.push(message.text);
  if (message.end) stream.ended = true;
  dirty.add(message.stream);
  // Messages already queued are taken first, so a burst is planned once.
  schedule(0);
};

/** Works in `delayMs`, or sooner if already due sooner. */
function schedule(delayMs: number): void {
  const dueAt = performance.now() + delayMs;
  if (timer !== undefined && timerDueAt <= dueAt) return;
  if (timer !== undefined) clearTimeout(timer);
  timerDueAt = dueAt;
  timer = setTimeout(() => {
    timer = undefined;
    timerDueAt = Infinity;
    work();
  }, delayMs);
}

const never = () => -Infinity;

function work(): void {
  let nextTailIn = Infinity;
  for (const id of [...dirty]) {
    const stream = streams.get(id);
    dirty.delete(id);
    if (!stream) continue;
    const { planner } = stream;
    planner.drainQueue(Infinity, true, never);
    while (planner.findStableBlocks()) planner.drainQueue(Infinity, true, never);
    if (stream.ended) {
      planner.queueTheRest();
      planner.drainQueue(Infinity, true, never);
      stream.ops.push({ kind: 'done' });
      streams.delete(id);
    } else {
      const wait = stream.lastTailAt + WORKER_TAIL_INTERVAL_MS - performance.now();
      if (wait > 0) {
        dirty.add(id);
        nextTailIn = Math.min(nextTailIn, wait);
      } else {
        const tail = planner.tailViews();
        if (tail) {
          stream.ops.push({ kind: 'tail', views: tail });
          stream.lastTailAt = performance.now();
        }
      }
    }
    if (stream.ops.length > 0) scope.postMessage({ stream: id, ops: stream.ops.splice(0) });
  }
  if (nextTailIn < Infinity) schedule(nextTailIn);
}
