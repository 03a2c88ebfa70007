// Files written by a newer version: what this version does not know survives a round trip, and a file with a
// newer format number is copied before this version first rewrites it.
import * as assert from 'node:assert/strict';
import { ChatSessionStore, FORMAT, backupFile } from '../../../src/chat/core/sessionStore';
import { wireTurn } from '../../../src/chat/core/webviewBridge';
import { parseHostMessage } from '../../../src/chatProtocol/messages';
import type { ChatSession } from '../../../src/chatProtocol/session';
import { MemoryFileSystem } from './fakes';

const poll = { id: 'p1', role: 'poll', createdAt: 5, question: 'Which?', options: ['a', 'b'], nested: { deep: [1, { x: null }] } };

function newerFile(format = 1): Record<string, unknown> {
  return {
    format,
    rev: 'w-1-1',
    session: {
      id: 's1',
      title: 'From the future',
      createdAt: 1,
      updatedAt: 2,
      pinned: true,
      settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default', seedFromFuture: 7 }, maxTokens: null, stop: [], jsonMode: false, reasoningEffort: 'high' },
      turns: [
        { id: 'u1', role: 'user', createdAt: 3, content: 'Hi', language: 'de', attachments: [{ kind: 'text', id: 'c1', source: 'file', path: 'a.ts', language: 'typescript', startLine: 1, endLine: 1, totalLines: 1, text: 'x', hash: 'abc' }] },
        poll,
        {
          id: 'a1',
          role: 'assistant',
          createdAt: 4,
          model: 'model-k3',
          content: 'Hello',
          reasoning: '',
          refusal: '',
          toolCalls: [{ id: 't1', name: 'f', arguments: '{}', durationMs: 12 }],
          status: 'failed',
          finishReason: 'stop',
          usage: { prompt: 1, completion: 2, total: 3, cachedTokens: 1 },
          error: { message: 'Oops', kind: 'server', actions: [{ title: 'Retry', command: 'modelGateway.retry', icon: 'refresh' }], traceId: 'T' },
          citations: [{ url: 'https://example.com' }],
        },
      ],
    },
    writer: { version: '9.0.0' },
  };
}

function setup(file: Record<string, unknown>) {
  const fs = new MemoryFileSystem();
  const text = JSON.stringify(file);
  fs.files.set('s1.json', text);
  const reports: string[] = [];
  const store = new ChatSessionStore(fs, { report: { repaired: (id) => reports.push(`repaired ${id}`), corrupt: (f) => reports.push(`corrupt ${f}`), error: (_e, what) => reports.push(`error ${what}`) } });
  return { fs, text, store, reports };
}

function stored(fs: MemoryFileSystem, name = 's1.json'): Record<string, unknown> {
  return JSON.parse(fs.files.get(name) ?? 'null') as Record<string, unknown>;
}

async function addQuestion(store: ChatSessionStore): Promise<ChatSession> {
  const session = await store.load('s1');
  assert.ok(session);
  session.turns.push({ id: 'u2', role: 'user', createdAt: 9, content: 'More' });
  session.turns[0] = { ...session.turns[0], content: 'Hi (edited)' } as ChatSession['turns'][number];
  session.title = 'Renamed';
  await store.save(session);
  return session;
}

describe('chat store and files from a newer version', () => {
  it('keeps a turn of an unknown kind in place, shows it as one, and does not rewrite the file on opening', async () => {
    const { fs, text, store, reports } = setup(newerFile());
    const session = await store.load('s1');
    assert.deepEqual(
      session?.turns.map((t) => `${t.role}:${t.id}`),
      ['user:u1', 'newer:p1', 'assistant:a1'],
    );
    assert.equal(fs.files.get('s1.json'), text, 'opening the chat changed nothing on disk');
    assert.deepEqual(reports, [], 'unknown fields are not repairs');
    const wire = wireTurn(session!.turns[1], 0);
    assert.deepEqual(wire, { id: 'p1', role: 'newer', createdAt: 5, kind: 'poll', content: '' }, 'the webview learns only that it is a newer turn');
    assert.ok(parseHostMessage({ type: 'turnAdded', turn: wire }).ok);
  });

  it('writes back every field it does not know, on the session, settings, turns and nested records, and the unknown turn exactly', async () => {
    const { fs, store } = setup(newerFile());
    await addQuestion(store);
    const file = stored(fs);
    const original = newerFile();
    const session = file.session as Record<string, unknown>;
    const before = original.session as Record<string, unknown>;
    assert.deepEqual(file.writer, original.writer, "the file's own unknown field");
    assert.equal(session.pinned, true);
    assert.equal(session.title, 'Renamed', 'known fields take the new values');
    assert.deepEqual(session.settings, before.settings);
    const turns = session.turns as Array<Record<string, unknown>>;
    const oldTurns = before.turns as Array<Record<string, unknown>>;
    assert.deepEqual(
      turns.map((t) => t.id),
      ['u1', 'p1', 'a1', 'u2'],
    );
    assert.deepEqual(turns[0], { ...oldTurns[0], content: 'Hi (edited)' });
    assert.deepEqual(turns[1], poll, 'the unknown turn is written back as it was');
    assert.deepEqual(turns[2], oldTurns[2]);
    assert.deepEqual(turns[3], { id: 'u2', role: 'user', createdAt: 9, content: 'More' });
    assert.equal(file.format, FORMAT, 'an older format is written as this one');
    assert.deepEqual(
      [...fs.files.keys()].filter((n) => n.includes('.bak.')),
      [],
      'a file of an older format needs no copy',
    );
  });

  it('reads a file with a newer format number, copies it beside itself before the first rewrite, and keeps that copy', async () => {
    const { fs, text, store, reports } = setup(newerFile(3));
    await addQuestion(store);
    assert.deepEqual(reports, []);
    assert.equal(fs.files.get(backupFile('s1', 3)), text, 'the original, byte for byte');
    assert.equal(backupFile('s1', 3), 's1.v3.bak.json');
    assert.equal(stored(fs).format, 3, 'the newer version still reads it as its own');
    assert.deepEqual((stored(fs).session as { turns: unknown[] }).turns[1], poll);
    const session = await store.load('s1');
    session!.turns.push({ id: 'u3', role: 'user', createdAt: 10, content: 'Again' });
    await store.save(session!);
    assert.equal(fs.files.get(backupFile('s1', 3)), text, 'a later rewrite leaves the first copy alone');
    assert.deepEqual(
      (await store.list()).map((s) => s.id),
      ['s1'],
      'the copy is not listed as a chat',
    );
  });

  it('keeps a media turn and an attachment of an unknown kind, does not rewrite the file on opening, and writes them back as they were', async () => {
    const music = { id: 'm1', role: 'media', createdAt: 6, kind: 'music', content: '', prompt: 'a tune', model: 'm-9', state: 'complete', score: { bars: 8 } };
    const audio = { kind: 'audio', id: 'c2', name: 'voice.ogg', mimeType: 'audio/ogg', data: 'AAAA' };
    const file = newerFile(FORMAT);
    const turns = (file.session as { turns: Array<Record<string, unknown>> }).turns;
    turns[0] = { ...turns[0], attachments: [audio, ...(turns[0].attachments as unknown[])] };
    turns.push(music, { id: 'u9', role: 'user', createdAt: 7, content: 'Only a newer one', attachments: [{ ...audio, id: 'c9' }] });
    const { fs, text, store, reports } = setup(file);
    const session = await store.load('s1');
    assert.deepEqual(
      session?.turns.map((t) => `${t.role}:${t.id}`),
      ['user:u1', 'newer:p1', 'assistant:a1', 'newer:m1', 'user:u9'],
    );
    assert.equal(fs.files.get('s1.json'), text, 'opening the chat changed nothing on disk');
    assert.deepEqual(reports, [], 'newer kinds are not damage');
    const first = session!.turns[0];
    assert.deepEqual(first.role === 'user' && first.attachments?.map((a) => a.id), ['c1'], 'this version sends only what it knows');
    await addQuestion(store);
    const written = (stored(fs).session as { turns: Array<Record<string, unknown>> }).turns;
    assert.deepEqual(written[0].attachments, [audio, (turns[0].attachments as unknown[])[1]], 'the unknown attachment, in its place');
    assert.deepEqual(written[3], music, 'the unknown media turn, exactly');
    assert.deepEqual(written[4], turns[4], 'a turn whose only attachment is of an unknown kind');
  });

  it('writes this format, reads every older one, and copies a file of a newer one before rewriting it', async () => {
    assert.ok(FORMAT >= 2, 'media turns, speech and image attachments raised the format');
    for (const format of [1, FORMAT, FORMAT + 1]) {
      const { fs, text, store } = setup(newerFile(format));
      await addQuestion(store);
      assert.equal(stored(fs).format, Math.max(format, FORMAT));
      assert.equal(fs.files.get(backupFile('s1', format)), format > FORMAT ? text : undefined, `format ${format}`);
    }
  });

  it("keeps another window's unknown fields when merging with its newer write", async () => {
    const { fs, store } = setup(newerFile());
    const session = await store.load('s1');
    // Another window (a newer version) rewrites the file with a new turn and a new field meanwhile.
    const theirs = newerFile();
    const theirSession = theirs.session as { turns: unknown[]; folder?: string };
    theirSession.turns.push({ id: 'p2', role: 'poll', createdAt: 6 });
    theirSession.folder = 'work';
    theirs.rev = 'w-1-2';
    fs.files.set('s1.json', JSON.stringify(theirs));
    session!.turns.push({ id: 'u2', role: 'user', createdAt: 9, content: 'More' });
    await store.save(session!);
    const written = stored(fs).session as { turns: Array<{ id: string }>; folder?: string };
    assert.deepEqual(
      written.turns.map((t) => t.id),
      ['u1', 'p1', 'a1', 'p2', 'u2'],
    );
    assert.equal(written.folder, 'work');
  });
});
