// What every end-to-end file starts from: the shared session, a workbench driver and the chat view, filled in by
// a `before` hook of the calling `describe`.
//
// Each file is a flow of steps that build on each other: after a failed step, the rest of its flow is skipped. A
// flow names the flows whose results it uses (`needs`); when one of them failed or was skipped, it is skipped too,
// and every other flow still runs (no bail: one broken flow must not hide the others' results).
import { ChatView } from './chat';
import { session, type E2ESession } from './session';
import { SLOW_MS, WAIT_MS, Workbench } from './workbench';
import { checkWebviewProblems } from './webviewProblems';

export interface E2E {
  s: E2ESession;
  wb: Workbench;
  chat: ChatView;
}

/** The flows of this run: names seen so far, and those that did not finish. */
const declared = new Set<string>();
const broken = new Map<string, string>();

/**
 * The workbench, with every async method timed: a step that waits out a limit and then goes on (a retry that works)
 * passes, but costs CI minutes; the log says which step it was.
 */
function timedSteps(wb: Workbench): Workbench {
  return new Proxy(wb, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const started = Date.now();
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (!(result instanceof Promise)) return result;
        const report = () => {
          const ms = Date.now() - started;
          if (ms > SLOW_MS) console.log(`      [slow step] ${String(key)}(${args.map((a) => JSON.stringify(a)?.slice(0, 60) ?? typeof a).join(', ')}): ${(ms / 1000).toFixed(1)} s`);
        };
        return result.finally(report);
      };
    },
  });
}

export function useE2E(flow: string, needs: readonly string[]): E2E {
  const e = {} as E2E;
  if (declared.has(flow)) throw new Error(`two e2e flows are called ${flow}`);
  for (const need of needs) if (!declared.has(need)) throw new Error(`e2e flow ${flow} needs ${need}, which no earlier file declares`);
  declared.add(flow);
  let failedStep: string | undefined;
  before(async function () {
    const missing = needs.filter((need) => broken.has(need));
    if (missing.length > 0) {
      broken.set(flow, `needs ${missing.join(', ')}`);
      console.log(`      (skipping the flow "${flow}": ${missing.map((m) => `${m} ${broken.get(m)}`).join('; ')})`);
      this.skip();
    }
    // The first file's hook starts VS Code: the slowest step of the suite.
    this.timeout(6 * WAIT_MS);
    e.s = await session();
    e.wb = timedSteps(new Workbench(e.s));
    e.chat = new ChatView(e.wb);
    // What a failed flow left open (a palette, a menu, a dialog) must not trip the next one.
    if (broken.size > 0) await e.wb.tidy();
  });
  beforeEach(function () {
    if (failedStep) this.skip();
  });
  afterEach(function () {
    // An uncaught error or a CSP violation in a webview fails the step during which it was seen.
    checkWebviewProblems(this);
    if (this.currentTest?.state === 'failed') {
      failedStep ??= this.currentTest.title;
      broken.set(flow, `failed at "${failedStep}"`);
    }
  });
  return e;
}

/** The flows that failed or were skipped so far. */
export function brokenFlows(): string[] {
  return [...broken.keys()];
}
