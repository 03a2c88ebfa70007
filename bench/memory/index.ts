// Runs inside a real VS Code extension host (loaded like the host test suite, see scripts/vscode-host.mjs) and
// measures this host's heap after a forced garbage collection around four repeated actions: a chat panel opened and
// closed, replies streamed (ten panels of ten replies, each closed after its replies), the Usage dashboard opened
// and closed, and 200 finished video jobs shown for an hour of fake time. Each case runs a few warm-up cycles first
// (the first use loads the feature's files, which stay: that is not a leak), then reads the heap before and after
// its cycles, and at checkpoints between, so the growth per cycle is a slope and not one reading.
import { mkdtempSync, rmSync } from 'node:fs';
import * as inspector from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../src/chat/vscode/chatPanelManager';
import type { HostMessage } from '../../src/chatProtocol/messages';
import type { ModelGatewayApi } from '../../src/extension';
import type { UsageDashboard } from '../../src/usage/vscode/dashboardPanel';
import type { VideoTestHooks } from '../../src/videos/vscode/feature';
import { config, until } from '../../test/host/helpers';
import { startSimulator } from '../../test/simulator';
import { FakeClock } from '../../test/util/fakeClock';
import { writeJobs } from '../startup/seed';

const EXTENSION_ID = 'model-gateway.model-gateway';
/** A folder to write a heap snapshot into before and after each case (for finding what a growth is made of). */
const SNAPSHOTS = process.env.MODEL_GATEWAY_MEMORY_SNAPSHOTS;
/** Heap readings taken between the cycles, besides the first and the last. */
const CHECKPOINTS = 4;

export interface CaseResult {
  name: string;
  cycles: number;
  startBytes: number;
  endBytes: number;
  /** Least-squares slope of the readings, in bytes per cycle. */
  slopeBytesPerCycle: number;
}

/** A full collection: `gc` as --expose-gc gives it (set here, at run time), else the inspector's. */
function collector(): () => Promise<void> {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return async () => void (gc as () => void)();
  } catch {
    // Fall through to the inspector.
  }
  const session = new inspector.Session();
  session.connect();
  return () => new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve())));
}

const collect = collector();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The heap after disposals have been handled (they cross to the window and back) and two full collections. */
async function heapAfterGc(): Promise<number> {
  await pause(300);
  for (let i = 0; i < 3; i++) {
    await collect();
    await pause(50);
  }
  return process.memoryUsage().heapUsed;
}

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

async function measure(name: string, cycles: number, warmUp: number, cycle: (i: number) => Promise<void>): Promise<CaseResult> {
  for (let i = 0; i < warmUp; i++) await cycle(-1 - i);
  const points: Array<[number, number]> = [[0, await heapAfterGc()]];
  const snapshot = (when: string) => SNAPSHOTS && v8.writeHeapSnapshot(join(SNAPSHOTS, `${name.replace(/\W+/g, '-')}-${when}.heapsnapshot`));
  snapshot('before');
  const every = Math.max(1, Math.floor(cycles / (CHECKPOINTS + 1)));
  for (let i = 0; i < cycles; i++) {
    await cycle(i);
    if ((i + 1) % every === 0 && i + 1 < cycles) points.push([i + 1, await heapAfterGc()]);
  }
  points.push([cycles, await heapAfterGc()]);
  snapshot('after');
  const result = { name, cycles, startBytes: points[0][1], endBytes: points[points.length - 1][1], slopeBytesPerCycle: slope(points) };
  console.log(`memory-case ${JSON.stringify(result)}`);
  return result;
}

/** Resolves with the first message the panel posts that `match` accepts. */
function posted(panel: ChatPanel, match: (message: HostMessage) => boolean, what: string, timeoutMs = 30_000): Promise<HostMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error(`timed out waiting for ${what}`))), timeoutMs);
    const sub = panel.onDidPost((message) => {
      if (!match(message)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(message);
    });
  });
}

/** A new chat whose page has loaded and whose model list has arrived. */
async function openChat(manager: ChatPanelManager): Promise<ChatPanel> {
  const panel = await manager.newChat();
  await posted(panel, (m) => (m.type === 'init' && !m.models.loading && m.models.models.length > 0) || (m.type === 'models' && !m.models.loading), 'the page and the model list');
  return panel;
}

async function close(panel: vscode.WebviewPanel): Promise<void> {
  const closed = new Promise<void>((resolve) => panel.onDidDispose(() => resolve()));
  panel.dispose();
  await closed;
}

export async function run(): Promise<void> {
  console.log('--- model-gateway host suite ---');
  const api = (await vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID)!.activate())!;
  const chat = api.testing.chat as { createManager(storageFolder: string): ChatPanelManager };
  const sim = await startSimulator({ tokensPerSecond: 4000, quiet: true });
  const scratch = mkdtempSync(join(tmpdir(), 'mg-memory-bench-'));
  const results: CaseResult[] = [];
  try {
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    const manager = chat.createManager(join(scratch, 'chat'));

    results.push(
      await measure('chat panel opened and closed', 50, 3, async () => {
        const panel = await openChat(manager);
        await close(panel.panel);
      }),
    );

    let streaming: ChatPanel | undefined;
    results.push(
      await measure('reply streamed (10 per panel, the panel closed after them)', 100, 10, async (i) => {
        streaming ??= await openChat(manager);
        const finished = posted(streaming, (m) => m.type === 'turnFinished', 'the reply to finish');
        await streaming.handleMessage({ type: 'send', requestId: i + 1000, text: `explain topic ${i} with an example` });
        await finished;
        // The simulator runs in this host: its request log (every request's body) is the bench's, not the extension's.
        sim.clearLog();
        if ((i + 1) % 10 === 0) {
          await close(streaming.panel);
          streaming = undefined;
        }
      }),
    );
    if (streaming) await close(streaming.panel);
    await manager.flush();
    manager.dispose();

    const usage = api.testing.usage as () => { commands(): { dashboard: UsageDashboard } };
    const dashboard = usage().commands().dashboard;
    results.push(
      await measure('Usage dashboard opened and closed', 20, 2, async () => {
        dashboard.lastUpdate = undefined;
        const panel = dashboard.show();
        await until(() => dashboard.lastUpdate, 'the dashboard to show the summary', 30_000);
        await close(panel);
      }),
    );

    const jobsFolder = join(scratch, 'videos');
    // On the simulator's origin: the view shows only the jobs of the gateways the profiles use.
    writeJobs(jobsFolder, 200, sim.origin);
    const clock = new FakeClock(Date.now());
    const videos = (api.testing.videos as VideoTestHooks).createForTest({ folder: jobsFolder, clock });
    await videos.store.ready;
    if (videos.store.jobs().length !== 200) throw new Error(`the store read ${videos.store.jobs().length} of 200 jobs`);
    // What VS Code asks of a tree on each refresh: the roots and each refreshed element's item.
    const provider = videos.view.provider;
    let itemsRead = 0;
    const readTree = () => {
      for (const node of provider.getChildren()) {
        provider.getTreeItem(node);
        itemsRead++;
      }
    };
    const listening = provider.onDidChangeTreeData(readTree);
    readTree();
    results.push(
      await measure('200 finished jobs shown, per minute of fake time (an hour)', 60, 2, async () => {
        await clock.advanceAsync(60_000);
      }),
    );
    listening.dispose();
    videos.dispose();
    if (itemsRead < 200 * 120) throw new Error(`the tree was read ${itemsRead} times: the ages were not refreshed every 30 s`);
  } finally {
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`memory-bench ${JSON.stringify(results)}`);
  console.log('host: 1 passed, 0 failed');
}
