// Builds a chat controller over an in-memory store, a fake gateway and a fake clock.
import { ChatController } from '../../../src/chat/core/chatController';
import type { ChatEvent } from '../../../src/chat/core/chatEvent';
import type { GatewayAccess } from '../../../src/gateway/connection';
import { defaultSettings, type ChatSession, type ChatSettings } from '../../../src/chatProtocol/session';
import { ChatSessionStore, type StoreReporter } from '../../../src/chat/core/sessionStore';
import { FakeClock } from '../../util/fakeClock';
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

export interface HarnessOptions {
  settings?: Partial<ChatSettings>;
  defaultModel?: string | undefined;
  /** Another window on the same folder: share its clock and file system, with a pid and id prefix of its own. */
  window?: { clock: FakeClock; fs: MemoryFileSystem; pid: number; session: ChatSession };
  /** What the store tells its owner besides errors (which land in `storeErrors`). */
  report?: Partial<StoreReporter>;
}

export function createHarness(options: HarnessOptions = {}): Harness {
  const clock = options.window?.clock ?? new FakeClock();
  const fs = options.window?.fs ?? new MemoryFileSystem(() => clock.now());
  const storeErrors: string[] = [];
  const store = new ChatSessionStore(fs, { clock, pid: options.window?.pid ?? 1000, isAlive: () => true, report: { ...options.report, error: (error, what) => storeErrors.push(`${what}: ${String(error)}`) } });
  const gateway = new FakeGateway();
  const access: { result: GatewayAccess } = { result: { ok: true, api: gateway, origin: 'http://127.0.0.1:9' } };
  const session: ChatSession = options.window?.session ?? {
    id: 's1',
    title: 'New Chat',
    createdAt: clock.now(),
    updatedAt: clock.now(),
    settings: { ...defaultSettings(), model: 'model-k3', ...options.settings },
    turns: [],
  };
  const prefix = options.window ? `w${options.window.pid}-` : '';
  let n = 0;
  const controller = new ChatController(session, {
    store,
    clock,
    gateway: async () => access.result,
    defaultModel: async () => ('defaultModel' in options ? options.defaultModel : 'model-k3'),
    newId: () => `${prefix}t${++n}`,
  });
  const events: ChatEvent[] = [];
  controller.onEvent((event) => events.push(event));
  return { clock, fs, store, gateway, session, controller, events, storeErrors, access };
}

export function eventTypes(events: ChatEvent[]): string[] {
  return events.map((e) => e.type);
}
