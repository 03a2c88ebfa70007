// Session files that are partly or wholly unreadable: a bad turn costs that turn, an unreadable file is moved
// aside and reported, and nothing is ever overwritten with an empty chat.
import * as assert from 'node:assert/strict';
import { LIMITS, defaultSettings, type ChatSession } from '../../../src/chatProtocol/session';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import { FakeClock } from '../../util/fakeClock';
import { MemoryFileSystem } from './fakes';

function setup() {
  const clock = new FakeClock(Date.UTC(2025, 0, 2, 3, 4, 5, 678));
  const fs = new MemoryFileSystem(() => clock.now());
  const reports: string[] = [];
  const store = new ChatSessionStore(fs, {
    clock,
    isAlive: () => true,
    report: {
      error: (error, what) => reports.push(`error ${what}: ${String(error)}`),
      corrupt: (file, movedTo, reason) => reports.push(`corrupt ${file} -> ${movedTo} (${reason})`),
      repaired: (id, repaired, dropped) => reports.push(`repaired ${id}: ${repaired} repaired, ${dropped} dropped`),
    },
  });
  return { clock, fs, store, reports };
}

function stored(session: unknown): string {
  return JSON.stringify({ format: 1, session });
}

const BAD_REPLY = {
  id: 'a1',
  role: 'assistant',
  createdAt: 2,
  model: 'm'.repeat(250),
  content: 'A reply whose other fields are odd.',
  reasoning: '',
  refusal: '',
  toolCalls: [{ id: 'c'.repeat(250), name: 'f', arguments: '{}' }],
  status: 'complete',
  finishReason: 'x'.repeat(120),
  usage: { prompt: 4, completion: 6 },
};

describe('ChatSessionStore: bad files', () => {
  it('loads a session whose reply has bad fields with every turn, repaired (it used to restore an empty chat)', async () => {
    const { fs, store, reports } = setup();
    fs.files.set('s1.json', stored({ id: 's1', title: 'Odd', createdAt: 1, updatedAt: 2, settings: defaultSettings(), turns: [{ id: 'u1', role: 'user', createdAt: 1, content: 'Hi' }, BAD_REPLY] }));
    const session = await store.load('s1');
    assert.ok(session);
    assert.deepEqual(
      session.turns.map((t) => t.content),
      ['Hi', 'A reply whose other fields are odd.'],
    );
    const reply = session.turns[1];
    assert.ok(reply.role === 'assistant');
    assert.deepEqual(reply.usage, { prompt: 4, completion: 6, total: 10 });
    assert.equal(reply.model.length, LIMITS.model);
    assert.deepEqual(reports, ['repaired s1: 1 repaired, 0 dropped']);
    const rewritten = JSON.parse(fs.files.get('s1.json') ?? '{}');
    assert.equal(rewritten.session.turns[1].usage.total, 10, 'the repaired session is written back');
  });

  it('drops only the turns that have nothing usable', async () => {
    const { fs, store, reports } = setup();
    const turns = [{ id: 'u1', role: 'user', createdAt: 1, content: 'Kept' }, { role: 'user', content: 'no id' }, { id: '../u2', role: 'tool', content: 'unknown role, and an id that is a path' }, 42];
    fs.files.set('s1.json', stored({ id: 's1', title: 'T', createdAt: 1, updatedAt: 1, settings: 'not settings', turns }));
    const session = await store.load('s1');
    assert.deepEqual(
      session?.turns.map((t) => t.id),
      ['u1'],
    );
    assert.deepEqual(session?.settings, defaultSettings());
    assert.deepEqual(reports, ['repaired s1: 0 repaired, 3 dropped']);
  });

  it('moves a file it cannot read aside as <name>.corrupt-<time>, reports it, and never overwrites it', async () => {
    const { fs, store, reports } = setup();
    fs.files.set('s1.json', '{"format":1,"session":{"id":"s1","turns":[{"id":"u1","role":"user","cont');
    assert.equal(await store.load('s1'), undefined);
    const aside = 's1.json.corrupt-2025-01-02T03-04-05-678Z';
    assert.equal(fs.files.get(aside), '{"format":1,"session":{"id":"s1","turns":[{"id":"u1","role":"user","cont');
    assert.equal(fs.files.has('s1.json'), false);
    assert.deepEqual(reports, [`corrupt s1.json -> ${aside} (it is not valid JSON)`]);

    // The panel restored under the same id starts empty; its first save makes a new file and keeps the old one.
    const fresh: ChatSession = { id: 's1', title: 'New Chat', createdAt: 1, updatedAt: 1, settings: defaultSettings(), turns: [] };
    await store.save(fresh);
    assert.ok(fs.files.get(aside)?.includes('"cont'), 'the unreadable file is kept as it was');
    assert.ok(fs.files.get('s1.json')?.includes('"New Chat"'));
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      ['s1'],
    );
  });

  it('a save never replaces a file it cannot read: it is moved aside first', async () => {
    const { fs, store, reports } = setup();
    fs.files.set('s1.json', '{"format":"x"}');
    await store.save({ id: 's1', title: 'Mine', createdAt: 1, updatedAt: 1, settings: defaultSettings(), turns: [] });
    assert.equal(fs.files.get('s1.json.corrupt-2025-01-02T03-04-05-678Z'), '{"format":"x"}');
    assert.ok(fs.files.get('s1.json')?.includes('"Mine"'));
    assert.equal(reports.length, 1);
    assert.match(reports[0], /^corrupt s1\.json -> s1\.json\.corrupt-.* \(it is not a chat session file this version can read\)$/);
  });
});
