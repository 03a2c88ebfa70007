// Streamed speech plays while it arrives: Synthesize Speech with `streamFormat` opens the streaming player at the
// first bytes, before the simulator has sent its last piece (held until the test releases it), and the page, which
// says it can stream MP3, gets the pieces; once the entry is kept the same panel is the entry's. The page runs its
// bundle under a strict CSP; a violation or page exception fails the run (the workbench driver's report).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaEntry } from '../../../src/media/core/mediaEntry';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import { startSimulator, type Simulator } from '../../simulator';
import { connectTo, disconnect, extensionApi, until } from '../helpers';
import { webviewsWatched } from '../webviewProblems';

describe('streamed speech', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let media: MediaTestHooks;
  const made: string[] = [];

  before(async () => {
    sim = await startSimulator();
    const api: ModelGatewayApi = await extensionApi();
    media = api.testing.media as MediaTestHooks;
    await connectTo(api, sim);
    await media.history.ready;
  });

  after(async () => {
    sim.releaseHeldSpeech();
    for (const id of made) await media.history.remove(id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  for (const streamFormat of ['audio', 'sse'] as const) {
    it(`Synthesize Speech (${streamFormat}) opens the player before the last piece has arrived, and the entry keeps it`, async () => {
      sim.holdSpeech();
      const before = media.panels.lastStream;
      const running = vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.synthesizeSpeech', { text: `Speech that plays as it arrives, ${streamFormat}.`, voice: 'nova', format: 'mp3', streamFormat });
      try {
        const stream = await until(() => media.panels.lastStream !== before && media.panels.lastStream?.panel && media.panels.lastStream, 'the streaming player to open');
        const panel = stream.panel!;
        assert.equal(panel.webview.options.enableScripts, true);
        assert.match(panel.webview.html, /<script nonce="[^"]+" src="[^"]*webview\/player\.js"><\/script>/);
        const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(panel.webview.html)?.[1]?.replace(/&#39;/g, "'") ?? '';
        assert.match(csp, new RegExp(`media-src ${panel.webview.cspSource.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} blob:`));
        assert.ok(!/unsafe-inline|unsafe-eval/.test(csp), csp);
        if (webviewsWatched) await until(() => stream.sent.includes('piece') && stream.sent, 'the page to take the first pieces');
        // Still held: the last piece has not been sent, yet the player is open (and playing, where a page runs).
        assert.equal(stream.sent.includes('end'), false);
      } finally {
        sim.releaseHeldSpeech();
      }
      const entry = await running;
      assert.ok(entry);
      made.push(entry.id);
      assert.equal(entry.files[0].contentType, 'audio/mpeg');
      const stream = media.panels.lastStream!;
      assert.equal(media.panels.panelFor(entry.id), stream.panel, 'the streaming player is the entry\'s panel');
      if (webviewsWatched) assert.deepEqual(stream.sent.slice(-2), ['end', 'complete']);
    });
  }

  it('WAV opens no player until the entry is kept (a webview cannot play it as it arrives)', async () => {
    const entry = await vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.synthesizeSpeech', { text: 'Whole files only.', voice: 'nova', format: 'wav', streamFormat: 'audio' });
    assert.ok(entry);
    made.push(entry.id);
    assert.equal(media.panels.lastStream?.panel, undefined);
    const panel = media.panels.panelFor(entry.id);
    assert.match(panel?.webview.html ?? '', /<audio controls autoplay preload="auto" src="[^"]+">/);
  });
});
