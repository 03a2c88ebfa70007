// What the page and the markdown worker (workerMain.ts) say to each other. One worker serves
// every stream of a page; each message names its stream.
import type { BlockView, LinkReference } from './markdownRenderer';
import type { Commit } from './streamPlanner';

/** Page → worker. */
export interface ToWorker {
  stream: number;
  /** Normalised text that follows what was sent before. */
  text?: string;
  /** No more text: commit everything and say `done`. */
  end?: boolean;
  /** The stream is gone (disposed, or ended on the page): forget it. */
  close?: boolean;
}

/** What the worker found, in the order the page must apply it (StreamPlanner's sink calls, then the tail). */
export type WorkerOp =
  | { kind: 'commit'; commit: Commit }
  | { kind: 'recommit'; index: number; html: string }
  | { kind: 'batchEnd'; consumed: number; definitions: Array<[string, LinkReference]> }
  | { kind: 'tail'; views: BlockView[] }
  | { kind: 'done' };

/** Worker → page. */
export interface FromWorker {
  stream: number;
  ops: WorkerOp[];
}

/** The least time between two tails the worker sends for one stream (the page shows one at most every 50 ms). */
export const WORKER_TAIL_INTERVAL_MS = 30;
