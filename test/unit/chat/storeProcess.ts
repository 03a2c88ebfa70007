// One VS Code window's chat store in a process of its own, driven over IPC by storeProcesses.test.ts: `append` adds
// questions to a chat, one save each (as a window does for each question it sends).
import { NodeFileSystem } from '../../../src/util/storeFileSystem';
import { ChatSessionStore } from '../../../src/chat/core/sessionStore';
import type { ChatSession } from '../../../src/chatProtocol/session';

export type StoreProcessCommand = { type: 'append'; folder: string; sessionId: string; prefix: string; count: number };
export type StoreProcessReply = { type: 'holding' } | { type: 'appended'; errors: string[] } | { type: 'failed'; error: string };

const send = (reply: StoreProcessReply) => process.send?.(reply);

async function append(command: Extract<StoreProcessCommand, { type: 'append' }>): Promise<void> {
  const errors: string[] = [];
  const store = new ChatSessionStore(new NodeFileSystem(command.folder), { report: { error: (error, what) => errors.push(`${what}: ${String(error)}`) } });
  let session: ChatSession | undefined = await store.load(command.sessionId);
  if (!session) throw new Error(`no chat ${command.sessionId}`);
  for (let i = 0; i < command.count; i++) {
    session.turns.push({ id: `${command.prefix}-${i}`, role: 'user', createdAt: Date.now(), content: `${command.prefix} question ${i}` });
    session.updatedAt = Date.now();
    session = (await store.save(session)) ?? session;
  }
  send({ type: 'appended', errors });
}

process.on('message', (command: StoreProcessCommand) => {
  append(command).catch((error: unknown) => send({ type: 'failed', error: String(error) }));
});
