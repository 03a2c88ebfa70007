import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import type { Memento } from '../../../src/util/memento';
import type { VideoJobNode } from '../../../src/videos/core/jobPresentation';
import type { VideoInstance, VideoTestHooks } from '../../../src/videos/vscode/feature';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { startProxy } from '../../unit/gateway/helpers/proxy';
import { config, connectTo, EXTENSION_ID, until as waitUntil } from '../helpers';
import { RecordingUi } from '../recordingUi';

const until = <T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 15_000) => waitUntil(probe, what, timeoutMs);

function iconId(item: vscode.TreeItem): string | undefined {
  return (item.iconPath as vscode.ThemeIcon | undefined)?.id;
}

function tokens(item: vscode.TreeItem): string[] {
  return (item.contextValue ?? '').split(' ').filter(Boolean);
}

/** The tooltip's text with the markdown escapes removed. */
function tooltipText(item: vscode.TreeItem): string {
  const tooltip = item.tooltip;
  const text = typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  return text.replace(/\\(.)/g, '$1');
}

class MemoryMemento implements Memento {
  private readonly data = new Map<string, unknown>();
  constructor(initial: Record<string, unknown> = {}) {
    for (const [key, value] of Object.entries(initial)) this.data.set(key, structuredClone(value));
  }
  get<T>(key: string): T | undefined {
    return structuredClone(this.data.get(key)) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, structuredClone(value));
  }
}

type Handler = (path: string, res: ServerResponse, headers: IncomingHttpHeaders, method: string) => void;

/** A local HTTP server for links the simulator does not serve (redirects, hostile answers). */
async function serve(handler: Handler): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => handler(req.url ?? '', res, req.headers, req.method ?? ''));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function completedJob(key: string, origin: string, resultUrls: string[], id = `vid_${key}`): VideoJobRecord {
  const now = Date.now();
  return { key, id, origin, model: 'model-1.0-video-edit', prompt: `job ${key}`, parameters: {}, status: 'completed', resultUrls, createdAt: now, updatedAt: now, completedAt: now };
}

/**
 * Makes a folder read-only for this process until the returned function runs: its mode, and for root (whom modes
 * do not stop) the immutable flag. Fails when neither stops a write, so the test cannot pass by not testing.
 */
function makeReadOnly(dir: string): () => void {
  fs.chmodSync(dir, 0o555);
  const root = process.getuid?.() === 0;
  if (root) execFileSync('chattr', ['+i', dir]);
  const restore = () => {
    if (root) execFileSync('chattr', ['-i', dir]);
    fs.chmodSync(dir, 0o755);
  };
  try {
    fs.writeFileSync(path.join(dir, 'probe'), '');
  } catch {
    return restore;
  }
  restore();
  throw new Error(`could not make ${dir} read-only on this machine`);
}

describe('video jobs', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let hooks: VideoTestHooks;
  let feature: VideoInstance;
  let completedKey: string | undefined;
  const bundles: VideoInstance[] = [];

  const provider = () => feature.view.provider;
  const itemFor = (key: string) => provider().getTreeItem(provider().jobNode(key));
  const statusOf = (key: string) => feature.store.get(key)?.status;
  const gets = (id: string) => sim.log.filter((e) => e.method === 'GET' && e.path === `/v1/videos/generations/${id}`);
  /** Generate Video checks the model against the gateway's list, which a key change made it fetch again. */
  const modelsLoaded = () => (api.testing.models as { load(): Promise<unknown> }).load();

  before(async () => {
    // "[slow]" jobs take long enough that no poll plan (learned or not) can meet them finished at their first poll.
    sim = await startSimulator({ video: (request) => (request.prompt.includes('[slow]') ? { queuedMs: 6000, inProgressMs: 3000 } : { queuedMs: 1200, inProgressMs: 1500 }) });
    api = await vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID)!.activate();
    hooks = api.testing.videos as VideoTestHooks;
    feature = hooks.feature;
    await config().update('video.pollMinSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', 1, vscode.ConfigurationTarget.Global);
    // These tests are about the links themselves: nothing is kept (lmTools.test.ts plays a kept result).
    await config().update('video.keptQuotaMB', 0, vscode.ConfigurationTarget.Global);
    await until(() => feature.service.pollBoundsMs.minMs === 1000 && feature.service.pollBoundsMs.maxMs === 1000, 'the store to take the poll settings');
    await connectTo(api, sim);
    // A headless browser may not report the window as focused; polling would then slow down on purpose.
    feature.store.setFocused(true);
  });

  // A test's own store stops with its test: one left polling (on another path of the same simulator) would put its
  // requests into the next test's log.
  afterEach(() => {
    for (const bundle of bundles.splice(0)) bundle.dispose();
  });

  after(async () => {
    for (const job of feature.store.jobs(sim.origin)) await feature.store.remove(job.key);
    await config().update('video.pollMinSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.keptQuotaMB', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await sim.close();
  });

  it('submits, shows the job as queued at once, and follows it to completed in the tree', async () => {
    const prompt = 'A paper boat drifting down a rain-soaked street at dusk, seen from above, slow camera';
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt, resolution: '1280x720', duration: 4 })) as VideoJobRecord;
    assert.ok(record.id, 'the gateway gave the job an id');
    assert.equal(record.status, 'queued');
    const submits = sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations');
    assert.equal(submits.length, 1);
    assert.deepEqual(submits[0].body, { model: 'model-1.0-video-edit', input: { prompt }, parameters: { resolution: '1280x720', duration: 4 } });

    const top = provider().getChildren()[0];
    assert.deepEqual(top, { kind: 'job', key: record.key }, 'newest first');
    let item = itemFor(record.key);
    assert.equal(item.label, 'A paper boat drifting down a rain-soaked street at dusk, se…');
    assert.match(String(item.description), /^queued · \d+ s ago · 1280x720 · 4 s$/);
    assert.equal(iconId(item), 'clock');
    assert.ok(tokens(item).includes('job') && tokens(item).includes('refreshable') && tokens(item).includes('removable'));
    assert.ok(!tokens(item).includes('previewable') && !tokens(item).includes('resubmittable'));
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.None);
    const badge = feature.view.treeView?.badge;
    assert.ok(badge && badge.value >= 1, 'the badge counts the running job');

    await until(() => statusOf(record.key) === 'in_progress', 'in_progress');
    item = itemFor(record.key);
    assert.match(String(item.description), /^in progress · /);
    assert.equal(iconId(item), 'sync~spin');

    await until(() => statusOf(record.key) === 'completed', 'completed');
    item = itemFor(record.key);
    assert.match(String(item.description), /^completed · .* · 1280x720 · 4 s$/);
    assert.equal(iconId(item), 'pass');
    for (const token of ['job', 'previewable', 'openable', 'downloadable', 'resubmittable', 'removable']) assert.ok(tokens(item).includes(token), token);
    assert.ok(!tokens(item).includes('refreshable') && !tokens(item).includes('failed'));
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const tooltip = tooltipText(item);
    for (const fact of [record.id!, 'model-1.0-video-edit', '1280x720', '4 s', sim.origin]) assert.ok(tooltip.includes(fact), `tooltip shows ${fact}`);

    const children = provider().getChildren(provider().jobNode(record.key));
    assert.equal(children.length, 1);
    const result = provider().getTreeItem(children[0]);
    assert.equal(result.label, record.id, 'named after the job id: the extension comes from the download');
    assert.deepEqual(tokens(result), ['result', 'previewable', 'openable', 'downloadable']);
    assert.match(String(result.description), /^link expires in (59 min|1 h)$/);
    assert.deepEqual(provider().getParent(children[0]), provider().jobNode(record.key));
    assert.equal(feature.view.treeView?.badge, undefined, 'no badge once nothing runs');
    assert.ok(gets(record.id!).length >= 2, 'the job was polled');
    completedKey = record.key;
  });

  it('shows a failed job with its error', async () => {
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: '[fail] A kite over a grey sea' })) as VideoJobRecord;
    await until(() => statusOf(record.key) === 'failed', 'failed');
    const stored = feature.store.get(record.key)!;
    assert.ok(stored.error?.message, 'the gateway sent an error');
    const item = itemFor(record.key);
    assert.equal(iconId(item), 'error');
    assert.match(String(item.description), /^failed · /);
    for (const token of ['job', 'failed', 'resubmittable', 'removable']) assert.ok(tokens(item).includes(token), token);
    assert.ok(!tokens(item).includes('previewable') && !tokens(item).includes('refreshable'));
    assert.ok(tooltipText(item).includes(stored.error.message));
    assert.ok(tooltipText(item).includes('generation_failed'));
    assert.deepEqual(provider().getChildren(provider().jobNode(record.key)), []);
  });

  it('downloads the result into the workspace, byte for byte', async () => {
    assert.ok(completedKey, 'needs the completed job of the first test');
    const uri = (await vscode.commands.executeCommand('modelGateway.videos.download', { kind: 'result', key: completedKey, index: 0 })) as vscode.Uri | undefined;
    assert.ok(uri, 'a file was written');
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.equal(path.dirname(uri.fsPath), folder);
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    const expected = fs.readFileSync(path.join(extensionPath, 'test', 'fixtures', 'video', 'sample.mp4'));
    try {
      assert.deepEqual(fs.readFileSync(uri.fsPath), expected);
      assert.deepEqual(
        fs.readdirSync(folder).filter((name) => name.endsWith('.part')),
        [],
        'no partial file is left',
      );
    } finally {
      fs.rmSync(uri.fsPath, { force: true });
    }
  });

  it('previews a result in a webview limited to the result origin', async () => {
    assert.ok(completedKey);
    const panel = (await vscode.commands.executeCommand('modelGateway.videos.preview', { kind: 'result', key: completedKey, index: 0 })) as vscode.WebviewPanel | undefined;
    assert.ok(panel);
    await until(() => panel.visible, 'the preview to show');
    await new Promise((r) => setTimeout(r, 500)); // disposing a webview that is still loading makes the workbench log an error
    try {
      const html = panel.webview.html;
      const url = feature.store.get(completedKey)!.resultUrls[0];
      const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1].replace(/&#39;/g, "'");
      assert.ok(csp);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, new RegExp(`media-src ${sim.origin.replace(/[.]/g, '\\.')}(;|$)`));
      assert.ok(!/script-src/.test(csp) && !/<script/i.test(html));
      assert.ok(html.includes(`src="${url.replace(/&/g, '&amp;')}"`), 'the signed link is in the page unchanged');
      assert.equal(panel.webview.options.enableScripts, false);
    } finally {
      panel.dispose();
    }
  });

  it('previews a result that redirects elsewhere, allowing the final origin only', async () => {
    const sample = fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'video', 'sample.mp4'));
    const cdn = await serve((_p, res, _h, method) => res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': sample.length }).end(method === 'HEAD' ? undefined : sample));
    const origin = await serve((p, res) => res.writeHead(302, { location: `${cdn.origin}/blob${p}` }).end());
    const record = completedJob('redirected', sim.origin, [`${origin.origin}/files/v.mp4?sig=a%2Fb`]);
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ redirected: [record] }), storageKey: 'redirected', ui });
    await bundle.store.ready; // the folder is read after the store is built
    bundles.push(bundle);
    const panel = await bundle.commands.preview({ kind: 'result', key: record.key, index: 0 });
    assert.ok(panel);
    try {
      const html = panel.webview.html;
      const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
      assert.ok(csp);
      assert.match(csp, new RegExp(`media-src ${cdn.origin.replace(/[.]/g, '\\.')}(;|$)`));
      assert.ok(!csp.includes(origin.origin), 'the link’s own origin is not allowed: it only redirects');
      assert.ok(html.includes(`src="${cdn.origin}/blob/files/v.mp4?sig=a%2Fb"`), 'the page plays the final link');
      await until(() => panel.visible, 'the preview to show');
      await new Promise((r) => setTimeout(r, 500)); // disposing a webview that is still loading makes the workbench log an error
    } finally {
      panel.dispose();
      await Promise.all([cdn.close(), origin.close()]);
    }
  });

  it('saves a hostile link under the job id with the extension its Content-Type allows, and refuses what is not a video or too big', async () => {
    const sample = fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'video', 'sample.mp4'));
    const files = await serve((p, res) => {
      if (p === '/conftest.py') res.writeHead(200, { 'content-type': 'video/webm' }).end(sample);
      else if (p === '/eslint.config.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end('module.exports = {};');
      else res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(2 * 1024 * 1024));
    });
    const links = ['conftest.py', 'eslint.config.js', 'big.mp4'].map((name) => `${files.origin}/${name}`);
    const record = completedJob('hostile', sim.origin, links, 'CON');
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ hostile: [record] }), storageKey: 'hostile', ui });
    await bundle.store.ready; // the folder is read after the store is built
    bundles.push(bundle);
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const before = new Set(fs.readdirSync(folder));
    const limitChanged = new Promise<void>((resolve) => {
      const watching = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('modelGateway.video.maxDownloadMB') && (watching.dispose(), resolve()));
    });
    try {
      const saved = await bundle.commands.download({ kind: 'result', key: record.key, index: 0 });
      assert.ok(saved, ui.shown.map((m) => m.message).join('\n'));
      assert.equal(path.basename(saved.fsPath), 'video-CON.webm', 'the job id (never a device name) and the extension for video/webm');
      assert.deepEqual(fs.readFileSync(saved.fsPath), sample);

      assert.equal(await bundle.commands.download({ kind: 'result', key: record.key, index: 1 }), undefined);
      assert.match(ui.shown.at(-1)!.message, /text\/javascript instead of a video/);

      await config().update('video.maxDownloadMB', 1, vscode.ConfigurationTarget.Global);
      await limitChanged;
      assert.equal(await bundle.commands.download({ kind: 'result', key: record.key, index: 2 }), undefined);
      assert.match(ui.shown.at(-1)!.message, /larger than the download limit of 1\.0 MB/);
      assert.deepEqual(fs.readdirSync(folder).filter((name) => !before.has(name)), ['video-CON.webm'], 'nothing else was written');
    } finally {
      await config().update('video.maxDownloadMB', undefined, vscode.ConfigurationTarget.Global);
      for (const name of fs.readdirSync(folder)) if (!before.has(name)) fs.rmSync(path.join(folder, name), { force: true });
      await files.close();
    }
  });

  it('downloads through VS Code’s http.proxy, as the API calls go', async () => {
    const sample = fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'video', 'sample.mp4'));
    const files = await serve((_p, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(sample));
    const proxy = await startProxy();
    // `gateway.test` resolves only inside the test proxy: the file can arrive only through it.
    const link = `http://gateway.test:${new URL(files.origin).port}/v.mp4`;
    const record = completedJob('proxied', sim.origin, [link]);
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ proxied: [record] }), storageKey: 'proxied', ui });
    await bundle.store.ready; // the folder is read after the store is built
    bundles.push(bundle);
    const proxyChanged = () =>
      new Promise<void>((resolve) => {
        const watching = vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('http.proxy') && (watching.dispose(), resolve()));
      });
    let saved: vscode.Uri | undefined;
    try {
      const set = proxyChanged();
      await vscode.workspace.getConfiguration('http').update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
      await set;
      saved = await bundle.commands.download({ kind: 'result', key: record.key, index: 0 });
      assert.ok(saved, ui.shown.map((m) => m.message).join('\n'));
      assert.deepEqual(fs.readFileSync(saved.fsPath), sample);
      assert.ok(proxy.connects.includes(`gateway.test:${new URL(files.origin).port}`), proxy.connects.join(', '));
    } finally {
      const unset = proxyChanged();
      await vscode.workspace.getConfiguration('http').update('proxy', undefined, vscode.ConfigurationTarget.Global);
      await unset;
      if (saved) fs.rmSync(saved.fsPath, { force: true });
      await Promise.all([proxy.close(), files.close()]);
    }
  });

  it('refreshes only the job that changed, as the same element, and re-reads the list only when a job comes or goes', async () => {
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento(), storageKey: 'nodes', ui });
    bundles.push(bundle);
    bundle.store.setFocused(true);
    const tree = bundle.view.provider;
    const events: Array<VideoJobNode | VideoJobNode[] | undefined> = [];
    const watching = tree.onDidChangeTreeData((e) => events.push(e ?? undefined));
    try {
      assert.deepEqual(tree.getChildren(), []);
      const job = (await bundle.commands.generateVideo({ prompt: 'Only me: a lantern on a pier' }))!;
      assert.ok(events.length > 0, 'a new job refreshes the tree');
      assert.deepEqual(events.filter((e) => e !== undefined), [], 'by re-reading the list');
      const [element] = tree.getChildren();
      assert.equal(element.key, job.key);
      events.length = 0;
      await until(() => bundle.store.get(job.key)?.status === 'completed', 'the job to complete');
      assert.ok(events.length >= 2, 'every status change refreshed the tree');
      for (const e of events) assert.ok(Array.isArray(e) && e.length === 1 && e[0] === element, 'only the job’s own element, the same object');
      const results = tree.getChildren(element);
      assert.equal(results.length, 1);
      assert.equal(tree.getChildren(element)[0], results[0], 'a result keeps its element too');
      assert.equal(tree.getParent(results[0]), element);
      events.length = 0;
      await bundle.store.remove(job.key);
      assert.deepEqual(events, [undefined], 'a removal re-reads the list');
    } finally {
      watching.dispose();
    }
  });

  it('restores the jobs after a reload and resumes polling', async () => {
    const storageKey = `modelGateway.videoJobs.hostTest.${Date.now()}`;
    const first = hooks.createForTest({ storageKey });
    bundles.push(first);
    first.store.setFocused(true);
    const job = (await first.commands.generateVideo({ prompt: 'Reload me: a lighthouse at night', resolution: '720x1280', duration: 2 }))!;
    assert.equal(job.status, 'queued');
    await first.store.flush();
    first.dispose();
    const pollsBefore = gets(job.id!).length;

    const second = hooks.createForTest({ storageKey });
    await second.store.ready; // the folder is read after the store is built
    bundles.push(second);
    second.store.setFocused(true);
    const restored = second.store.get(job.key);
    assert.ok(restored, 'the job is back');
    assert.equal(restored.id, job.id);
    assert.equal(restored.prompt, job.prompt);
    assert.deepEqual(restored.parameters, { resolution: '720x1280', duration: 2 });
    const item = second.view.provider.getTreeItem(second.view.provider.getChildren()[0]);
    assert.equal(item.label, 'Reload me: a lighthouse at night');

    await until(() => second.store.get(job.key)?.status === 'completed', 'the restored job to complete');
    assert.ok(gets(job.id!).length > pollsBefore, 'polling resumed after the reload');
    await second.store.remove(job.key);
    await second.store.flush();
    second.dispose();
  });

  it('refuses to open a command: or file: result link, and passes an https link through unchanged', async () => {
    const signed = 'https://cdn.example.com/v%20x.mp4?X-Amz-Signature=a%2Fb%3D&X-Amz-Date=20300101T000000Z&X-Amz-Expires=60&x=%7E';
    const record: VideoJobRecord = {
      key: 'job-crafted',
      id: 'vid_crafted',
      origin: sim.origin,
      model: 'model-1.0-video-edit',
      prompt: 'crafted',
      parameters: {},
      status: 'completed',
      resultUrls: ['command:workbench.action.quit', 'file:///etc/passwd', signed],
      createdAt: Date.now(),
      updatedAt: Date.now(),
      completedAt: Date.now(),
    };
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ crafted: [record] }), storageKey: 'crafted', ui });
    await bundle.store.ready; // the folder is read after the store is built
    bundles.push(bundle);
    const tree = bundle.view.provider;
    const results = tree.getChildren(tree.jobNode(record.key)) as Array<Extract<VideoJobNode, { kind: 'result' }>>;
    assert.equal(results.length, 3);

    for (const index of [0, 1]) {
      const item = tree.getTreeItem(results[index]);
      assert.deepEqual(tokens(item), ['result'], 'no open, preview or download action for it');
      assert.equal(item.command, undefined);
      ui.shown.length = 0;
      assert.equal(await bundle.commands.openResult(results[index]), false);
      assert.equal(await bundle.commands.preview(results[index]), undefined);
      assert.equal(await bundle.commands.download(results[index]), undefined);
      assert.deepEqual(ui.opened, [], 'nothing was opened');
      assert.equal(ui.shown.length, 3);
      for (const shown of ui.shown) {
        assert.equal(shown.kind, 'error');
        assert.match(shown.message, /only http and https/);
        assert.ok(shown.message.includes(index === 0 ? 'command:' : 'file:'));
      }
    }

    assert.equal(await bundle.commands.openResult(results[2]), true);
    assert.deepEqual(ui.opened, [signed], 'the signed link is opened byte for byte');
    assert.equal(await bundle.commands.copyUrl(results[2]), true);
    assert.deepEqual(ui.copied, [signed]);
  });

  it('asks before removing an unfinished job, and removes a finished one at once', async () => {
    const base = { origin: sim.origin, model: 'm', parameters: {}, resultUrls: [], createdAt: Date.now(), updatedAt: Date.now() };
    const uncertain: VideoJobRecord = { ...base, key: 'job-uncertain', prompt: 'uncertain one', status: '', localState: 'uncertain', error: { message: 'socket hang up' } };
    const failed: VideoJobRecord = { ...base, key: 'job-failed', id: 'vid_f', prompt: 'failed one', status: 'failed', error: { message: 'boom' }, createdAt: Date.now() + 1 };
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ jobs: [uncertain, failed] }), storageKey: 'jobs', ui });
    await bundle.store.ready; // the folder is read after the store is built
    bundles.push(bundle);
    const tree = bundle.view.provider;
    assert.deepEqual(
      tree.getChildren().map((n) => n.key),
      ['job-failed', 'job-uncertain'],
      'newest first',
    );
    const item = tree.getTreeItem(tree.jobNode('job-uncertain'));
    assert.equal(item.description?.toString().startsWith('submission uncertain · '), true);
    assert.equal(iconId(item), 'question');
    for (const token of ['uncertain', 'resubmittable', 'removable']) assert.ok(tokens(item).includes(token), token);
    assert.ok(!tokens(item).includes('job'), 'no job id to copy yet');

    ui.answer = undefined;
    assert.equal(await bundle.commands.remove('job-uncertain'), false);
    assert.equal(ui.asked.length, 1);
    assert.ok(bundle.store.get('job-uncertain'), 'kept when the question is dismissed');
    ui.answer = 'Remove';
    assert.equal(await bundle.commands.remove('job-uncertain'), true);
    assert.equal(bundle.store.get('job-uncertain'), undefined);

    assert.equal(await bundle.commands.remove({ kind: 'job', key: 'job-failed' }), true);
    assert.equal(ui.asked.length, 2, 'no question for a finished job');
    assert.deepEqual(tree.getChildren(), []);
  });

  it('Cancel on Gateway says at once, without asking, that a dialect cannot cancel; it asks only before a DELETE', async () => {
    const base = { origin: sim.origin, model: 'm', parameters: {}, resultUrls: [], status: 'in_progress', createdAt: Date.now(), updatedAt: Date.now() };
    const spec: VideoJobRecord = { ...base, key: 'job-spec', id: 'vid_spec_cancel', prompt: 'a spec job' };
    const openai: VideoJobRecord = { ...base, key: 'job-openai', id: 'vid_openai_cancel', prompt: 'an openai job', dialect: 'openai', baseUrl: `${sim.origin}/v1` };
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento({ jobs: [spec, openai] }), storageKey: 'jobs', ui });
    await bundle.store.ready;
    bundles.push(bundle);
    sim.clearLog();

    assert.equal(await bundle.commands.cancelOnGateway('job-spec'), false);
    assert.deepEqual(ui.asked, [], 'no confirmation for what cannot be sent');
    assert.ok(ui.notes.some((n) => /a spec job. cannot be cancelled on the gateway: the spec dialect has no way to cancel/.test(n)), ui.notes.join('\n'));

    ui.answer = undefined;
    assert.equal(await bundle.commands.cancelOnGateway('job-openai'), false);
    assert.equal(ui.asked.length, 1, 'a DELETE would go: asked first');
    assert.ok(!sim.log.some((e) => e.method === 'DELETE'), 'declined: nothing sent');
    assert.equal(bundle.store.get('job-openai')?.status, 'in_progress');
  });

  it('makes no poll during the Retry-After window of a 429, and shows the pause', async () => {
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: 'A clock tower in fog' })) as VideoJobRecord;
    const paused = new Promise<number>((resolve) => {
      const subscription = feature.store.onDidChangePause((change) => {
        if (change.origin === sim.origin && change.pausedUntil !== undefined) {
          subscription.dispose();
          resolve(change.pausedUntil);
        }
      });
    });
    const states: string[] = [];
    const watching = api.connection.onDidChangeState((state) => state.kind === 'rate-limited' && states.push(state.message));
    const firstForced = sim.log.length;
    // Before the first poll (at least a second after the submit): three polls in a row are refused. Only polls:
    // this window's other features (VS Code asking for the chat models) may call the gateway meanwhile.
    sim.force429(1, 3, '/v1/videos/generations/');
    const pausedUntil = await paused;
    const observedAt = Date.now();
    // The poller takes a 429 at once (no retry of its own): the pause is the Retry-After (1 s) counted from the
    // first 429, not before that request went out, and not after the moment the pause was seen.
    const first = sim.log.slice(firstForced).find((e) => e.status === 429);
    assert.ok(first, 'a 429 reached the store');
    assert.ok(pausedUntil >= first.startedAt + 1000, `paused until ${pausedUntil - first.startedAt} ms after the first 429 was sent`);
    assert.ok(pausedUntil <= observedAt + 1000, `paused for at most the Retry-After (${pausedUntil - observedAt} ms left when seen)`);
    assert.match(feature.view.treeView?.message ?? '', /Rate limited/);
    assert.equal(api.connection.state.kind, 'rate-limited', 'reported to the connection (status bar countdown)');

    await until(() => statusOf(record.key) === 'completed', 'the job to complete after the pause', 20_000);
    const after = sim.log.slice(firstForced);
    const limited = after.filter((e) => e.status === 429);
    assert.equal(limited.length, 3);
    for (const entry of limited) {
      const next = after.find((e) => e.seq > entry.seq);
      assert.ok(next, 'polling went on after the window');
      assert.ok(next.startedAt - entry.startedAt >= 950, `next request (${next.method} ${next.path}) ${next.startedAt - entry.startedAt} ms after a 429 with Retry-After: 1`);
    }
    assert.equal(feature.view.treeView?.message, undefined, 'the pause message is gone');
    watching.dispose();
    assert.ok(states.length > 0);
    for (const message of states) assert.match(message, /forced by the simulator/, 'only the gateway’s own 429 reaches the connection, nothing made up');
  });

  it('pauses polling when the key is refused, and resumes when the key changes', async () => {
    const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: '[slow] A fox in deep snow' })) as VideoJobRecord;
    assert.equal(await vscode.commands.executeCommand('modelGateway.rotateApiKey', sim.keys.disabled), true);
    await until(() => feature.store.isAuthBlocked(sim.origin), 'polling to wait for a key');
    assert.match(feature.view.treeView?.message ?? '', /^Video status checks are paused\. Key disabled or no access to this resource\./, 'the refusal in the one wording');
    assert.equal(gets(record.id!).at(-1)?.status, 403);
    assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey), true);
    await until(() => statusOf(record.key) === 'completed', 'the job to complete with the new key', 30_000);
    assert.equal(feature.store.isAuthBlocked(sim.origin), false);
    assert.equal(feature.view.treeView?.message, undefined);
  });

  it('sets a truncated job file aside and says so once, naming the folder', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-setaside-'));
    fs.mkdirSync(path.join(folder, 'jobs'));
    const torn = JSON.stringify(completedJob('torn', sim.origin, [])).slice(0, 60);
    fs.writeFileSync(path.join(folder, 'jobs', 'torn.json'), torn);
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ folder, storage: new MemoryMemento(), ui });
    try {
      const setAside = path.join(folder, 'set-aside');
      await until(() => ui.shown.some((s) => s.kind === 'warning' && s.message.includes(setAside)), 'the notice naming the folder');
      const moved = fs.readdirSync(setAside);
      assert.equal(moved.length, 1);
      assert.equal(fs.readFileSync(path.join(setAside, moved[0]), 'utf8'), torn, 'kept as it was');
      assert.deepEqual(fs.readdirSync(path.join(folder, 'jobs')).filter((name) => name.endsWith('.json')), []);
      await bundle.store.rescan();
      assert.equal(ui.shown.filter((s) => s.kind === 'warning').length, 1, 'said once');
    } finally {
      bundle.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('with a read-only jobs folder, Generate Video names the folder and the gateway receives no submit', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-readonly-'));
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ folder, storage: new MemoryMemento(), ui });
    await bundle.store.flush();
    await modelsLoaded();
    const posts = () => sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length;
    const postsBefore = posts();
    const jobs = path.join(folder, 'jobs');
    const restore = makeReadOnly(jobs);
    try {
      await assert.rejects(bundle.commands.generateVideo({ prompt: 'A lantern floating over a dark lake' }), /not sent/i);
      const error = ui.shown.find((s) => s.kind === 'advice');
      assert.ok(error, `an error is shown: ${JSON.stringify(ui.shown)}`);
      assert.ok(error.message.includes(jobs), `it names the folder: ${error.message}`);
      assert.match(error.message, /writable|disk space/);
      assert.equal(posts(), postsBefore, 'the simulator received no submit');
      assert.deepEqual(bundle.store.jobs(), [], 'no job lives only in memory');
    } finally {
      restore();
      bundle.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('shows a submission whose answer was lost as uncertain, never resubmits it by itself, and resubmits on request', async () => {
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento(), storageKey: 'uncertain', ui });
    bundles.push(bundle);
    const posts = () => sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length;
    const postsBefore = posts();
    await modelsLoaded(); // so that the next request, the one the fault hits, is the submission
    sim.setDefaultFault('drop-mid-stream', 1);
    const job = (await bundle.commands.generateVideo({ prompt: 'A heron taking off from a pond' }))!;
    assert.equal(job.localState, 'uncertain');
    assert.equal(job.id, undefined);
    assert.equal(posts(), postsBefore + 1, 'sent once, not retried');
    const tree = bundle.view.provider;
    const item = tree.getTreeItem(tree.jobNode(job.key));
    assert.match(String(item.description), /^submission uncertain · /);
    assert.equal(iconId(item), 'question');
    for (const token of ['uncertain', 'resubmittable', 'removable']) assert.ok(tokens(item).includes(token), token);
    assert.ok(!tokens(item).includes('refreshable'));
    await until(() => ui.shown.some((s) => s.kind === 'warning' && /Submission uncertain/.test(s.message)), 'the warning with its choices');

    await bundle.commands.checkSubmission(job.key);
    assert.match(ui.asked.at(-1) ?? '', /Submission uncertain/);
    assert.equal(posts(), postsBefore + 1, 'checking does not resubmit');

    ui.answer = 'Resubmit';
    const again = (await bundle.commands.resubmit(job.key))!;
    assert.equal(again.status, 'queued');
    assert.ok(again.id);
    assert.equal(posts(), postsBefore + 2);
    assert.equal(bundle.store.get(job.key), undefined, 'the uncertain entry is replaced by the new job');
    assert.deepEqual(tree.getChildren().map((n) => n.key), [again.key]);
    await bundle.store.remove(again.key);
  });

  it('follows an uncertain submission by the job id the gateway created, without resubmitting', async () => {
    const ui = new RecordingUi();
    const bundle = hooks.createForTest({ storage: new MemoryMemento(), storageKey: 'adopt', ui });
    bundles.push(bundle);
    await modelsLoaded(); // so that the next request, the one the fault hits, is the submission
    sim.setDefaultFault('drop-mid-stream', 1);
    const job = (await bundle.commands.generateVideo({ prompt: 'A lighthouse in fog' }))!;
    assert.equal(job.localState, 'uncertain');
    // The job the gateway's console would show for it.
    const created = await (await api.connection.api())!.submitVideo({ model: 'model-1.0-video-edit', input: { prompt: 'A lighthouse in fog' } });
    const posts = () => sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length;
    const postsBefore = posts();
    const adopted = (await bundle.commands.adoptJobId(job.key, created.id))!;
    assert.equal(adopted.id, created.id);
    assert.equal(adopted.localState, undefined);
    const tree = bundle.view.provider;
    assert.ok(tokens(tree.getTreeItem(tree.jobNode(job.key))).includes('refreshable'), 'it is polled like any job');
    await until(() => bundle.store.get(job.key)?.status === 'completed', 'the adopted job to complete');
    assert.equal(posts(), postsBefore, 'nothing was resubmitted');
    assert.equal(await bundle.commands.adoptJobId(job.key, 'vid_other'), undefined, 'a settled job takes no other id');
    await bundle.store.remove(job.key);
  });

  it('walks through the Generate Video steps with the defaults, taking the prompt from the selection', async () => {
    const prompt = 'A snail racing a tortoise along a garden wall';
    const document = await vscode.workspace.openTextDocument({ content: `${prompt}\n` });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, 0, prompt.length);
    const postsBefore = sim.log.filter((e) => e.method === 'POST').length;
    let finished = false;
    const run = Promise.resolve(vscode.commands.executeCommand('modelGateway.generateVideo')).finally(() => (finished = true));
    // Accept each step as it opens: prompt (from the selection), model, resolution, duration, source video (empty).
    while (!finished) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    const record = (await run) as VideoJobRecord | undefined;
    assert.ok(record, 'the walk-through submitted a job');
    const posts = sim.log.filter((e) => e.method === 'POST').slice(postsBefore);
    assert.equal(posts.length, 1);
    assert.deepEqual(posts[0].body, { model: 'model-1.0-video-edit', input: { prompt }, parameters: { resolution: '1280x720', duration: 5 } });
    assert.equal(feature.store.get(record.key)?.prompt, prompt);
    await until(() => statusOf(record.key) === 'completed', 'the job to complete');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('clears finished jobs of this gateway', async () => {
    const finished = feature.store.jobs(sim.origin).filter((job) => job.status === 'completed' || job.status === 'failed');
    assert.ok(finished.length >= 2);
    await vscode.commands.executeCommand('modelGateway.videos.clearFinished');
    for (const job of finished) assert.equal(feature.store.get(job.key), undefined);
  });
});
