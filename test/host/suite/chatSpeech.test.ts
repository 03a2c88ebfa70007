// The chat's /speak in the real VS Code, against a gateway that sends its audio in pieces (the simulator's
// `chunkedSpeech`, held before its last piece until the test releases it): the card is sent the first pieces before
// the last has arrived, then the end, then the kept turn, whose file is exactly those pieces.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { HostMessage } from '../../../src/chatProtocol/messages';
import type { MediaTurn } from '../../../src/chatProtocol/session';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import { startSimulator, type Simulator } from '../../simulator';
import { connectTo, disconnect, extensionApi, until } from '../helpers';

describe('chat /speak plays as it arrives', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let media: MediaTestHooks;
  let manager: ChatPanelManager;
  let storage: string;
  const entries: string[] = [];

  before(async () => {
    sim = await startSimulator({ chunkedSpeech: true });
    const api: ModelGatewayApi = await extensionApi();
    media = api.testing.media as MediaTestHooks;
    await connectTo(api, sim);
    await media.history.ready;
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-chat-speech-'));
    manager = (api.testing.chat as { createManager(folder: string): ChatPanelManager }).createManager(storage);
  });

  after(async () => {
    sim.releaseHeldSpeech();
    manager.dispose();
    await manager.flush();
    for (const id of entries) await media.history.remove(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('sends the card the first pieces before the last has arrived, then the end, then the kept turn made of those pieces', async () => {
    const panel = await manager.newChat();
    const posted: HostMessage[] = [];
    panel.onDidPost((m) => posted.push(m));
    await until(() => posted.some((m) => m.type === 'init'), 'the webview to load', 20_000);
    const finished = (m: HostMessage) => m.type === 'turnUpdated' && m.turn.state !== 'pending';
    sim.holdSpeech();
    try {
      await panel.handleMessage({ type: 'send', requestId: 1, text: '/speak Every word of this sentence arrives in its own good time.' });
      await until(() => posted.some((m) => m.type === 'mediaAudio'), 'the first pieces');
      assert.equal(posted.some((m) => m.type === 'mediaAudioEnd' || finished(m)), false, 'the last piece is still held');
    } finally {
      sim.releaseHeldSpeech();
    }
    await until(() => posted.some(finished), 'the kept turn');
    const types = posted.map((m) => m.type);
    const complete = posted.findIndex(finished);
    assert.ok(types.lastIndexOf('mediaAudio') < types.indexOf('mediaAudioEnd') && types.indexOf('mediaAudioEnd') < complete, types.join(' '));
    const turn = panel.controller.session.turns.find((t): t is MediaTurn => t.role === 'media')!;
    assert.equal(turn.state, 'complete', turn.detail);
    entries.push(turn.entryId!);
    const file = media.history.get(turn.entryId!)!.files[0]!;
    assert.equal(file.contentType, 'audio/mpeg');
    const pieces = posted.flatMap((m) => (m.type === 'mediaAudio' ? [Buffer.from(m.data, 'base64')] : []));
    assert.deepEqual(Buffer.concat(pieces), fs.readFileSync(media.history.filePath(file)));
  });
});
