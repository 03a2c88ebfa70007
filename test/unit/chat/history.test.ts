// The Chats view's pure core: grouping by day, the filter's search index, and the actions (rename, delete with
// undo, branch) over a real store on an in-memory folder.
import * as assert from 'node:assert/strict';
import { defaultSettings, emptyAssistantTurn, type ChatSession, type Turn } from '../../../src/chatProtocol/session';
import { ChatHistoryActions, UNDO_MS, type OpenChat } from '../../../src/chat/core/historyActions';
import { branchSession, cleanTitle, groupSessions, sessionDescription } from '../../../src/chat/core/historyModel';
import { SessionSearchIndex } from '../../../src/chat/core/historySearch';
import { ChatSessionStore, type SessionSummary } from '../../../src/chat/core/sessionStore';
import { FakeClock } from '../../util/fakeClock';
import { MemoryFileSystem } from './fakes';

function user(id: string, content = id): Turn {
  return { id, role: 'user', createdAt: 1, content };
}

function answer(id: string, content = id): Turn {
  return { ...emptyAssistantTurn(id, 'model-k3', 1), content, status: 'complete' };
}

function chat(id: string, turns: Turn[], extra: Partial<ChatSession> = {}): ChatSession {
  return { id, title: `Title ${id}`, createdAt: 1, updatedAt: 1, settings: { ...defaultSettings(), model: 'model-k3' }, turns, ...extra };
}

function summary(id: string, updatedAt: number, title = id): SessionSummary {
  return { id, title, createdAt: updatedAt, updatedAt, model: 'm', turns: 1 };
}

function setup(open: Map<string, OpenChat> = new Map()) {
  const clock = new FakeClock(new Date(2026, 5, 10, 12, 0).getTime());
  const fs = new MemoryFileSystem(() => clock.now());
  const errors: string[] = [];
  const store = new ChatSessionStore(fs, { clock, pid: 1, isAlive: () => true, report: { error: (e, what) => errors.push(`${what}: ${String(e)}`) } });
  const closed: string[] = [];
  let n = 0;
  const actions = new ChatHistoryActions(store, { find: (id) => open.get(id), close: async (id) => void closed.push(id) }, clock, () => `new-${++n}`);
  return { clock, fs, store, actions, errors, closed };
}

describe('Chats view core', () => {
  describe('grouping', () => {
    it('puts sessions in Today / Yesterday / Last 7 days / Older by local day, newest first, and leaves out empty groups', () => {
      const now = new Date(2026, 5, 10, 9, 30).getTime();
      const at = (day: number, hour: number) => new Date(2026, 5, day, hour).getTime();
      const groups = groupSessions(
        [summary('y-late', at(9, 23)), summary('t-early', at(10, 0)), summary('old', at(2, 23)), summary('t-late', at(10, 9)), summary('week', at(3, 0)), summary('y-early', at(9, 0))],
        now,
      );
      assert.deepEqual(
        groups.map((g) => [g.name, g.sessions.map((s) => s.id)]),
        [
          ['Today', ['t-late', 't-early']],
          ['Yesterday', ['y-late', 'y-early']],
          ['Last 7 days', ['week']],
          ['Older', ['old']],
        ],
      );
      assert.deepEqual(groupSessions([summary('a', at(1, 1))], now).map((g) => g.name), ['Older']);
    });

    it('describes a session by model and turn count', () => {
      assert.equal(sessionDescription({ model: 'model-k3', turns: 1 }), 'model-k3 · 1 turn');
      assert.equal(sessionDescription({ model: '', turns: 3 }), '3 turns');
    });
  });

  describe('filter', () => {
    it('matches every word in titles or message text, case-insensitively, reading each session once until it changes', async () => {
      const sessions = new Map<string, ChatSession>([
        ['a', chat('a', [user('u', 'How do I parse YAML in Rust?'), answer('r', 'Use the serde_yaml crate.')], { title: 'YAML question' })],
        ['b', chat('b', [user('u', 'Explain monads'), answer('r', 'A monad is a monoid in the category of endofunctors.')], { title: 'Monads' })],
      ]);
      const reads: string[] = [];
      const index = new SessionSearchIndex(async (id) => {
        reads.push(id);
        return sessions.get(id);
      });
      const list = [summary('a', 2, 'YAML question'), summary('b', 1, 'Monads')];
      assert.deepEqual((await index.filter(list, 'SERDE_yaml')).map((s) => s.id), ['a']);
      assert.deepEqual((await index.filter(list, 'monoid endofunctors')).map((s) => s.id), ['b']);
      assert.deepEqual((await index.filter(list, 'monoid rust')).map((s) => s.id), []);
      assert.deepEqual((await index.filter(list, 'yaml')).map((s) => s.id), ['a'], 'a title match');
      assert.deepEqual((await index.filter(list, '  ')).map((s) => s.id), ['a', 'b'], 'an empty filter shows all');
      assert.deepEqual(reads.sort(), ['a', 'b'], 'each session read once');
      sessions.get('b')!.turns.push(user('u2', 'and functors?'));
      const changed = [list[0]!, summary('b', 5, 'Monads')];
      assert.deepEqual((await index.filter(changed, 'functors?')).map((s) => s.id), ['b']);
      assert.deepEqual(reads.sort(), ['a', 'b', 'b'], 'a changed session is read again');
      await index.filter([list[0]!], 'nothing');
      assert.equal(index.size, 1, 'a session no longer listed is forgotten');
    });
  });

  describe('titles', () => {
    it('cleans a title a user typed or a model proposed', () => {
      assert.equal(cleanTitle('  "Parsing YAML in Rust."  \nmore'), 'Parsing YAML in Rust');
      assert.equal(cleanTitle('Title: **Rust   YAML**'), 'Rust YAML');
      assert.equal(cleanTitle('a\u202eb\u0007c'), 'a b c');
      assert.equal(cleanTitle(' \n  '), undefined);
      assert.equal(cleanTitle('x'.repeat(500))!.length, 200);
    });

    it('uses the first question, trimmed, as the title of a new summary in the index', async () => {
      const s = setup();
      await s.store.save(chat('a', [user('u', 'q')], { title: 'First question' }));
      assert.deepEqual(await s.store.list(), [{ id: 'a', title: 'First question', createdAt: 1, updatedAt: 1, model: 'model-k3', turns: 1 }]);
    });
  });

  describe('rename', () => {
    it('renames a saved session through the store without moving it in the list', async () => {
      const s = setup();
      await s.store.save(chat('a', [user('u')], { updatedAt: 7 }));
      assert.equal(await s.actions.rename('a', '  New name  '), 'renamed');
      const [listed] = await s.store.list();
      assert.equal(listed!.title, 'New name');
      assert.equal(listed!.updatedAt, 7);
      assert.equal((await s.store.peek('a'))!.title, 'New name');
      assert.equal(await s.actions.rename('a', '   '), 'empty');
      assert.equal(await s.actions.rename('gone', 'x'), 'missing');
    });

    it('renames an open session through its chat, which owns it while open', async () => {
      const renamed: string[] = [];
      const open = new Map<string, OpenChat>([['a', { session: chat('a', []), rename: async (t) => void renamed.push(t) }]]);
      const s = setup(open);
      assert.equal(await s.actions.rename('a', 'Mine'), 'renamed');
      assert.deepEqual(renamed, ['Mine']);
    });
  });

  describe('delete and undo', () => {
    it('closes the open panel, deletes the files, and brings them back byte for byte on undo', async () => {
      const s = setup();
      await s.store.save(chat('a', [user('u'), answer('r', 'text')]));
      await s.store.save(chat('b', [user('u')]));
      s.fs.files.set('a.r2.journal', '{"turnId":"r2","content":{"at":0,"text":"x"}}\n');
      const before = new Map([...s.fs.files].filter(([name]) => name.startsWith('a.')));
      const token = await s.actions.delete('a');
      assert.ok(token !== undefined);
      assert.deepEqual(s.closed, ['a']);
      assert.deepEqual([...s.fs.files.keys()].filter((n) => n.startsWith('a.')), []);
      assert.deepEqual((await s.store.list()).map((x) => x.id), ['b']);
      assert.equal(await s.actions.undo(token), 'restored');
      assert.deepEqual(new Map([...s.fs.files].filter(([name]) => name.startsWith('a.'))), before);
      assert.deepEqual((await s.store.list()).map((x) => x.id).sort(), ['a', 'b']);
      assert.equal(await s.actions.undo(token), 'expired', 'an undo is used once');
      assert.deepEqual(s.errors, []);
    });

    it('cannot be undone once the undo window has passed', async () => {
      const s = setup();
      await s.store.save(chat('a', [user('u')]));
      const token = await s.actions.delete('a');
      s.clock.advance(UNDO_MS + 1);
      assert.equal(await s.actions.undo(token!), 'expired');
      assert.equal(await s.store.peek('a'), undefined);
    });

    it('does not overwrite a session that exists again', async () => {
      const s = setup();
      await s.store.save(chat('a', [user('u')]));
      const token = await s.actions.delete('a');
      await s.store.save(chat('a', [user('other')]));
      assert.equal(await s.actions.undo(token!), 'exists');
      assert.equal((await s.store.peek('a'))!.turns[0]!.id, 'other');
    });

    it('deletes nothing, and offers no undo, for a session that is not saved', async () => {
      const s = setup();
      assert.equal(await s.actions.delete('nothing'), undefined);
    });
  });

  describe('branch', () => {
    it('saves a new session with the turns up to the picked one, leaving the source alone', async () => {
      const s = setup();
      const source = chat('a', [user('u1'), answer('r1'), user('u2'), { ...emptyAssistantTurn('r2', 'm', 1), content: 'half' }], { title: 'Source' });
      await s.store.save(source);
      const copy = await s.actions.branch('a', 'r1');
      assert.ok(copy);
      assert.equal(copy.id, 'new-1');
      assert.equal(copy.title, 'Source (branch)');
      assert.deepEqual(copy.turns.map((t) => t.id), ['u1', 'r1']);
      assert.deepEqual((await s.store.peek('new-1'))!.turns.map((t) => t.id), ['u1', 'r1']);
      assert.equal((await s.store.peek('a'))!.turns.length, 4);
      assert.equal(await s.actions.branch('a', 'no-such-turn'), undefined);
    });

    it('keeps a reply that was streaming as interrupted in the copy', () => {
      const source = chat('a', [user('u1'), { ...emptyAssistantTurn('r1', 'm', 1), content: 'half' }]);
      const copy = branchSession(source, 'r1', 'b', 5)!;
      assert.equal(copy.turns[1]!.role === 'assistant' && copy.turns[1]!.status, 'interrupted');
      assert.equal(source.turns[1]!.role === 'assistant' && source.turns[1]!.status, 'streaming', 'the source is not changed');
    });
  });
});
