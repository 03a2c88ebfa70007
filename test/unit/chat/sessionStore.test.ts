import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { defaultSettings, emptyAssistantTurn, type AssistantTurn, type ChatSession, type TurnDelta } from '../../../src/chatProtocol/session';
import { ChatSessionStore, STALE_TEMP_MS } from '../../../src/chat/core/sessionStore';
import { FakeClock } from '../../util/fakeClock';
import { MemoryFileSystem } from './fakes';

function session(id: string, updatedAt = 1000, turns: ChatSession['turns'] = []): ChatSession {
  return { id, title: `Chat ${id}`, createdAt: 1000, updatedAt, settings: defaultSettings(), turns };
}

function streamingSession(content = ''): ChatSession {
  const reply: AssistantTurn = { ...emptyAssistantTurn('r1', 'model-k3', 1000), content };
  return session('s1', 1000, [{ id: 'u1', role: 'user', createdAt: 1000, content: 'Hi' }, reply]);
}

function journalLine(delta: TurnDelta): string {
  return `${JSON.stringify(delta)}\n`;
}

describe('ChatSessionStore', () => {
  it('saves and loads a session, and lists it newest first', async () => {
    const fs = new MemoryFileSystem();
    const store = new ChatSessionStore(fs);
    await store.save(session('a', 1000));
    await store.save(session('b', 2000));
    assert.deepEqual(await store.load('a'), session('a', 1000));
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      ['b', 'a'],
    );
    const index = JSON.parse(fs.files.get('index.json') ?? '{}');
    assert.equal(index.sessions.length, 2);
  });

  it('writes every file to a temp name first and renames it into place', async () => {
    const fs = new MemoryFileSystem();
    await new ChatSessionStore(fs).save(session('a'));
    const writes = fs.operations.filter((op) => op.startsWith('write '));
    assert.ok(writes.length >= 2);
    for (const op of writes) assert.match(op, /\.tmp$/);
    assert.ok(fs.operations.some((op) => /^rename a\.json\..*\.tmp>a\.json$/.test(op)));
    assert.ok(fs.operations.some((op) => /^rename index\.json\..*\.tmp>index\.json$/.test(op)));
    assert.deepEqual([...fs.files.keys()].filter((n) => n.endsWith('.tmp')), []);
  });

  it('a failed write leaves the previous snapshot whole and reports the failure', async () => {
    const fs = new MemoryFileSystem();
    const errors: string[] = [];
    const store = new ChatSessionStore(fs, { report: { error: (_error, what) => errors.push(what) } });
    await store.save(session('a', 1000));
    fs.failNext.add('rename');
    await store.save({ ...session('a', 2000), title: 'Changed' });
    assert.deepEqual(errors, ['saving chat a']);
    assert.equal((await store.load('a'))?.title, 'Chat a');
    assert.deepEqual([...fs.files.keys()].filter((n) => n.endsWith('.tmp')), [], 'the temp file is cleaned up');
  });

  it('restores a reply that was streaming from its journal, as interrupted, and tidies up', async () => {
    const fs = new MemoryFileSystem();
    await new ChatSessionStore(fs).save(streamingSession());
    fs.files.set(
      's1.r1.journal',
      journalLine({ turnId: 'r1', reasoning: { at: 0, text: 'Hmm. ' }, content: { at: 0, text: 'Hello' } }) +
        journalLine({ turnId: 'r1', content: { at: 5, text: ', world' }, toolCalls: [{ index: 0, id: 'c1', name: 'f', at: 0, arguments: '{}' }] }),
    );
    const loaded = await new ChatSessionStore(fs).load('s1');
    const reply = loaded?.turns[1];
    assert.ok(reply && reply.role === 'assistant');
    assert.equal(reply.content, 'Hello, world');
    assert.equal(reply.reasoning, 'Hmm. ');
    assert.deepEqual(reply.toolCalls, [{ id: 'c1', name: 'f', arguments: '{}' }]);
    assert.equal(reply.status, 'interrupted');
    assert.equal(reply.error?.kind, 'interrupted');
    assert.equal(fs.files.has('s1.r1.journal'), false);
    const saved = JSON.parse(fs.files.get('s1.json') ?? '{}');
    assert.equal(saved.session.turns[1].status, 'interrupted', 'the repaired session is saved');
  });

  it('replaying a journal over a snapshot that already has part of it adds only what is missing', async () => {
    const fs = new MemoryFileSystem();
    await new ChatSessionStore(fs).save(streamingSession('Hello'));
    fs.files.set(
      's1.r1.journal',
      journalLine({ turnId: 'r1', content: { at: 0, text: 'Hel' } }) + journalLine({ turnId: 'r1', content: { at: 3, text: 'lo wor' } }) + journalLine({ turnId: 'r1', content: { at: 9, text: 'ld' } }),
    );
    const reply = (await new ChatSessionStore(fs).load('s1'))?.turns[1];
    assert.equal(reply?.content, 'Hello world');
  });

  it('ignores a line torn by a crash at the end of the journal', async () => {
    const fs = new MemoryFileSystem();
    await new ChatSessionStore(fs).save(streamingSession());
    fs.files.set('s1.r1.journal', journalLine({ turnId: 'r1', content: { at: 0, text: 'Kept' } }) + '{"turnId":"r1","content":{"at":4,"te');
    assert.equal((await new ChatSessionStore(fs).load('s1'))?.turns[1].content, 'Kept');
  });

  it('never replays a journal into a reply the snapshot already holds as finished', async () => {
    const fs = new MemoryFileSystem();
    const finished = streamingSession('Done.');
    (finished.turns[1] as AssistantTurn).status = 'complete';
    await new ChatSessionStore(fs).save(finished);
    fs.files.set('s1.r1.journal', journalLine({ turnId: 'r1', content: { at: 0, text: 'Done.' } }));
    const reply = (await new ChatSessionStore(fs).load('s1'))?.turns[1];
    assert.equal(reply?.content, 'Done.');
    assert.ok(reply?.role === 'assistant' && reply.status === 'complete');
    assert.equal(fs.files.has('s1.r1.journal'), false, 'the leftover journal is removed');
  });

  it('loads a session with a very long reply', async () => {
    const fs = new MemoryFileSystem();
    const long = streamingSession('x'.repeat(3_000_000));
    (long.turns[1] as AssistantTurn).status = 'complete';
    await new ChatSessionStore(fs).save(long);
    assert.equal((await new ChatSessionStore(fs).load('s1'))?.turns[1].content.length, 3_000_000);
  });

  it('appendJournal writes synchronously', () => {
    const fs = new MemoryFileSystem();
    new ChatSessionStore(fs).appendJournal('s1', { turnId: 'r1', content: { at: 0, text: 'x' } });
    assert.equal(fs.files.get('s1.r1.journal'), '{"turnId":"r1","content":{"at":0,"text":"x"}}\n');
  });

  it('rejects ids that could name another file', async () => {
    const fs = new MemoryFileSystem();
    fs.files.set('index.json', '{}');
    const store = new ChatSessionStore(fs);
    for (const id of ['../index', 'index.json', '', 'a/b', 'x'.repeat(65)]) assert.equal(await store.load(id), undefined);
  });

  it('repairs the index from the session files and removes temp files a crash left', async () => {
    const clock = new FakeClock();
    const fs = new MemoryFileSystem(() => clock.now());
    await new ChatSessionStore(fs, { clock }).save(session('a', 1000));
    await new ChatSessionStore(fs, { clock }).save(session('b', 2000));
    // A crash after b's snapshot but before its index entry, a deleted session file, and a temp file whose writer
    // (pid 77) died a while ago:
    const index = JSON.parse(fs.files.get('index.json') ?? '{}');
    index.sessions = index.sessions.filter((s: { id: string }) => s.id !== 'b').concat([{ id: 'gone', title: 'x', createdAt: 1, updatedAt: 1 }]);
    fs.files.set('index.json', JSON.stringify(index));
    fs.files.set('a.json.77-1.tmp', 'half');
    fs.modified.set('a.json.77-1.tmp', clock.now());
    clock.advance(STALE_TEMP_MS);
    const summaries = await new ChatSessionStore(fs, { clock, isAlive: (pid) => pid !== 77 }).list();
    assert.deepEqual(
      summaries.map((s) => s.id),
      ['b', 'a'],
    );
    assert.equal(fs.files.has('a.json.77-1.tmp'), false);
  });

  it('delete removes the session, its journals and its index entry', async () => {
    const fs = new MemoryFileSystem();
    const store = new ChatSessionStore(fs);
    await store.save(session('a'));
    store.appendJournal('a', { turnId: 'r1', content: { at: 0, text: 'x' } });
    await store.delete('a');
    assert.deepEqual([...fs.files.keys()], ['index.json']);
    assert.deepEqual(await store.list(), []);
  });

  describe('on the real file system', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), 'mg-chat-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it('round-trips a session and restores a streaming reply from its journal', async () => {
      const storeFolder = join(folder, 'chat');
      const store = new ChatSessionStore(new NodeFileSystem(storeFolder));
      await store.save(streamingSession());
      store.appendJournal('s1', { turnId: 'r1', content: { at: 0, text: 'On disk' } });
      const loaded = await new ChatSessionStore(new NodeFileSystem(storeFolder)).load('s1');
      assert.equal(loaded?.turns[1].content, 'On disk');
      assert.deepEqual(readdirSync(storeFolder).sort(), ['index.json', 's1.json']);
    });

    it('refuses names that are paths', async () => {
      const fs = new NodeFileSystem(folder);
      await assert.rejects(fs.write('../escape', 'x'), /plain file name/);
      assert.throws(() => fs.appendSync('a/b', 'x'), /plain file name/);
    });
  });
});
