// Image to video and images from an attached image, in the real VS Code against the simulator: /video with an image
// attached in the chat and gateway_submit_video with an image path send the first frame (the simulator's log shows
// it); /image with an image attached edits it into a new media item; an OpenRouter-dialect profile generates an
// image through chat completions and saves it into the workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import type { VideoInstance } from '../../../src/videos/vscode/feature';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import type { Turn } from '../../../src/chatProtocol/session';
import { startSimulator, type Simulator } from '../../simulator';
import { encodePng } from '../../simulator/png';
import { parsePng } from '../../util/mediaFiles';
import { connectTo, disconnect, extensionApi, until } from '../helpers';

describe('image to video, and images from an attached image (issues 34, 35)', function () {
  this.timeout(90_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let media: MediaTestHooks;
  let videos: VideoInstance;
  let storage: string;
  let manager: ChatPanelManager;
  const png = encodePng(8, 6, new Uint8Array(8 * 6 * 3).fill(77));
  const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  const entries: string[] = [];

  const frameSent = (prompt: string) => sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations' && (e.body as { input?: { prompt?: string } }).input?.prompt === prompt).map((e) => (e.body as { input: { img_url?: string } }).input.img_url);

  before(async () => {
    sim = await startSimulator({ video: { queuedMs: 300, inProgressMs: 300 } });
    api = await extensionApi();
    media = api.testing.media as MediaTestHooks;
    videos = (api.testing.videos as { feature: VideoInstance }).feature;
    await connectTo(api, sim);
    api.testing.lmToolsConfirm = false;
    await media.history.ready;
  });

  after(async () => {
    delete api.testing.lmToolsConfirm;
    for (const id of entries) await media.history.remove(id);
    for (const job of videos.store.jobs(sim.origin)) await videos.store.remove(job.key);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  beforeEach(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-frames-'));
    manager = (api.testing.chat as { createManager(folder: string): ChatPanelManager }).createManager(storage);
    sim.clearLog();
  });

  afterEach(async () => {
    manager.dispose();
    await manager.flush();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  async function chatWithImage(): Promise<{ send(text: string): Promise<void>; posted: HostMessage[]; turns(): Turn[] }> {
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the webview to load', 20_000);
    await panel.handleMessage({ type: 'attachImage', name: 'logo.png', mimeType: 'image/png', data: png.toString('base64') });
    return { send: (text) => panel.handleMessage({ type: 'send', requestId: 1, text }), posted, turns: () => panel.controller.session.turns.slice() };
  }

  it('/video with an attached image sends it to the gateway as the first frame', async () => {
    const chat = await chatWithImage();
    await chat.send('/video the logo spins slowly');
    await until(() => frameSent('the logo spins slowly').length > 0, 'the submission');
    assert.deepEqual(frameSent('the logo spins slowly'), [dataUrl]);
    const turn = await until(() => chat.turns().find((t) => t.role === 'media' && t.kind === 'video' && t.jobKey), 'the video card');
    assert.ok(turn.role === 'media' && turn.content.includes('first frame: logo.png'), turn.role === 'media' ? turn.content : '');
    assert.equal(sim.log.filter((e) => e.path === '/v1/chat/completions').length, 0);
  });

  it('/image with an attached image edits it into a new media item (the attached image is not changed)', async () => {
    const chat = await chatWithImage();
    await chat.send('/image make it blue');
    const turn = await until(() => chat.turns().find((t) => t.role === 'media' && t.kind === 'image' && t.state !== 'pending'), 'the edited image', 20_000);
    assert.ok(turn.role === 'media' && turn.state === 'complete' && turn.entryId && turn.fileName, JSON.stringify(turn));
    entries.push(turn.entryId);
    assert.deepEqual(sim.log.map((e) => e.path).filter((p) => p.startsWith('/v1/images')), ['/v1/images/edits'], 'edited, not generated');
    const kept = fs.readFileSync(path.join(media.history.filesFolder, turn.fileName));
    assert.ok(parsePng(kept).width > 0);
    assert.notDeepEqual(kept, png, 'a new image');
  });

  it('gateway_submit_video with an image path sends the workspace image as the first frame', async () => {
    const folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'mg-frame-test');
    fs.mkdirSync(folder, { recursive: true });
    try {
      fs.writeFileSync(path.join(folder, 'first.png'), png);
      const result = await vscode.lm.invokeTool('gateway_submit_video', { input: { prompt: 'a lighthouse from the first frame', image: 'mg-frame-test/first.png' }, toolInvocationToken: undefined });
      const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
      assert.match(text, /Submitted video job/);
      assert.deepEqual(frameSent('a lighthouse from the first frame'), [dataUrl]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('an OpenRouter-dialect profile generates an image through chat completions, and it is saved into the workspace', async () => {
    const id = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Router images', baseUrl: sim.baseUrl, dialect: 'openrouter' })) as string;
    assert.ok(id, 'the profile was created');
    const saved: string[] = [];
    try {
      await until(() => api.connections.profile(id), 'the connections to see the profile');
      assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey, id), true);
      const made = await media.service.generateImage({ prompt: 'a red kite over hills' }, { signal: new AbortController().signal, surface: 'tool', profile: id });
      entries.push(made.entryId);
      const asked = sim.log.filter((e) => e.method === 'POST' && e.path.startsWith('/v1/'));
      assert.deepEqual(asked.map((e) => e.path), ['/v1/chat/completions'], 'nothing went to /images/generations');
      assert.deepEqual((asked[0].body as { modalities?: string[] }).modalities, ['image', 'text']);
      const file = media.service.keptFile(made.entryId, made.fileName);
      assert.ok(file && parsePng(fs.readFileSync(file.path)).width > 0, 'the kept image is a PNG');
      const written = (await vscode.commands.executeCommand('modelGateway.media.save', { entry: made.entryId, index: 0 })) as string | undefined;
      assert.ok(written && fs.existsSync(written), `saved into the workspace: ${written}`);
      saved.push(written);
      assert.deepEqual(fs.readFileSync(written), fs.readFileSync(file.path));
    } finally {
      for (const file of saved) fs.rmSync(file, { force: true });
      await vscode.commands.executeCommand('modelGateway.profiles.delete', id, { confirm: false });
    }
  });
});
