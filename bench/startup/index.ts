// Runs inside a real VS Code extension host (loaded like the host test suite, see scripts/vscode-host.mjs) and
// measures the first screen: activate() time, which of the extension's files activation loaded, time from New
// Chat to a composer that takes typing, and time from focusing Video Jobs to the tree's first data. Baseline, in
// the same run: a bare webview panel whose script only says it is ready.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/vscode/chatPanel';
import type { ModelGatewayApi } from '../../src/extension';
import { realClock } from '../../src/util/clock';
import { JobStore } from '../../src/videos/core/jobStore';
import { BENCH_JOBS, writeJobs } from './seed';

const EXTENSION_ID = 'model-gateway.model-gateway';
const ROUNDS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function bareWebviewReadyMs(): Promise<number> {
  const started = performance.now();
  const panel = vscode.window.createWebviewPanel('modelGatewayBench.bare', 'Bare', vscode.ViewColumn.Active, { enableScripts: true });
  const ready = new Promise<void>((resolve) => panel.webview.onDidReceiveMessage(() => resolve()));
  panel.webview.html = `<!DOCTYPE html><html><body><textarea></textarea><script>acquireVsCodeApi().postMessage({ type: 'ready' });</script></body></html>`;
  await ready;
  const elapsed = performance.now() - started;
  panel.dispose();
  return elapsed;
}

async function newChatReadyMs(manager: { newChat(): Promise<ChatPanel> }): Promise<number> {
  const started = performance.now();
  const panel = await manager.newChat();
  await new Promise<void>((resolve) => {
    const sub = panel.bridge.onDidReceive((message) => message.type === 'ready' && (sub.dispose(), resolve()));
  });
  const elapsed = performance.now() - started;
  panel.panel.dispose();
  return elapsed;
}

async function videoTreeFirstDataMs(provider: { getChildren(): unknown }): Promise<number> {
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  const original = provider.getChildren.bind(provider);
  let answered!: () => void;
  const firstData = new Promise<void>((resolve) => (answered = resolve));
  provider.getChildren = () => {
    const children = original();
    answered();
    return children;
  };
  const started = performance.now();
  await vscode.commands.executeCommand('modelGateway.videoJobs.focus');
  await firstData;
  const elapsed = performance.now() - started;
  provider.getChildren = original;
  return elapsed;
}

/**
 * A job store over a folder of BENCH_JOBS finished jobs: what building it costs (what activation pays now), and how
 * long until it has read the folder (what activation paid when it read the folder synchronously; now it does not wait).
 */
async function jobFolderMs(): Promise<{ buildMs: number; readMs: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'mg-bench-jobs-'));
  writeJobs(folder);
  const started = performance.now();
  const store = new JobStore({ folder, clock: realClock, apiFor: () => { throw new Error('the bench sends no request'); }, sharing: { rescanMs: 0 } });
  const buildMs = performance.now() - started;
  await store.ready;
  const readMs = performance.now() - started;
  const loaded = store.jobs().length;
  store.dispose();
  await store.flush();
  rmSync(folder, { recursive: true, force: true });
  if (loaded !== BENCH_JOBS) throw new Error(`the store read ${loaded} of ${BENCH_JOBS} jobs`);
  return { buildMs, readMs };
}

export async function run(): Promise<void> {
  console.log('--- model-gateway host suite ---');
  const extension = vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID)!;
  const api = (await extension.activate())!;
  // Recorded by activate() itself as it returns, so what loads later on first use (a restored panel, a poll) is not counted.
  const loaded = api.testing.loadedAtActivation as string[];
  const chat = api.testing.chat as { manager: { newChat(): Promise<ChatPanel> } };
  const videos = api.testing.videos as { feature: { view: { provider: { getChildren(): unknown } }; store: JobStore } };
  await videos.feature.store.ready;
  const seeded = videos.feature.store.jobs().length;
  if (seeded !== BENCH_JOBS) throw new Error(`activation's job store read ${seeded} of the ${BENCH_JOBS} jobs in the profile`);

  const bare: number[] = [];
  const panel: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await bareWebviewReadyMs());
    panel.push(await newChatReadyMs(chat.manager));
  }
  const tree = await videoTreeFirstDataMs(videos.feature.view.provider);
  const builds: Array<{ buildMs: number; readMs: number }> = [];
  for (let i = 0; i < ROUNDS; i++) builds.push(await jobFolderMs());
  const result = {
    activationMs: api.testing.activationMs as number,
    activationCpuMs: api.testing.activationCpuMs as number,
    activationPhases: api.testing.activationPhases as Record<string, number>,
    jobStoreBuildMs: median(builds.map((b) => b.buildMs)),
    jobFolderReadMs: median(builds.map((b) => b.readMs)),
    loadedAtActivation: loaded,
    newChatReadyMs: median(panel),
    bareWebviewReadyMs: median(bare),
    videoTreeFirstDataMs: tree,
  };
  console.log(`startup-bench ${JSON.stringify(result)}`);
  console.log('host: 1 passed, 0 failed');
}
