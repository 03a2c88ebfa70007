// What every end-to-end file starts from: the shared session, a workbench driver and the chat view, filled in by
// a `before` hook of the calling `describe`.
import { ChatView } from './chat';
import { session, type E2ESession } from './session';
import { WAIT_MS, Workbench } from './workbench';

export interface E2E {
  s: E2ESession;
  wb: Workbench;
  chat: ChatView;
}

export function useE2E(): E2E {
  const e = {} as E2E;
  before(async function () {
    // The first file's hook starts VS Code: the slowest step of the suite.
    this.timeout(6 * WAIT_MS);
    e.s = await session();
    e.wb = new Workbench(e.s);
    e.chat = new ChatView(e.wb);
  });
  return e;
}
