// The chat as the hub, in the real VS Code: /image and /video run from the chat's own message handler (the one the
// webview uses), the results land in the Media history and the Video Jobs store, and the turns come back after a reload.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import type { VideoInstance } from '../../../src/videos/vscode/feature';
import { CHAT_VIEW_TYPE, type HostMessage, type WireMediaTurn } from '../../../src/chatProtocol/messages';
import { startSimulator, type Simulator } from '../../simulator';
import { parsePng } from '../../util/mediaFiles';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

interface ChatTesting {
  createManager(storageFolder: string): ChatPanelManager;
}

function cspOf(panel: ChatPanel): string {
  return /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(panel.panel.webview.html)?.[1]?.replace(/&#39;/g, "'") ?? '';
}

function directive(csp: string, name: string): string {
  return csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? '';
}

/** The latest state of each media turn the host posted to the webview. */
function mediaTurns(posted: HostMessage[]): Map<string, WireMediaTurn> {
  const turns = new Map<string, WireMediaTurn>();
  for (const message of posted) {
    const list = message.type === 'init' ? message.turns : message.type === 'turnAdded' || message.type === 'turnUpdated' ? [message.turn] : [];
    for (const turn of list) if (turn.role === 'media') turns.set(turn.id, turn);
  }
  return turns;
}

describe('chat as the hub: /image, /video (issue 14)', function () {
  this.timeout(90_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let chat: ChatTesting;
  let media: MediaTestHooks;
  let videos: VideoInstance;
  let storage: string;
  const managers: ChatPanelManager[] = [];
  const entries: string[] = [];

  async function openChat(manager: ChatPanelManager): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the webview to load', 20_000);
    return { panel, posted };
  }

  async function reopen(sessionId: string): Promise<{ panel: ChatPanel; posted: HostMessage[] }> {
    const manager = chat.createManager(storage);
    managers.push(manager);
    const webviewPanel = vscode.window.createWebviewPanel(CHAT_VIEW_TYPE, 'restoring', vscode.ViewColumn.Active);
    await manager.deserializeWebviewPanel(webviewPanel, { sessionId });
    const panel = manager.openPanels[0];
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the restored webview to load', 20_000);
    return { panel, posted };
  }

  /** Closes the chat as a window reload does, reopens it through the serializer, and gives its first media turn. */
  async function reload(panel: ChatPanel): Promise<{ restored: { panel: ChatPanel; posted: HostMessage[] }; again: WireMediaTurn | undefined }> {
    const sessionId = panel.sessionId;
    managers[0].dispose();
    await managers[0].flush();
    const restored = await reopen(sessionId);
    return { restored, again: [...mediaTurns(restored.posted).values()][0] };
  }

  before(async () => {
    sim = await startSimulator({ video: { queuedMs: 1200, inProgressMs: 1500 } });
    api = await extensionApi();
    chat = api.testing.chat as ChatTesting;
    media = api.testing.media as MediaTestHooks;
    videos = (api.testing.videos as { feature: VideoInstance }).feature;
    await config().update('video.pollMinSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', 1, vscode.ConfigurationTarget.Global);
    // These tests are about the result links the chat plays: nothing is kept, so no download takes a link's answer.
    await config().update('video.keptQuotaMB', 0, vscode.ConfigurationTarget.Global);
    await until(() => videos.service.pollBoundsMs.minMs === 1000 && videos.service.pollBoundsMs.maxMs === 1000, 'the store to take the poll settings');
    await connectTo(api, sim);
    videos.store.setFocused(true);
    await media.history.ready;
  });

  after(async () => {
    for (const m of managers.splice(0)) m.dispose();
    for (const id of entries) await media.history.remove(id);
    for (const job of videos.store.jobs(sim.origin)) await videos.store.remove(job.key);
    await config().update('video.pollMinSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.pollMaxSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('video.keptQuotaMB', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  beforeEach(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-chat-hub-'));
    const manager = chat.createManager(storage);
    managers.push(manager);
    sim.clearLog();
  });

  afterEach(async () => {
    for (const m of managers.splice(0)) {
      m.dispose();
      await m.flush();
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('/image shows the image inline from the kept file, and it survives a reload', async () => {
    const { panel, posted } = await openChat(managers[0]);
    await panel.handleMessage({ type: 'send', requestId: 1, text: '/image a lighthouse on a cliff at dawn' });
    const shown = await until(() => [...mediaTurns(posted).values()].find((t) => t.kind === 'image' && t.state !== 'pending'), 'the image turn to finish', 20_000);
    assert.equal(shown.state, 'complete', shown.detail);
    assert.equal(shown.model, 'model-image-1.0', 'the first image model the gateway lists');
    assert.deepEqual(sim.log.filter((e) => e.path === '/v1/images/generations').map((e) => (e.body as { prompt: string; n: number }).prompt), ['a lighthouse on a cliff at dawn']);
    assert.equal(sim.log.filter((e) => e.path === '/v1/chat/completions').length, 0, 'a slash command is not sent to the chat model');

    // Shown from the kept copy, through the webview's resource root, which now includes the Media history's files.
    const stored = panel.controller.session.turns.find((t) => t.role === 'media');
    assert.ok(stored?.role === 'media' && stored.entryId && stored.fileName);
    entries.push(stored.entryId);
    const file = path.join(media.history.filesFolder, stored.fileName);
    assert.ok(parsePng(fs.readFileSync(file)).width > 0, 'the kept file is a valid PNG');
    assert.equal(shown.src, panel.panel.webview.asWebviewUri(vscode.Uri.file(file)).toString());
    assert.ok(panel.panel.webview.options.localResourceRoots?.some((root) => root.fsPath === media.history.filesFolder));
    assert.ok(media.history.get(stored.entryId), 'the image is in the Media history too');
    assert.ok(!('entryId' in shown) && !('fileName' in shown), 'the webview is never told a file name');
    const img = directive(cspOf(panel), 'img-src');
    assert.ok(img.includes('data:') && img.includes('blob:') && img.includes(panel.panel.webview.cspSource), img);
    const root = panel.panel.webview.cspSource.split(' ');
    assert.deepEqual(img.split(' ').filter((s) => s.includes('*') && !root.includes(s)), [], 'no wildcard beyond the resource root');

    // Reload: the turn is saved with the session and shown again.
    const { restored, again } = await reload(panel);
    assert.equal(again?.state, 'complete');
    assert.equal(again?.content, '/image a lighthouse on a cliff at dawn');
    assert.equal(again?.src, restored.panel.panel.webview.asWebviewUri(vscode.Uri.file(file)).toString());

    // The kept copy removed (Media history pruned) and no gateway link: no source, so the view shows "expired".
    await media.history.remove(stored.entryId);
    const mark = restored.posted.length;
    await restored.panel.handleMessage({ type: 'resync' });
    const expired = await until(() => [...mediaTurns(restored.posted.slice(mark)).values()][0], 'the transcript again');
    assert.equal(expired.state, 'complete');
    assert.equal(expired.src, undefined);

    // Regenerate makes it again, in place.
    await restored.panel.handleMessage({ type: 'mediaAction', turnId: expired.id, action: 'regenerate' });
    const regenerated = await until(() => {
      const turn = mediaTurns(restored.posted).get(expired.id);
      return turn?.state === 'complete' && turn.src ? turn : undefined;
    }, 'the regenerated image', 20_000);
    const entry = restored.panel.controller.session.turns.find((t) => t.id === expired.id);
    assert.ok(entry?.role === 'media' && entry.entryId && entry.entryId !== stored.entryId);
    entries.push(entry.entryId);
    assert.ok(regenerated.src);
  });

  it('/video in the chat creates exactly one job in the tree, polled by a single poller, and plays inline when done', async () => {
    const { panel, posted } = await openChat(managers[0]);
    const before = videos.store.jobs(sim.origin).length;
    const prompt = 'a paper boat on a rainy street, from the chat';
    await panel.handleMessage({ type: 'send', requestId: 1, text: `/video ${prompt}` });
    const card = await until(() => [...mediaTurns(posted).values()].find((t) => t.kind === 'video' && t.detail), 'the video card');
    assert.equal(card.state, 'pending');

    const jobs = videos.store.jobs(sim.origin).filter((j) => j.prompt === prompt);
    assert.equal(jobs.length, 1, 'one job in the store');
    assert.equal(videos.store.jobs(sim.origin).length, before + 1);
    const tree = videos.view.provider;
    assert.equal(tree.getChildren().filter((node) => node.kind === 'job' && node.key === jobs[0].key).length, 1, 'one job in the tree');
    assert.equal(sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length, 1, 'submitted once');

    const done = await until(() => {
      const turn = mediaTurns(posted).get(card.id);
      return turn && turn.state !== 'pending' && turn.linkState !== 'checking' ? turn : undefined;
    }, 'the card to show the finished job, its link checked', 30_000);
    assert.equal(done.state, 'complete', done.detail);
    const job = videos.store.get(jobs[0].key)!;
    assert.equal(job.status, 'completed');
    assert.equal(done.src, job.resultUrls[0], 'the card plays the job\'s own result');
    assert.equal(done.contentType, 'video/mp4');
    // The page now allows exactly the gateway's origin for media, and nothing wider.
    await until(() => directive(cspOf(panel), 'media-src').split(' ').includes(sim.origin), 'the CSP to allow the result origin');
    assert.ok(!directive(cspOf(panel), 'media-src').includes('http://*'));

    // One poller: the job's status requests never come closer together than the one schedule allows.
    const polls = sim.log.filter((e) => e.method === 'GET' && e.path === `/v1/videos/generations/${job.id}`);
    assert.ok(polls.length >= 2, `polled ${polls.length} times`);
    const gaps = polls.slice(1).map((p, i) => p.startedAt - polls[i].startedAt);
    assert.ok(gaps.every((gap) => gap >= 800), `poll gaps ${gaps.join(', ')} ms: a second poller would poll in between`);
    assert.equal(videos.store.jobs(sim.origin).filter((j) => j.prompt === prompt).length, 1, 'still one job');

    // Saved with the session: after a reload the card shows the finished video again.
    const { restored } = await reload(panel);
    const again = await until(() => [...mediaTurns(restored.posted).values()].find((t) => t.src), 'the restored card, its link checked again', 20_000);
    assert.equal(again.state, 'complete');
    assert.equal(again.src, job.resultUrls[0]);
    assert.ok(directive(cspOf(restored.panel), 'media-src').split(' ').includes(sim.origin));
  });

  it('a finished video plays from its kept copy first, and still plays after its link has expired (issue 25)', async () => {
    await config().update('video.keptQuotaMB', 50, vscode.ConfigurationTarget.Global);
    try {
      const { panel, posted } = await openChat(managers[0]);
      const prompt = 'a lighthouse beam over the bay [expires:4]';
      await panel.handleMessage({ type: 'send', requestId: 1, text: `/video ${prompt}` });
      const job = await until(() => videos.store.jobs(sim.origin).find((j) => j.prompt === prompt), 'the job');
      const file = await until(() => videos.service.kept?.keptFile(job.key), 'the result to be kept', 30_000);
      const src = panel.panel.webview.asWebviewUri(vscode.Uri.file(file)).toString();
      const card = await until(() => [...mediaTurns(posted).values()].find((t) => t.kind === 'video' && t.src === src), 'the card to play the kept copy', 10_000);
      assert.equal(card.state, 'complete');
      assert.ok(panel.panel.webview.options.localResourceRoots?.some((root) => root.fsPath === path.dirname(file)), 'the page may load the kept copies');

      const link = videos.store.get(job.key)!.resultUrls[0]!;
      const expiresAt = Number(new URL(link).searchParams.get('expires')) * 1000;
      await until(() => Date.now() > expiresAt + 1000, 'the link to expire', 10_000, 200);
      assert.equal((await fetch(link)).status, 403, 'the gateway refuses the expired link');
      // Reopened after the link expired: the card plays the kept copy, and is neither "expired" nor checking the link.
      const { restored } = await reload(panel);
      const again = await until(() => [...mediaTurns(restored.posted).values()].find((t) => t.id === card.id), 'the restored card');
      assert.equal(again.src, restored.panel.panel.webview.asWebviewUri(vscode.Uri.file(file)).toString());
      assert.equal(again.linkState, undefined);
    } finally {
      await config().update('video.keptQuotaMB', 0, vscode.ConfigurationTarget.Global);
    }
  });

  /** Sends each `/video` prompt and waits until every card has left `pending` and its link check (`checking`). */
  async function finishedCards(panel: ChatPanel, posted: HostMessage[], prompts: string[]): Promise<WireMediaTurn[]> {
    for (const prompt of prompts) await panel.handleMessage({ type: 'send', requestId: 1, text: `/video ${prompt}` });
    return until(() => {
      const cards = [...mediaTurns(posted).values()].filter((t) => t.kind === 'video');
      const settled = cards.filter((t) => t.state !== 'pending' && t.linkState !== 'checking');
      return cards.length === prompts.length && settled.length === prompts.length ? prompts.map((p) => settled.find((t) => t.prompt === p)!) : undefined;
    }, 'the video cards to finish and their links to be checked', 40_000);
  }

  it('a result link that redirects to another origin plays from there, with no Regenerate; a link that is really gone says expired (issue 21)', async () => {
    const { panel, posted } = await openChat(managers[0]);
    const [redirected, gone] = await finishedCards(panel, posted, ['a kite over the dunes [redirect]', 'a kite over the sea [gone]']);

    // The page is given where the link finally leads (the simulator's second, "CDN" origin), and may load from there.
    assert.equal(redirected.state, 'complete', redirected.detail);
    const link = redirected.url!;
    assert.ok(link.startsWith(`${sim.origin}/files/`), link);
    assert.ok(redirected.src?.startsWith(`${sim.cdnOrigin}/files/`), `plays ${redirected.src}`);
    assert.equal(redirected.linkState, undefined, 'neither checking, unreachable nor expired: the view offers no Regenerate');
    const mediaSrc = await until(() => {
      const d = directive(cspOf(panel), 'media-src');
      return d.split(' ').includes(sim.cdnOrigin) ? d : undefined;
    }, 'the CSP to allow the CDN origin');
    assert.ok(!mediaSrc.includes('*:') && !mediaSrc.includes('http://*'), mediaSrc);
    // The page that has the source is one that allows its origin: the last init or update carrying it came after.
    assert.ok(sim.log.some((e) => e.path.startsWith('/files/') && e.headers.host === new URL(sim.cdnOrigin).host), 'the extension followed the redirect itself');
    assert.equal(sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length, 2, 'nothing was submitted again');

    // The simulator's 410: the extension found it gone, so it is "expired" (and only then Regenerate).
    assert.equal(gone.state, 'complete');
    assert.equal(gone.src, undefined);
    assert.equal(gone.linkState, 'expired');
    assert.match(gone.linkProblem ?? '', /HTTP 410/);

    // After a reload the redirected card plays again from the final origin.
    const { restored } = await reload(panel);
    const again = await until(() => [...mediaTurns(restored.posted).values()].find((t) => t.id === redirected.id && t.src), 'the restored card to be checked again', 20_000);
    assert.ok(again.src?.startsWith(`${sim.cdnOrigin}/files/`));
    await until(() => directive(cspOf(restored.panel), 'media-src').split(' ').includes(sim.cdnOrigin), 'the restored page to allow the CDN origin');
  });

  it('a link that cannot be reached for the moment offers Retry, which plays it once it answers; nothing is resubmitted (issue 21)', async () => {
    const { panel, posted } = await openChat(managers[0]);
    const [card] = await finishedCards(panel, posted, ['a lantern in fog [flaky-link]']);
    assert.equal(card.state, 'complete', card.detail);
    assert.equal(card.linkState, 'unreachable', 'a 503 is not "expired"');
    assert.match(card.linkProblem ?? '', /HTTP 503/);
    assert.equal(card.src, undefined);

    await panel.handleMessage({ type: 'mediaAction', turnId: card.id, action: 'retry' });
    const played = await until(() => {
      const turn = mediaTurns(posted).get(card.id);
      return turn?.src ? turn : undefined;
    }, 'the card to play after Retry', 20_000);
    assert.ok(played.src?.startsWith(`${sim.origin}/files/`));
    assert.equal(played.linkState, undefined);
    assert.equal(sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations').length, 1, 'Retry is not Regenerate');
  });

  it('an unknown slash command is refused by the same reader the webview uses, and nothing is sent', async () => {
    const { panel, posted } = await openChat(managers[0]);
    await panel.handleMessage({ type: 'send', requestId: 1, text: '/paint a cat' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mediaTurns(posted).size, 0);
    assert.equal(panel.controller.session.turns.length, 0);
    assert.equal(sim.log.filter((e) => e.method === 'POST').length, 0);
  });
});
