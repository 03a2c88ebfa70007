// A hang detector for parsers of untrusted input: the parser runs in a worker thread, so a regex that backtracks for
// minutes cannot block mocha, and the worker is terminated when it does not settle in time. This is not a timing
// assertion: the timeout is generous (seconds for work that takes milliseconds) and only catches runaway work.

import { Worker } from 'node:worker_threads';

const DEFAULT_TIMEOUT_MS = 20_000;

// Runs in the worker: loads the module, calls the export, posts the value (or why it failed) back.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  try {
    const fn = require(workerData.moduleFile)[workerData.exportName];
    if (typeof fn !== 'function') throw new TypeError(workerData.exportName + ' is not a function exported by ' + workerData.moduleFile);
    parentPort.postMessage({ ok: true, value: await fn(...workerData.args) });
  } catch (error) {
    const e = error !== null && typeof error === 'object' ? error : { message: String(error) };
    parentPort.postMessage({ ok: false, error: { name: String(e.name ?? 'Error'), message: String(e.message ?? e), code: e.code } });
  }
})();
`;

/** Runs `exportName` from the compiled module `moduleFile` (absolute path to a .js under out/) with `args` in a worker; rejects if it does not settle within timeoutMs. */
export function runInWorker(moduleFile: string, exportName: string, args: unknown[], timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { moduleFile, exportName, args } });
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(new Error(`${exportName} did not finish within ${timeoutMs} ms: it hangs on this input.`))),
      timeoutMs,
    );
    worker.on('message', (message: { ok: boolean; value?: unknown; error?: { name: string; message: string; code?: unknown } }) =>
      settle(() => {
        if (message.ok) resolve(message.value);
        else reject(Object.assign(new Error(message.error?.message), { name: message.error?.name, code: message.error?.code }));
      }),
    );
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The worker running ${exportName} exited (code ${code}) without an answer.`))));
  });
}
