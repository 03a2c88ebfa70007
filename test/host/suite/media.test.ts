import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { MediaEntry } from '../../../src/media/core/mediaEntry';
import { MediaHistory } from '../../../src/media/core/mediaHistory';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import { realClock } from '../../../src/util/clock';
import { startSimulator, type Simulator } from '../../simulator';
import { parsePng, parseWav } from '../../util/mediaFiles';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

/** The directives of a page's Content-Security-Policy. */
function cspOf(html: string): string[] {
  const content = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
  return content.replace(/&#39;/g, "'").replace(/&amp;/g, '&').split('; ');
}

describe('images and speech', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let media: MediaTestHooks;
  const saved: string[] = [];
  const made: string[] = [];
  const workspaceFolder = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const posts = (p: string) => sim.log.filter((e) => e.method === 'POST' && e.path === p);

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    media = api.testing.media as MediaTestHooks;
    await connectTo(api, sim);
    await media.history.ready;
  });

  after(async () => {
    for (const id of made) await media.history.remove(id);
    for (const file of saved) rmSync(file, { force: true });
    rmSync(path.join(workspaceFolder(), 'generated-media'), { recursive: true, force: true });
    await config().update('media.saveFolder', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  it('Generate Image keeps the image, shows it in the gallery and the Media view, and Save to Workspace writes a valid PNG', async () => {
    const entry = await vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.generateImage', { prompt: 'A lighthouse on a cliff at dawn', size: '256x256', count: 2 });
    assert.ok(entry, 'the command resolves with the new entry');
    made.push(entry.id);
    assert.deepEqual(posts('/v1/images/generations').map((e) => e.body), [{ model: 'model-image-1.0', prompt: 'A lighthouse on a cliff at dawn', n: 2, size: '256x256', response_format: 'b64_json' }]);
    assert.equal(entry.files.length, 2);

    const panel = media.panels.panelFor(entry.id);
    assert.ok(panel?.visible, 'the gallery is open');
    const html = panel.webview.html;
    assert.equal(cspOf(html).find((d) => d.startsWith('img-src')), `img-src ${panel.webview.cspSource}`, 'images only from the webview\'s resource root');
    assert.ok(!/script-src|<script/i.test(html), 'the gallery runs no script');
    assert.equal((html.match(/<img /g) ?? []).length, 2);
    assert.deepEqual(panel.webview.options.enableCommandUris, ['modelGateway.media.save', 'modelGateway.media.copy', 'modelGateway.media.open']);
    assert.equal(panel.webview.options.enableScripts, false);

    const top = media.view.getChildren()[0];
    assert.deepEqual(top, { entry: entry.id });
    const item = media.view.getTreeItem(top);
    assert.equal(item.label, 'A lighthouse on a cliff at dawn');
    assert.match(String(item.description), /^2 images · 256x256 · model-image-1\.0 · /);
    assert.deepEqual(media.view.getChildren(top), [{ entry: entry.id, index: 0 }, { entry: entry.id, index: 1 }]);

    const file = await vscode.commands.executeCommand<string | undefined>('modelGateway.media.save', { entry: entry.id, index: 1 });
    assert.ok(file, 'Save to Workspace resolves with the file it wrote');
    saved.push(file);
    assert.equal(path.dirname(file), workspaceFolder());
    assert.match(path.basename(file), /^image-\d{8}-\d{6}-a-lighthouse-on-a-cliff-at-dawn-2\.png$/);
    assert.deepEqual(parsePng(readFileSync(file)), { width: 256, height: 256, bitDepth: 8, colourType: 2 });
  });

  it('saves into the folder the workspace names, inside it, and keeps an image fetched from a link', async () => {
    await config().update('media.saveFolder', 'generated-media/images', vscode.ConfigurationTarget.Workspace);
    const entry = await vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.generateImage', { prompt: 'A red kite', size: '256x256', responseFormat: 'url' });
    assert.ok(entry);
    made.push(entry.id);
    assert.match(entry.files[0].sourceUrl ?? '', new RegExp(`^${sim.origin}/files/img_`));
    const file = await vscode.commands.executeCommand<string | undefined>('modelGateway.media.save', { entry: entry.id });
    assert.ok(file);
    saved.push(file);
    assert.equal(path.dirname(file), path.join(workspaceFolder(), 'generated-media', 'images'));
    assert.equal(parsePng(readFileSync(file)).width, 256);
    assert.equal(await vscode.commands.executeCommand('modelGateway.media.copy', { entry: entry.id }), entry.files[0].sourceUrl);
    assert.equal(await vscode.env.clipboard.readText(), entry.files[0].sourceUrl);
  });

  it('Synthesize Speech plays the audio in the player, and Save to Workspace writes a valid WAV', async () => {
    await config().update('speech.format', 'wav', vscode.ConfigurationTarget.Global);
    try {
      const entry = await vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.synthesizeSpeech', { text: 'Every window keeps the same history of media.', voice: 'nova' });
      assert.ok(entry);
      made.push(entry.id);
      assert.deepEqual(posts('/v1/audio/speech').at(-1)?.body, { model: 'model-speech-1.0', input: 'Every window keeps the same history of media.', voice: 'nova', response_format: 'wav' });
      const panel = media.panels.panelFor(entry.id);
      assert.ok(panel);
      assert.match(panel.webview.html, /<audio controls autoplay preload="auto" src="[^"]+">/);
      assert.equal(cspOf(panel.webview.html).find((d) => d.startsWith('media-src')), `media-src ${panel.webview.cspSource}`);

      const file = await vscode.commands.executeCommand<string | undefined>('modelGateway.media.save', { entry: entry.id });
      assert.ok(file);
      saved.push(file);
      assert.match(path.basename(file), /^speech-\d{8}-\d{6}-every-window-keeps-the-same-history-of\.wav$/);
      const bytes = readFileSync(file);
      assert.equal(bytes.toString('ascii', 0, 4), 'RIFF');
      assert.equal(bytes.toString('ascii', 8, 12), 'WAVE');
      assert.equal(parseWav(bytes).sampleRate, 16_000);
    } finally {
      await config().update('speech.format', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Read Selection Aloud speaks the editor selection', async () => {
    const document = await vscode.workspace.openTextDocument({ content: 'Not this line.\nRead this sentence aloud.\n' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 1, 25);
    const entry = await vscode.commands.executeCommand<MediaEntry | undefined>('modelGateway.readSelectionAloud');
    assert.ok(entry);
    made.push(entry.id);
    assert.equal(entry.prompt, 'Read this sentence aloud.');
    assert.equal(entry.voice, 'alloy');
    assert.equal(entry.files[0].contentType, 'audio/wav', 'the simulator answers WAV whatever format is asked');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('keeps the history in the global storage folder: another window (a second store on the folder) sees it all', async () => {
    const other = new MediaHistory({ folder: path.dirname(media.history.entriesFolder), clock: realClock, limit: () => 100 });
    try {
      await other.ready;
      for (const id of made) assert.ok(other.get(id), id);
      const entry = other.get(made[0])!;
      assert.ok(existsSync(other.filePath(entry.files[0])));
      assert.match(media.history.entriesFolder, /[\\/]globalStorage[\\/]model-gateway\.model-gateway[\\/]media[\\/]entries$/);
    } finally {
      other.dispose();
    }
  });

  it('Remove from History forgets the entry and its files and closes its panel', async () => {
    const id = made.pop()!;
    const entry = media.history.get(id)!;
    await vscode.commands.executeCommand('modelGateway.media.show', { entry: id });
    assert.ok(media.panels.panelFor(id));
    assert.equal(await vscode.commands.executeCommand('modelGateway.media.remove', { entry: id }), true);
    assert.equal(media.history.get(id), undefined);
    assert.ok(!existsSync(media.history.filePath(entry.files[0])));
    await until(() => media.panels.panelFor(id) === undefined, 'the panel to close');
    assert.equal(await vscode.commands.executeCommand('modelGateway.media.save', { entry: id }), undefined, 'a removed entry cannot be saved');
  });
});
