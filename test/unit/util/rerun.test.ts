import * as assert from 'node:assert/strict';
import { Rerun } from '../../../src/util/rerun';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Rerun', () => {
  it('runs once more for any number of calls made while it runs, and they share that run', async () => {
    const gates = [deferred(), deferred()];
    let passes = 0;
    const rerun = new Rerun(async () => {
      await gates[passes++]?.promise;
    });
    const first = rerun.run();
    const second = rerun.run();
    const third = rerun.run();
    assert.equal(second, first);
    assert.equal(third, first);
    gates[0]!.resolve();
    await new Promise((r) => setImmediate(r));
    assert.equal(passes, 2, 'a second pass started after the calls made during the first');
    gates[1]!.resolve();
    await first;
    assert.equal(passes, 2);
    await rerun.run();
    assert.equal(passes, 3, 'a call after it ended starts a new run');
  });

  it('skips the extra pass once stopped, and a failing pass rejects the shared run and frees it', async () => {
    let stopped = false;
    let passes = 0;
    const gate = deferred();
    const rerun = new Rerun(async () => {
      passes++;
      await gate.promise;
    }, () => stopped);
    const run = rerun.run();
    void rerun.run();
    stopped = true;
    gate.resolve();
    await run;
    assert.equal(passes, 1);

    const failing = new Rerun(async () => {
      throw new Error('disk');
    });
    await assert.rejects(failing.run(), /disk/);
    await assert.rejects(failing.run(), /disk/, 'the next call runs again');
  });
});
