// The one catch around every command: what escapes a handler is worded once, through the error vocabulary, and
// shown with its actions; a cancellation says nothing; a result passes through.
import * as assert from 'node:assert/strict';
import { guardCommand } from '../../../src/ui/core/commandGuard';
import type { ErrorAdvice } from '../../../src/ui/core/errorAdvice';

function recorder() {
  const advised: ErrorAdvice[] = [];
  const logged: string[] = [];
  return { advised, logged, report: () => ({ advise: (advice: ErrorAdvice) => void advised.push(advice), log: (message: string) => void logged.push(message) }) };
}

describe('guardCommand (the one catch around every command)', () => {
  it('passes the arguments and the result through', async () => {
    const { advised, report } = recorder();
    const run = guardCommand('modelGateway.x', (a: number, b: number) => a + b, report);
    assert.equal(await run(2, 3), 5);
    assert.deepEqual(advised, []);
  });

  it('words a thrown error once, with its actions, logs it with the command id, and resolves', async () => {
    const { advised, logged, report } = recorder();
    const run = guardCommand('modelGateway.profiles.create', () => {
      throw new Error('A profile named "work" exists already.');
    }, report);
    assert.equal(await run(), undefined);
    assert.equal(advised.length, 1);
    assert.equal(advised[0].message, 'A profile named "work" exists already.');
    assert.deepEqual(advised[0].actions.map((a) => a.title), ['Open Logs']);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^Command modelGateway\.profiles\.create failed: Error: A profile named "work" exists already\./);
  });

  it('words a gateway failure the way every surface does (a 401 offers Set API Key)', async () => {
    const { advised, report } = recorder();
    const run = guardCommand('modelGateway.listModels', async () => Promise.reject(Object.assign(new Error('bad key'), { status: 401 })), report);
    await run();
    assert.equal(advised.length, 1);
    assert.match(advised[0].message, /^API key missing or invalid for the gateway\. bad key\.$/);
    assert.deepEqual(advised[0].actions.map((a) => a.title), ['Set API Key']);
  });

  it('says nothing about a cancellation: an aborted request, an AbortError, VS Code\'s CancellationError', async () => {
    const { advised, logged, report } = recorder();
    const abort = new Error('This operation was aborted');
    abort.name = 'AbortError';
    const canceled = new Error('Canceled');
    canceled.name = 'Canceled';
    for (const error of [Object.assign(new Error('stopped'), { code: 'aborted' }), abort, canceled]) {
      assert.equal(await guardCommand('modelGateway.x', () => Promise.reject(error), report)(), undefined);
    }
    assert.deepEqual(advised, []);
    assert.deepEqual(logged, []);
  });
});
