// Four real processes on one chat folder, as four VS Code windows' extension hosts. In each trial one process
// takes the chat's lock and is killed (SIGKILL) while it holds it; the other three then append questions to the
// chat at the same moment, each breaking the dead lock. Every question must be in the file afterwards.
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import { defaultSettings } from '../../../src/chatProtocol/session';
import type { StoreProcessCommand, StoreProcessReply } from './storeProcess';
import { killHard } from '../../util/processes';

const TRIALS = 50;
const WRITERS = 3;
const QUESTIONS = 2;

function start(): ChildProcess {
  return fork(join(__dirname, 'storeProcess.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** A process that takes the lock of `file` in `folder` and holds it until killed. */
function holder(folder: string, file: string): ChildProcess {
  return fork(join(__dirname, 'storeLockHolder.js'), [folder, file], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function reply(child: ChildProcess, command?: StoreProcessCommand): Promise<StoreProcessReply> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error(`process ${child.pid} exited`));
    child.once('exit', onExit);
    child.once('message', (message: StoreProcessReply) => {
      child.off('exit', onExit);
      resolve(message);
    });
    if (command) child.send(command);
  });
}


describe('chat store with four real processes', function () {
  this.timeout(120_000);
  const writers: ChildProcess[] = [];
  let root = '';

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'mg-store-processes-'));
    for (let i = 0; i < WRITERS; i++) writers.push(start());
  });

  after(() => {
    for (const child of writers) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it(`loses no question when a window dies holding the chat's lock (${TRIALS} trials)`, async () => {
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const folder = join(root, `t${trial}`);
      const seed = new ChatSessionStore(new NodeFileSystem(folder));
      await seed.save({ id: 's1', title: 'Shared', createdAt: 1, updatedAt: 1, settings: defaultSettings(), turns: [{ id: 'seed', role: 'user', createdAt: 1, content: 'seed' }] });
      const dying = holder(folder, 's1.json');
      assert.deepEqual(await reply(dying), { type: 'holding' });
      await killHard(dying);
      const replies = await Promise.all(writers.map((child, i) => reply(child, { type: 'append', folder, sessionId: 's1', prefix: `w${i}`, count: QUESTIONS })));
      for (const answer of replies) if (answer.type !== 'appended' || answer.errors.length > 0) failures.push(`trial ${trial}: ${JSON.stringify(answer)}`);
      const ids = (await new ChatSessionStore(new NodeFileSystem(folder)).peek('s1'))?.turns.map((t) => t.id) ?? [];
      const expected = ['seed', ...writers.flatMap((_c, i) => Array.from({ length: QUESTIONS }, (_x, q) => `w${i}-${q}`))];
      const missing = expected.filter((id) => !ids.includes(id));
      if (missing.length > 0) failures.push(`trial ${trial}: lost ${missing.join(', ')}`);
      const leftovers = readdirSync(folder).filter((name) => name.includes('.lock'));
      if (leftovers.length > 0) failures.push(`trial ${trial}: left ${leftovers.join(', ')}`);
    }
    assert.deepEqual(failures, []);
  });
});
