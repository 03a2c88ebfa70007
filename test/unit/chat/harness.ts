// Builds a chat controller over an in-memory store, a fake gateway and a fake clock.
import { ChatController, type ChatEvent } from '../../../src/chat/chatController';
import type { GatewayAccess } from '../../../src/gateway/connection';
import { defaultSettings, type ChatSession, type ChatSettings } from '../../../src/chat/model';
import { ChatSessionStore } from '../../../src/chat/sessionStore';
import { FakeClock } from '../../../src/util/fakeClock';
import { FakeGateway, MemoryFileSystem } from './fakes';

export interface Harness {
  clock: FakeClock;
  fs: MemoryFileSystem;
  store: ChatSessionStore;
  gateway: FakeGateway;
  session: ChatSession;
  controller: ChatController;
  events: ChatEvent[];
  storeErrors: string[];
  access: { result: GatewayAccess };
}

export function createHarness(options: { settings?: Partial<ChatSettings>; defaultModel?: string | undefined } = {}): Harness {
  const clock = new FakeClock();
  const fs = new MemoryFileSystem();
  const storeErrors: string[] = [];
  const store = new ChatSessionStore(fs, (error, what) => storeErrors.push(`${what}: ${String(error)}`));
  const gateway = new FakeGateway();
  const access: { result: GatewayAccess } = { result: { ok: true, api: gateway, origin: 'http://127.0.0.1:9' } };
  const session: ChatSession = {
    id: 's1',
    title: 'New Chat',
    createdAt: clock.now(),
    updatedAt: clock.now(),
    settings: { ...defaultSettings(), model: 'model-k3', ...options.settings },
    turns: [],
  };
  let n = 0;
  const controller = new ChatController(session, {
    store,
    clock,
    gateway: async () => access.result,
    defaultModel: async () => ('defaultModel' in options ? options.defaultModel : 'model-k3'),
    newId: () => `t${++n}`,
  });
  const events: ChatEvent[] = [];
  controller.onEvent((event) => events.push(event));
  return { clock, fs, store, gateway, session, controller, events, storeErrors, access };
}

export function eventTypes(events: ChatEvent[]): string[] {
  return events.map((e) => e.type);
}
