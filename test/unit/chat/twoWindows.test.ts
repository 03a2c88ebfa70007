// Two VS Code windows on one chat folder: two store instances (two pids) on one file system.
import * as assert from 'node:assert/strict';
import { defaultSettings, emptyAssistantTurn, type ChatSession, type Turn } from '../../../src/chatProtocol/session';
import { parseHostMessage, type HostMessage } from '../../../src/chatProtocol/messages';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import { ChatWebviewBridge, type ChatWorkbench } from '../../../src/chat/core/webviewBridge';
import { FakeClock, settle } from '../../util/fakeClock';
import { MemoryFileSystem } from './fakes';
import { createHarness } from './harness';
import { result } from './fakes';

const A = 101;
const B = 202;

function windows() {
  const clock = new FakeClock();
  const fs = new MemoryFileSystem(() => clock.now());
  const errors: string[] = [];
  const store = (pid: number) => new ChatSessionStore(fs, { clock, pid, isAlive: () => true, report: { error: (error, what) => errors.push(`${pid} ${what}: ${String(error)}`) } });
  return { clock, fs, errors, a: store(A), b: store(B) };
}

function user(id: string, content = id): Turn {
  return { id, role: 'user', createdAt: 1, content };
}

function answer(id: string, content = id): Turn {
  return { ...emptyAssistantTurn(id, 'model-k3', 1), content, status: 'complete' };
}

function chat(turns: Turn[], extra: Partial<ChatSession> = {}): ChatSession {
  return { id: 's1', title: 'Shared', createdAt: 1, updatedAt: 1, settings: defaultSettings(), turns, ...extra };
}

function ids(session: ChatSession | undefined): string[] {
  return session?.turns.map((t) => t.id) ?? [];
}

/** Runs fake time until `promise` settles (lock waits sleep on the clock). */
async function drive<T>(clock: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  void promise.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < 500 && !done; i++) await clock.advanceAsync(20);
  return promise;
}

describe('chat store with two windows', () => {
  it("leaves another window's write in progress alone: only stale temp files are removed", async () => {
    const w = windows();
    const hold = w.fs.hold('rename', /^s1\.json\.101-\d+\.tmp>/);
    const saving = w.a.save(chat([user('u1')]));
    await hold.reached; // A's temp file is written, not yet renamed into place
    const temp = [...w.fs.files.keys()].find((n) => n.endsWith('.tmp'));
    assert.ok(temp);
    await w.b.list(); // B's first look at the folder
    assert.ok(w.fs.files.has(temp), "B left A's temp file alone");
    hold.release();
    await drive(w.clock, saving);
    assert.deepEqual(w.errors, []);
    assert.deepEqual(ids(await windows_load(w.fs, w.clock)), ['u1']);
  });

  it('removes a temp file only when its writer is gone and it is old, or when it is very old', async () => {
    const w = windows();
    w.fs.files.set('x.json.303-1.tmp', 'dead writer');
    w.fs.files.set('y.json.101-1.tmp', 'live writer');
    w.fs.modified.set('x.json.303-1.tmp', w.clock.now());
    w.fs.modified.set('y.json.101-1.tmp', w.clock.now());
    w.clock.advance(60_000);
    const store = new ChatSessionStore(w.fs, { clock: w.clock, pid: B, isAlive: (pid) => pid !== 303 });
    await store.list();
    assert.deepEqual([...w.fs.files.keys()].filter((n) => n.endsWith('.tmp')), ['y.json.101-1.tmp']);
    w.clock.advance(60 * 60_000);
    await new ChatSessionStore(w.fs, { clock: w.clock, pid: B, isAlive: () => true }).list();
    assert.deepEqual([...w.fs.files.keys()].filter((n) => n.endsWith('.tmp')), []);
  });

  it("keeps both windows' new turns when both add to the same chat", async () => {
    const w = windows();
    await w.a.save(chat([user('u1'), answer('a1')]));
    await w.b.load('s1');
    // Window A asks a question; window B, which still has the older copy, asks another.
    await w.a.save(chat([user('u1'), answer('a1'), user('u2'), answer('a2')]));
    const merged = await w.b.save(chat([user('u1'), answer('a1'), user('u3'), answer('a3')]));
    assert.deepEqual(ids(merged), ['u1', 'a1', 'u2', 'a2', 'u3', 'a3'], 'B is told what the file holds now');
    assert.deepEqual(ids(await windows_load(w.fs, w.clock)), ['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    // A's next save, from its own copy, keeps B's turns too.
    await w.a.save(chat([user('u1'), answer('a1'), user('u2'), answer('a2'), user('u4')]));
    assert.deepEqual(ids(await windows_load(w.fs, w.clock)), ['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4']);
    assert.deepEqual(w.errors, []);
  });

  it('merges saves that overlap in time (each holds the file lock while it reads, merges and writes)', async () => {
    const w = windows();
    await w.a.save(chat([user('u1')]));
    await w.b.load('s1');
    const hold = w.fs.hold('rename', /^s1\.json\.101-/);
    const savingA = w.a.save(chat([user('u1'), user('u2')]));
    await hold.reached;
    const savingB = w.b.save(chat([user('u1'), user('u3')]));
    await w.clock.advanceAsync(100); // B waits for A's lock
    hold.release();
    await drive(w.clock, Promise.all([savingA, savingB]));
    assert.deepEqual(ids(await windows_load(w.fs, w.clock)), ['u1', 'u2', 'u3']);
    assert.deepEqual(
      [...w.fs.files.keys()].filter((n) => n.endsWith('.lock')),
      [],
      'every lock is released',
    );
  });

  it('a reply regenerated in one window is not brought back by the other', async () => {
    const w = windows();
    await w.a.save(chat([user('u1'), answer('a1')]));
    await w.b.load('s1');
    await w.a.save(chat([user('u1'), answer('a1-new')]));
    await w.b.save(chat([user('u1'), answer('a1')], { settings: { ...defaultSettings(), jsonMode: true } }));
    const final = await windows_load(w.fs, w.clock);
    assert.deepEqual(ids(final), ['u1', 'a1-new']);
    assert.equal(final?.settings.jsonMode, true, "B's settings change is kept");
  });

  it('a reply another window finished replaces the stale streaming copy', async () => {
    const w = windows();
    const streaming = { ...emptyAssistantTurn('a1', 'model-k3', 1), content: 'Hal' };
    await w.a.save(chat([user('u1'), streaming]));
    await w.b.load('s1');
    await w.a.save(chat([user('u1'), answer('a1', 'Hallo, complete')]));
    await w.b.save(chat([user('u1'), streaming], { title: 'Renamed in B' }));
    const final = await windows_load(w.fs, w.clock);
    assert.equal(final?.turns[1].content, 'Hallo, complete');
    assert.equal(final?.title, 'Renamed in B');
  });

  it("keeps the index right: each window lists the other's chats, and no write drops an entry", async () => {
    const w = windows();
    await w.a.save(chat([], { id: 'a' }));
    await w.b.save(chat([], { id: 'b', updatedAt: 5 }));
    await w.a.save(chat([], { id: 'c', updatedAt: 9 }));
    const index = JSON.parse(w.fs.files.get('index.json') ?? '{}') as { sessions: Array<{ id: string }> };
    assert.deepEqual(index.sessions.map((s) => s.id).sort(), ['a', 'b', 'c'], "A's write kept B's entry");
    assert.deepEqual(
      (await w.a.list()).map((s) => s.id),
      ['c', 'b', 'a'],
    );
  });

  it('a chat open in two windows shows the turns the other window added, at its next save', async () => {
    const clock = new FakeClock();
    const fs = new MemoryFileSystem(() => clock.now());
    const session = (): ChatSession => chat([], { settings: { ...defaultSettings(), model: 'model-k3' } });
    const one = createHarness({ window: { clock, fs, pid: A, session: session() } });
    const two = createHarness({ window: { clock, fs, pid: B, session: session() } });

    one.controller.send('From window one');
    await settle();
    one.gateway.calls[0].resolve(result('Answer one'));
    await one.controller.idle;

    const posted: HostMessage[] = [];
    const bridge = new ChatWebviewBridge(two.controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: [], loading: false }), clock, { info() {}, warn() {}, error() {} });
    await bridge.handle({ type: 'ready' });
    two.controller.send('From window two');
    await settle();
    assert.deepEqual(
      two.session.turns.map((t) => t.content),
      ['From window one', 'Answer one', 'From window two', ''],
    );
    assert.ok(two.events.some((e) => e.type === 'reloaded'));
    const init = posted.filter((m) => m.type === 'init').at(-1);
    assert.ok(init && init.type === 'init' && init.turns.length === 4, 'the webview is sent the merged transcript');
    assert.ok(parseHostMessage(init).ok);
    two.gateway.calls[0].resolve(result('Answer two'));
    await two.controller.idle;
    assert.deepEqual(
      (await windows_load(fs, clock))?.turns.map((t) => t.content),
      ['From window one', 'Answer one', 'From window two', 'Answer two'],
    );
    assert.deepEqual([...one.storeErrors, ...two.storeErrors], []);
  });
});

/** What a third window would read. */
function windows_load(fs: MemoryFileSystem, clock: FakeClock): Promise<ChatSession | undefined> {
  return new ChatSessionStore(fs, { clock, pid: 999, isAlive: () => true }).load('s1');
}
